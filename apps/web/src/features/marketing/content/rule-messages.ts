// The rule table of the validator pages: each type or rule, what it checks, and a value it rejects
// with the engine's message (checked by packages/engine/test/marketing-examples.test.ts).
import type { ExampleField } from './engine-examples.ts';

export interface RuleMessage {
  rule: string;
  checks: string;
  field: ExampleField;
  /** A CSV cell the rule rejects ('' is an empty cell). */
  rejected: string;
  message: string;
}

export const ruleMessages: RuleMessage[] = [
  {
    rule: 'Required',
    checks: 'The value is present (not an empty cell, a missing property or null)',
    field: { name: 'v', type: 'string', required: true },
    rejected: '',
    message: 'Is required',
  },
  {
    rule: 'Text',
    checks: 'Length in characters, a pattern, allowed characters',
    field: { name: 'v', type: 'string', required: false, validation: { maxLength: 10 } },
    rejected: 'Organic cotton tee',
    message: 'Must be at most 10 characters',
  },
  {
    rule: 'Whole number',
    checks: 'Digits with an optional sign; a range',
    field: { name: 'v', type: 'integer', required: false },
    rejected: '12.0',
    message: 'Must be a whole number',
  },
  {
    rule: 'Number',
    checks: 'Plain decimals; a range and the number of decimal places',
    field: { name: 'v', type: 'number', required: false, validation: { precision: 2 } },
    rejected: '19.999',
    message: 'Must have at most 2 decimal places',
  },
  {
    rule: 'True/false',
    checks: 'true/false, 1/0, yes/no, on/off, or your own spellings',
    field: { name: 'v', type: 'boolean', required: false },
    rejected: 'maybe',
    message: 'Must be true or false (true, 1, yes, on / false, 0, no, off)',
  },
  {
    rule: 'Date',
    checks: 'A real calendar date in your format; a range; no future or past dates',
    field: { name: 'v', type: 'date', required: false },
    rejected: '15/03/2024',
    message: 'Must be a date in the format YYYY-MM-DD',
  },
  {
    rule: 'Email',
    checks: 'A well-formed email address',
    field: { name: 'v', type: 'email', required: false },
    rejected: 'jane.doe.example.com',
    message: 'Must be a valid email',
  },
  {
    rule: 'URL',
    checks: 'An absolute http:// or https:// address',
    field: { name: 'v', type: 'url', required: false },
    rejected: 'www.example.com',
    message: 'Must be a valid URL starting with http:// or https://',
  },
  {
    rule: 'List of values',
    checks: 'One of the values you list, exactly as written',
    field: {
      name: 'v',
      type: 'enum',
      required: false,
      validation: { values: ['Income', 'Expense', 'Transfer'] },
    },
    rejected: 'income',
    message: 'Must be one of: Income, Expense, Transfer. Did you mean "Income"?',
  },
];
