import { describe, expect, it } from 'vitest';
import { parseSchema } from './parse.ts';
import { editDistance, misspeltKey } from './typos.ts';

// A misspelt rule is refused with the key meant, in every form that names our rules, so the web,
// /v1 (saved or inline), jobs, the CLI and the browser all read a schema the same way.

const problems = (input: unknown) => {
  const r = parseSchema(input);
  return r.ok ? [] : r.problems.map((p) => `${p.path}: ${p.message}`);
};
const warnings = (input: unknown) => {
  const r = parseSchema(input);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.warnings;
};

const web = (field: Record<string, unknown>, root: Record<string, unknown> = {}) => ({
  name: 's',
  fileType: 'csv',
  fields: [{ name: 'code', type: 'string', required: false, ...field }],
  ...root,
});
const api = (column: Record<string, unknown>, rules: Record<string, unknown> = {}) => ({
  name: 's',
  type: 'csv',
  rules: { columns: [{ name: 'code', type: 'string', required: false, ...column }], ...rules },
});

describe('misspelt keys', () => {
  it('refuses a misspelt rule in a validation object, naming the rule meant', () => {
    expect(problems(web({ validation: { maxLenght: 5 } }))).toEqual([
      'fields[0].validation.maxLenght: unknown rule; did you mean "maxLength"?',
    ]);
    expect(problems(api({ validation: { patern: '^a' } }))).toEqual([
      'rules.columns[0].validation.patern: unknown rule; did you mean "pattern"?',
    ]);
  });

  it('refuses a misspelt rule written on the field or column', () => {
    expect(problems(web({ maxLenght: 5 }))).toEqual([
      'fields[0].maxLenght: unknown rule; did you mean "maxLength"?',
    ]);
    expect(problems(api({ MaxLength: 5 }))).toEqual([
      'rules.columns[0].MaxLength: unknown rule; did you mean "maxLength"?',
    ]);
  });

  it('refuses misspelt field keys and schema settings', () => {
    expect(problems(web({ reqired: true }))).toEqual([
      'fields[0].reqired: unknown option; did you mean "required"?',
    ]);
    expect(problems(web({}, { addtionalColumns: false }))).toEqual([
      'addtionalColumns: unknown option; did you mean "additionalColumns"?',
    ]);
    expect(problems(api({}, { orderMaters: true }))).toEqual([
      'rules.orderMaters: unknown option; did you mean "orderMatters"?',
    ]);
  });

  it('warns, without refusing, about a key that is not near any known one', () => {
    expect(warnings(web({ note: 'internal' }))).toEqual([
      "Option 'note' is not known and was ignored at fields[0].note",
    ]);
    expect(warnings(api({ validation: { colour: 'red' } }))).toEqual([
      "Option 'colour' is not known and was ignored at rules.columns[0].validation.colour",
    ]);
    // A schema read back from the API keeps its id and dates: not settings, not refused.
    expect(problems(web({}, { id: 'x', createdAt: '2026-01-01' }))).toEqual([]);
  });

  it('checks a rule written on a field of the web form, as on a column of the API form', () => {
    const r = parseSchema(web({ maxLength: 3 }));
    expect(r.ok && r.value.fields[0]!.rules.maxLength).toBe(3);
  });

  it('takes only an unambiguous, near key for a typo', () => {
    expect(misspeltKey('note', ['name', 'type'])).toBeUndefined();
    expect(misspeltKey('nmae', ['name', 'type'])).toBe('name');
    expect(misspeltKey('maxValeu', ['minValue', 'maxValue'])).toBe('maxValue');
    expect(misspeltKey('mxValue', ['minValue', 'maxValue'])).toBe('maxValue');
    expect(misspeltKey('mValue', ['minValue', 'maxValue'])).toBeUndefined();
    expect(editDistance('maxlenght', 'maxlength', 2)).toBe(1);
  });
});
