import { describe, expect, it } from 'vitest';
import type { SchemaProblem } from '../model.ts';
import { parseSchema, parseSchemaText } from './parse.ts';

function problems(input: unknown): SchemaProblem[] {
  const checked = parseSchema(input);
  if (checked.ok) throw new Error('accepted');
  return checked.problems;
}

/** One web-form field with these validation options; its problems. */
function fieldProblems(type: string, validation: Record<string, unknown>): SchemaProblem[] {
  return problems({
    name: 's',
    fileType: 'csv',
    fields: [
      { name: 'ok', type: 'string' },
      { name: 'f', type, required: false, validation },
    ],
  });
}

const at = (path: string, message: string): SchemaProblem => ({ path, message });

describe('a bad schema is refused with every problem, each with its path', () => {
  it('not an object', () => {
    expect(problems([1, 2])).toEqual([at('', 'The schema must be a JSON object')]);
    expect(problems('fields')).toEqual([at('', 'The schema must be a JSON object')]);
  });

  it('an unknown form', () => {
    expect(problems({ columns: [] })[0]?.message).toMatch(/^This is not a schema we recognise/);
  });

  it('a missing, empty or wrong field list', () => {
    expect(problems({ name: 'x', fileType: 'csv' })).toEqual([
      at('fields', 'The schema needs at least one field'),
    ]);
    expect(problems({ name: 'x', fields: [] })).toEqual([
      at('fields', 'The schema needs at least one field'),
    ]);
    expect(parseSchema({ name: 'x', fields: {} }, 'web')).toEqual({
      ok: false,
      problems: [at('fields', 'fields must be a list of fields')],
    });
    expect(problems({ name: 'x', fields: [3] })).toEqual([
      at('fields[0]', 'Each field must be an object with name, type, required and validation'),
    ]);
  });

  it('an unknown or missing type', () => {
    expect(problems({ fields: [{ name: 'a', type: 'strng' }] })).toEqual([
      at(
        'fields[0].type',
        "Unknown type 'strng'. Use one of: string, integer, number, boolean, date, email, url, enum",
      ),
    ]);
    expect(problems({ fields: [{ name: 'a', required: true }] })).toEqual([
      at(
        'fields[0].type',
        'The field type is missing. Use one of: string, integer, number, boolean, date, email, url, enum',
      ),
    ]);
  });

  it('an empty, missing or duplicate field name', () => {
    expect(
      problems({
        fields: [{ name: '', type: 'string' }, { type: 'string' }, { name: '  ', type: 'string' }],
      }),
    ).toEqual([
      at('fields[0].name', 'Every field needs a name'),
      at('fields[1].name', 'Every field needs a name'),
      at('fields[2].name', 'Every field needs a name'),
    ]);
    expect(
      problems({
        fields: [
          { name: 'email', type: 'string' },
          { name: 'id', type: 'integer' },
          { name: 'email', type: 'email' },
        ],
      }),
    ).toEqual([at('fields[2].name', "The field name 'email' is used twice (also at fields[0])")]);
  });

  it.each<[string, Record<string, unknown>, SchemaProblem]>([
    [
      'string',
      { minLength: 5, maxLength: 3 },
      at('fields[1].validation.minLength', 'minLength (5) is greater than maxLength (3)'),
    ],
    [
      'string',
      { minLength: -1 },
      at('fields[1].validation.minLength', 'minLength cannot be negative'),
    ],
    [
      'string',
      { maxLength: '2.5' },
      at('fields[1].validation.maxLength', 'maxLength must be a whole number'),
    ],
    [
      'string',
      { maxLength: 'ten' },
      at('fields[1].validation.maxLength', 'maxLength must be a number'),
    ],
    [
      'number',
      { precision: 1.5 },
      at('fields[1].validation.precision', 'precision must be a whole number'),
    ],
    [
      'number',
      { precision: 101 },
      at('fields[1].validation.precision', 'precision must be at most 100'),
    ],
    [
      'integer',
      { minValue: 10, maxValue: '9' },
      at(
        'fields[1].validation.minValue',
        'minValue (10) is greater than maxValue (9), so no value could pass',
      ),
    ],
    [
      'integer',
      { minValue: 'abc' },
      at('fields[1].validation.minValue', 'minValue must be a number'),
    ],
    ['number', { maxValue: [1] }, at('fields[1].validation.maxValue', 'maxValue must be a number')],
    [
      'number',
      { exclusiveMinimum: 5, maxValue: 5 },
      at(
        'fields[1].validation.exclusiveMinimum',
        'exclusiveMinimum (5) is equal to maxValue (5), so no value could pass',
      ),
    ],
    [
      'string',
      { pattern: 'a(?=b)' },
      at('fields[1].validation.pattern', 'Lookahead (?=...) is not supported'),
    ],
    [
      'string',
      { pattern: '(a)\\1' },
      at('fields[1].validation.pattern', 'Backreferences like \\1 are not supported'),
    ],
    [
      'string',
      { pattern: '[a-z' },
      at(
        'fields[1].validation.pattern',
        'Unterminated character class [ : a closing ] is missing in [a-z',
      ),
    ],
    [
      'string',
      { pattern: 'x'.repeat(1001) },
      at('fields[1].validation.pattern', 'The pattern is 1001 characters long; the limit is 1000'),
    ],
    ['string', { pattern: 42 }, at('fields[1].validation.pattern', 'pattern must be text')],
    ['enum', {}, at('fields[1].validation.values', 'An enum field needs a list of allowed values')],
    [
      'enum',
      { values: [] },
      at('fields[1].validation.values', 'An enum field needs a list of allowed values'),
    ],
    [
      'enum',
      { values: 'a,b' },
      at('fields[1].validation.values', 'values must be a list of text values, like ["a", "b"]'),
    ],
    [
      'string',
      { values: ['a', 2] },
      at(
        'fields[1].validation.values[1]',
        'values must be a list of text values; item 2 is the number 2',
      ),
    ],
    [
      'date',
      { minDate: '2024-02-30' },
      at(
        'fields[1].validation.minDate',
        'minDate must be a real date written as YYYY-MM-DD, like 2024-01-31',
      ),
    ],
    [
      'date',
      { maxDate: '31/12/2024' },
      at(
        'fields[1].validation.maxDate',
        'maxDate must be a real date written as YYYY-MM-DD, like 2024-01-31',
      ),
    ],
    [
      'date',
      { minDate: '2024-02-01', maxDate: '2024-01-01' },
      at('fields[1].validation.minDate', 'minDate (2024-02-01) is after maxDate (2024-01-01)'),
    ],
    [
      'date',
      { format: 'YYYY-Q' },
      at(
        'fields[1].validation.format',
        "Unknown date token 'Q' in format 'YYYY-Q'. Use YYYY, MM, DD, HH, mm, ss (and T between date and time, Z for a time zone, z for an optional one)",
      ),
    ],
    [
      'date',
      { allowFuture: false, allowPast: false },
      at(
        'fields[1].validation.allowPast',
        'allowFuture and allowPast cannot both be false: only today would be accepted',
      ),
    ],
    [
      'date',
      { allowFuture: 'no' },
      at('fields[1].validation.allowFuture', 'allowFuture must be true or false'),
    ],
    [
      'boolean',
      { truthy: ['yes', 'Y'], falsy: ['N', 'YES'] },
      at('fields[1].validation.falsy', "'YES' is in both the truthy and the falsy lists"),
    ],
    [
      'boolean',
      { truthy: ['no'] },
      at('fields[1].validation.truthy', "'no' is in both the truthy and the falsy lists"),
    ],
    [
      'string',
      { unique: 'yes' },
      at('fields[1].validation.unique', 'unique must be true or false'),
    ],
    [
      'string',
      { allowedChars: 'x'.repeat(10_001) },
      at('fields[1].validation.allowedChars', 'allowedChars is longer than 10,000 characters'),
    ],
  ])('%s with %j', (type, validation, expected) => {
    expect(fieldProblems(type, validation)).toEqual([expected]);
  });

  it('a validation that is not an object', () => {
    expect(fieldProblems('string', 'maxLength=3' as unknown as Record<string, unknown>)).toEqual([
      at(
        'fields[1].validation',
        'validation must be an object of options, like { "maxLength": 50 }',
      ),
    ]);
  });

  it('a schema name that is too long, a wrong file type or flag', () => {
    expect(
      problems({
        name: 'n'.repeat(201),
        fileType: 'xml',
        orderMatters: 'sometimes',
        fields: [{ name: 'a', type: 'string' }],
      }),
    ).toEqual([
      at('name', 'The schema name is longer than 200 characters'),
      at('fileType', "fileType must be csv or json, not 'xml'"),
      at('orderMatters', 'orderMatters must be true or false'),
    ]);
  });

  it('more than 500 fields', () => {
    const fields = Array.from({ length: 501 }, (_, i) => ({ name: `f${i}`, type: 'string' }));
    expect(problems({ name: 'x', fields })).toEqual([
      at('fields', 'A schema can have at most 500 fields; this one has 501'),
    ]);
  });

  it('JSON Schema $refs that fan out are refused for their size, at once', () => {
    // Each definition names the next four times: 4^12 properties from a 2 KB schema.
    const $defs: Record<string, unknown> = { d12: { type: 'string' } };
    for (let i = 0; i < 12; i++) {
      const next = { $ref: `#/$defs/d${i + 1}` };
      $defs[`d${i}`] = { type: 'object', properties: { a: next, b: next, c: next, d: next } };
    }
    const started = Date.now();
    const found = problems({ $defs, type: 'object', properties: { x: { $ref: '#/$defs/d0' } } });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(found).toHaveLength(1);
    expect(found[0]?.message).toMatch(
      /^A schema can have at most 500 fields; this one has at least 5\d\d$/,
    );
  });

  it('patterns too complex together', () => {
    const fields = Array.from({ length: 20 }, (_, i) => ({
      name: `f${i}`,
      type: 'string',
      validation: { pattern: `^.{1,1000}${i}$` },
    }));
    const found = problems({ name: 'x', fields });
    expect(found).toHaveLength(1);
    expect(found[0]?.message).toBe(
      'The patterns of this schema are too complex together. Simplify some of them or use fewer',
    );
    expect(found[0]?.path).toMatch(/^fields\[\d+\]\.validation\.pattern$/);
  });

  it('lists every problem of a schema at once, in reading order', () => {
    expect(
      problems({
        name: 'x',
        fields: [
          { name: 'a', type: 'strng', validation: { pattern: '(?=x)', minLength: -1 } },
          { name: '', type: 'string' },
          { name: 'c', type: 'enum', validation: { customRule: 'x' } },
        ],
      }),
    ).toEqual([
      at(
        'fields[0].type',
        "Unknown type 'strng'. Use one of: string, integer, number, boolean, date, email, url, enum",
      ),
      at('fields[0].validation.minLength', 'minLength cannot be negative'),
      at('fields[0].validation.pattern', 'Lookahead (?=...) is not supported'),
      at('fields[1].name', 'Every field needs a name'),
      at('fields[2].validation.values', 'An enum field needs a list of allowed values'),
    ]);
  });

  it('JSON text with a syntax error: one problem naming the line and column', () => {
    expect(parseSchemaText('{\n  "fields": [\n    { "name": "a", }\n  ]\n}')).toEqual({
      ok: false,
      problems: [
        at(
          '',
          "The schema is not valid JSON: a comma before '}' (trailing commas are not allowed) (line 3, column 18)",
        ),
      ],
    });
    expect(parseSchemaText('{"fields": [')).toEqual({
      ok: false,
      problems: [
        at('', 'The schema is not valid JSON: the schema ends too early (line 1, column 13)'),
      ],
    });
    expect(parseSchemaText("{'fields': []}")).toEqual({
      ok: false,
      problems: [
        at(
          '',
          "The schema is not valid JSON: expected a property name in double quotes but found ''' (line 1, column 2)",
        ),
      ],
    });
  });
});
