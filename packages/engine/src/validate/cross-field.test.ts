// Cross-field rules, severities, message templates, "did you mean" and reference lists: the
// messages and shapes users see, one example each (the property test covers the verdicts).
import { describe, expect, it } from 'vitest';
import type { SchemaModel, ValidationResult } from '../model.ts';
import { parseSchema } from '../schema/parse.ts';
import { editDistance, buildSuggester } from './suggest.ts';
import { createValidator, validateBytes, type ValidateOptions } from './validator.ts';

const field = (name: string, type = 'string', validation: Record<string, unknown> = {}) => ({
  name,
  type,
  required: false,
  validation,
});

function schema(fields: unknown[], rules: unknown[] = []): SchemaModel {
  const parsed = parseSchema({ name: 'Orders', fileType: 'csv', fields, rules });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.value;
}

function problems(fields: unknown[], rules: unknown[]): string[] {
  const parsed = parseSchema({ name: 'Orders', fileType: 'csv', fields, rules });
  return parsed.ok ? [] : parsed.problems.map((p) => `${p.path}: ${p.message}`);
}

function csv(
  model: SchemaModel,
  text: string,
  options: Partial<ValidateOptions> = {},
): ValidationResult {
  return validateBytes(model, new TextEncoder().encode(text), { fileType: 'csv', ...options });
}

const shown = (r: ValidationResult) => r.errors.map((e) => `${e.row} ${e.field}: ${e.message}`);

describe('each rule kind: code, dependent field and message', () => {
  const fields = [
    field('country'),
    field('vat_number'),
    field('status'),
    field('ship_date', 'date'),
    field('email'),
    field('phone'),
    field('start_date', 'date'),
    field('end_date', 'date'),
    field('discount', 'number'),
    field('state'),
    field('net', 'number'),
    field('vat', 'number'),
    field('gross', 'number'),
    field('sku'),
    field('warehouse'),
  ];
  const rules = [
    {
      kind: 'requiredWhen',
      field: 'vat_number',
      when: { field: 'country', op: 'in', value: ['DE', 'FR'] },
    },
    {
      kind: 'emptyWhen',
      field: 'ship_date',
      when: { field: 'status', op: '=', value: 'cancelled' },
    },
    { kind: 'requireOneOf', fields: ['email', 'phone'], min: 1 },
    { kind: 'compare', left: 'end_date', op: '>=', right: 'start_date' },
    { kind: 'compare', left: 'discount', op: '<', value: '50' },
    {
      kind: 'allowedValuesWhen',
      field: 'state',
      when: { field: 'country', op: '=', value: 'US' },
      values: ['CA', 'NY', 'TX'],
    },
    { kind: 'sum', fields: ['net', 'vat'], equals: 'gross', tolerance: '0.01' },
    { kind: 'uniqueTogether', fields: ['sku', 'warehouse'] },
  ];
  const header = fields.map((f) => f.name).join(',');
  const model = schema(fields, rules);

  it('reports one error per rule per row, on the dependent field', () => {
    const r = csv(
      model,
      `${header}\n` +
        'DE,,cancelled,2024-01-02,,,2024-01-05,2024-01-04,50,,100,19,119.02,A,W1\n' +
        'US,X,open,,a@b.c,,2024-01-01,2024-01-01,10,ZZ,100,19,119.01,A,W1\n' +
        'FR,Y,open,,,1,,,,,,,,A,W2\n',
    );
    expect(shown(r)).toEqual([
      '2 vat_number: Required when country is "DE"',
      '2 ship_date: Must be empty when status is "cancelled"',
      '2 email: At least one of email, phone is required',
      '2 end_date: Must be on or after start_date ("2024-01-05")',
      '2 discount: Must be less than 50',
      '2 gross: Must equal net + vat = 119.00 (within 0.01)',
      '3 state: Must be one of: CA, NY, TX when country is "US"',
      '3 warehouse: Duplicate combination of sku, warehouse; first seen in row 2',
    ]);
    expect(r.errors.map((e) => e.code)).toEqual([
      'required_when',
      'empty_when',
      'require_one_of',
      'compare',
      'compare',
      'sum',
      'allowed_values_when',
      'unique_together',
    ]);
    expect(r.errors[3]?.value).toBe('2024-01-04');
    expect(r.invalidRows).toBe(2);
  });

  it('never fails compare or sum on an empty cell', () => {
    const r = csv(model, `${header}\n,,,,a,,,2024-01-01,,,,19,100,,\n`);
    expect(r.valid).toBe(true);
  });
});

describe('comparisons follow the fields’ types', () => {
  it('numbers as exact decimals, beyond 2^53', () => {
    const m = schema(
      [field('a', 'integer'), field('b', 'number')],
      [{ kind: 'compare', left: 'a', op: '<', right: 'b' }],
    );
    expect(
      csv(
        m,
        'a,b\n9007199254740993,9007199254740992.5\n9007199254740992,9007199254740992.5\n01,1.5\n',
      ).errors.map((e) => e.row),
    ).toEqual([2]);
  });
  it('dates by calendar in their declared formats', () => {
    const m = schema(
      [field('start', 'date', { format: 'DD/MM/YYYY' }), field('end', 'date')],
      [
        { kind: 'compare', left: 'end', op: '>', right: 'start' },
        { kind: 'compare', left: 'end', op: '<=', value: '2024-12-31' },
      ],
    );
    expect(
      shown(
        csv(m, 'start,end\n31/01/2024,2024-02-01\n01/02/2024,2024-01-31\n01/01/2024,2025-01-01\n'),
      ),
    ).toEqual([
      '3 end: Must be after start ("01/02/2024")',
      '4 end: Must be on or before 2024-12-31',
    ]);
  });
  it('sums exactly: 0.1 + 0.2 = 0.3, with no tolerance', () => {
    const m = schema(
      [field('a', 'number'), field('b', 'number'), field('c', 'number')],
      [{ kind: 'sum', fields: ['a', 'b'], equals: 'c' }],
    );
    expect(
      csv(m, 'a,b,c\n0.1,0.2,0.3\n0.1,0.2,0.30000000000000004\n1e2,-0.5,99.5\n').errors.map(
        (e) => e.row,
      ),
    ).toEqual([3]);
  });
  it('booleans by reading, text as written', () => {
    const m = schema(
      [field('paid', 'boolean'), field('note')],
      [{ kind: 'requiredWhen', field: 'note', when: { field: 'paid', op: '=', value: true } }],
    );
    expect(csv(m, 'paid,note\nYES,\nno,\n1,x\n').errors.map((e) => e.row)).toEqual([2]);
  });
  it('a value not of its type (already a type error) makes the rule skip the row', () => {
    const m = schema(
      [field('a', 'number'), field('b', 'number')],
      [{ kind: 'compare', left: 'a', op: '<', right: 'b' }],
    );
    expect(csv(m, 'a,b\nx,1\n').errors.map((e) => e.code)).toEqual(['type']);
  });
});

describe('schema problems name the rule by its path', () => {
  const fields = [
    field('a', 'date'),
    field('b', 'number'),
    field('c'),
    field('f', 'boolean'),
    field('g', 'boolean', { truthy: ['Y'], falsy: ['N'] }),
  ];
  it.each([
    [
      { kind: 'compare', left: 'a', op: '<', right: 'b' },
      "rules[0].right: 'a' (a date) cannot be compared with 'b' (a number)",
    ],
    [
      { kind: 'requiredWhen', field: 'zz', when: { field: 'c', op: 'isEmpty' } },
      "rules[0].field: Unknown field 'zz': the schema has no field of that name",
    ],
    [
      { kind: 'sum', fields: ['b', 'c'], equals: 'b' },
      "rules[0].fields[1]: 'c' is a text field; a sum needs number or integer fields",
    ],
    [
      { kind: 'compare', left: 'b', op: '<', value: 'ten' },
      "rules[0].value: 'ten' is not a number, but b is a number field",
    ],
    [
      { kind: 'nope' },
      'rules[0].kind: Unknown rule kind "nope". Use one of: requiredWhen, emptyWhen, requireOneOf, compare, allowedValuesWhen, sum, uniqueTogether',
    ],
    [
      { kind: 'compare', left: 'b', op: '=>', value: 1 },
      'rules[0].op: Unknown operator "=>". Use one of: = != > >= < <=',
    ],
    [
      { kind: 'uniqueTogether', fields: ['b'] },
      'rules[0].fields: fields must be a list of 2 or more field names (at most 50)',
    ],
    [
      { kind: 'compare', left: 'b', op: '<' },
      'rules[0]: A compare rule needs either right (a field) or value (a constant)',
    ],
    [
      { kind: 'sum', fields: ['b'], equals: 'f' },
      "rules[0].equals: 'f' is a true/false field; a sum needs number or integer fields",
    ],
    [
      // A constant no cell can read as: the rule would never (or always) hold.
      { kind: 'compare', left: 'f', op: '!=', value: 'maybe' },
      "rules[0].value: 'maybe' is not true or false, but f is a true/false field (true, 1, yes, on / false, 0, no, off)",
    ],
    [
      { kind: 'requiredWhen', field: 'c', when: { field: 'g', op: 'in', value: ['Y', 'yes'] } },
      "rules[0].when.value[1]: 'yes' is not true or false, but g is a true/false field (Y / N)",
    ],
  ])('%j', (rule, message) => {
    expect(problems(fields, [rule])).toEqual([message]);
  });
  it('warns of a condition that never holds and of options a condition does not know', () => {
    const parsed = parseSchema({
      name: 'Orders',
      fileType: 'csv',
      fields,
      rules: [
        { kind: 'requiredWhen', field: 'c', when: { field: 'a', op: 'isEmpty' } },
        { kind: 'requiredWhen', field: 'b', when: { field: 'c', op: '=', value: '' } },
        {
          kind: 'requiredWhen',
          field: 'b',
          when: { field: 'c', op: 'isEmpty', severity: 'warning' },
        },
      ],
    });
    expect(parsed.ok && parsed.warnings).toEqual([
      'A condition with "op": "=" and "value": "" never holds (an empty value is read as no value); use "op": "isEmpty" at rules[1].when.value',
      "Condition option 'severity' is not known and was ignored at rules[2].when.severity",
    ]);
  });
  it('a true/false constant is read as the field reads a cell', () => {
    const rules = [
      { kind: 'requiredWhen', field: 'c', when: { field: 'g', op: '=', value: 'y' } },
      { kind: 'requiredWhen', field: 'c', when: { field: 'g', op: '=', value: true } },
      { kind: 'compare', left: 'f', op: '=', value: 'NO' },
    ];
    expect(problems(fields, rules)).toEqual([]);
    expect(shown(csv(schema(fields, rules), 'a,b,c,f,g\n,,,no,Y\n,,,yes,N\n'))).toEqual([
      '2 c: Required when g is "Y"',
      '2 c: Required when g is "Y"',
      '3 f: Must be equal to NO',
    ]);
  });
});

describe('severity and message templates', () => {
  it('warnings are listed and counted apart; a file with only warnings is valid', () => {
    const m = schema(
      [field('a', 'number', { maxValue: 10, severity: 'warning' }), field('b', 'number')],
      [
        {
          kind: 'compare',
          left: 'b',
          op: '>',
          right: 'a',
          severity: 'warning',
          message: '{field} ({value}) should exceed {other}',
        },
      ],
    );
    const r = csv(m, 'a,b\n11,3\n');
    expect(r.valid).toBe(true);
    expect(r.errorCount).toBe(0);
    expect(r.invalidRows).toBe(0);
    expect(r.warningCount).toBe(2);
    expect(r.warningIssues?.map((w) => [w.field, w.code, w.message, w.severity])).toEqual([
      ['a', 'maximum', 'Must be at most 10', 'warning'],
      ['b', 'compare', 'b (3) should exceed 11', 'warning'],
    ]);
  });
  it('a field message replaces every message of the field', () => {
    const m = schema([
      field('code', 'string', {
        pattern: '^[A-Z]{3}$',
        required: true,
        message: '{field} must be three capitals, not "{value}"',
      }),
    ]);
    expect(shown(csv(m, 'code\nab\n'))).toEqual(['2 code: code must be three capitals, not "ab"']);
  });
  it('a message quotes a long cell cut as the issue value is, in CSV and JSON alike', () => {
    const long = 'x'.repeat(900);
    const cut = `${'x'.repeat(199)}…`;
    const fields = [
      field('country'),
      field('vat'),
      field('start', 'string', { maxLength: 3, message: '{field}: {value}' }),
      field('end'),
    ];
    const rules = [
      { kind: 'requiredWhen', field: 'vat', when: { field: 'country', op: 'isNotEmpty' } },
      { kind: 'compare', left: 'end', op: '>', right: 'start' },
      { kind: 'emptyWhen', field: 'end', when: { field: 'country', op: '=', value: long } },
      { kind: 'compare', left: 'country', op: '=', value: 'A', message: '{value}|{other}' },
    ];
    const m = schema(fields, rules);
    const expected = [
      `start: ${cut}`,
      `Required when country is "${cut}"`,
      `Must be greater than start ("${cut}")`,
      `Must be empty when country is "${cut}"`,
      `${cut}|A`,
    ];
    for (const byteCore of [true, false]) {
      const r = csv(m, `country,vat,end,start\n${long},,a,${long}\n`, { byteCore });
      expect(r.errors.map((e) => e.message)).toEqual(expected);
    }
    const record = JSON.stringify([{ country: long, end: 'a', start: long }]);
    const json = validateBytes({ ...m, fileType: 'json' }, new TextEncoder().encode(record), {
      fileType: 'json',
    });
    expect(json.errors.map((e) => e.message)).toEqual(expected);
  });
  it('every issue sent to onIssue carries its severity', () => {
    const seen: (string | undefined)[] = [];
    const m = schema([field('a', 'integer', { severity: 'warning' }), field('b', 'integer')]);
    csv(m, 'a,b\nx,y\n', { onIssue: (i) => seen.push(i.severity) });
    expect(seen).toEqual(['warning', undefined]);
  });
});

describe('did you mean', () => {
  const m = schema([
    field('cat', 'enum', { values: ['Income', 'Expense', 'Transfer', 'Café', 'Tax'] }),
  ]);
  it.each([
    ['income', 'Income'],
    [' Income', 'Income'],
    ['Cafe', 'Café'],
    ['Expnese', 'Expense'],
    ['Trnasfr', 'Transfer'],
  ])('%s → %s', (value, suggestion) => {
    const r = csv(m, `cat\n${value}\n`);
    expect(r.errors[0]?.suggestion).toBe(suggestion);
    expect(r.errors[0]?.message).toBe(
      `Must be one of: Income, Expense, Transfer, Café, Tax. Did you mean "${suggestion}"?`,
    );
  });
  it('no suggestion beyond distance 2 or under 4 characters', () => {
    expect(csv(m, 'cat\nXyzzy\nTaz\n').errors.map((e) => e.suggestion)).toEqual([
      undefined,
      undefined,
    ]);
  });
  it('the edit distance counts swaps as one', () => {
    expect(editDistance('abcd', 'bacd', 3)).toBe(1);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(buildSuggester(['alpha', 'beta']).suggest('alpah')).toBe('alpha');
  });
});

describe('reference lists (inList)', () => {
  const m = schema([field('category', 'string', { inList: 'google-categories' })]);
  it('checks against a list passed as an option, with suggestions', () => {
    const lists = { 'google-categories': ['Apparel', 'Electronics', 'Toys & Games'] };
    const r = csv(m, 'category\nApparel\nelectronics\nFood\n', { lists });
    expect(r.errors.map((e) => [e.row, e.code, e.message, e.suggestion])).toEqual([
      [
        3,
        'in_list',
        'Must be a value of the list google-categories. Did you mean "Electronics"?',
        'Electronics',
      ],
      [4, 'in_list', 'Must be a value of the list google-categories', undefined],
    ]);
  });
  it('warns when the list was not given', () => {
    const r = csv(m, 'category\nanything\n');
    expect(r.valid).toBe(true);
    expect(r.warnings.map((w) => w.message)).toEqual([
      "The list 'google-categories' of field 'category' was not given, so its values were not checked against it",
    ]);
  });
  it('takes a 1,000,000-value list, and suggests from it without scanning it', () => {
    const values = Array.from({ length: 1_000_000 }, (_, i) => `value-${i}`);
    const started = performance.now();
    const r = csv(m, 'category\nvalue-999999\nvalue-1000000x\nVALUE-5\n', {
      lists: { 'google-categories': values },
    });
    expect(r.errors.map((e) => [e.row, e.suggestion])).toEqual([
      [3, undefined],
      [4, 'value-5'],
    ]);
    // Generous: the test machine is shared; this catches a per-cell scan, not a slow second.
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});

describe('JSON: rules over paths of one record', () => {
  it('reports on the dependent field with its path', () => {
    const parsed = parseSchema({
      name: 'j',
      fileType: 'json',
      fields: [
        field('address.country'),
        field('address.zip'),
        field('total', 'number'),
        field('lines.sum', 'number'),
      ],
      rules: [
        {
          kind: 'requiredWhen',
          field: 'address.zip',
          when: { field: 'address.country', op: '=', value: 'DE' },
        },
        { kind: 'compare', left: 'total', op: '=', right: 'lines.sum' },
      ],
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const text = JSON.stringify([
      { address: { country: 'DE' }, total: 5, lines: { sum: 5.0 } },
      { total: 2, lines: { sum: 3 } },
    ]);
    const r = validateBytes(parsed.value, new TextEncoder().encode(text), { fileType: 'json' });
    expect(r.errors.map((e) => `${e.row} ${e.path} ${e.code}: ${e.message}`)).toEqual([
      '1 $[0].address.zip required_when: Required when address.country is "DE"',
      '2 $[1].total compare: Must be equal to lines.sum ("3")',
    ]);
  });
});

describe('inputBytes: tables of seen values sized for the whole file', () => {
  // 30,000 rows; every 97th repeats an earlier row's sku (unique) and every 89th an earlier
  // row's sku with its date (uniqueTogether), so that duplicates of values recorded before the
  // tables are sized (the first 1,000 rows) and after are both found.
  const model = schema(
    [field('sku', 'string', { unique: true }), field('date', 'date'), field('lot')],
    [{ kind: 'uniqueTogether', fields: ['lot', 'date'] }],
  );
  const lines = ['sku,date,lot'];
  for (let i = 0; i < 30_000; i++) {
    const sku = i % 97 === 96 ? `S${i >> 3}` : `S${i}`;
    const j = i % 89 === 88 ? i >> 2 : i;
    const day = String((j % 28) + 1).padStart(2, '0');
    lines.push(`${sku},2024-02-${day},L${j}`);
  }
  const bytes = new TextEncoder().encode(`${lines.join('\n')}\n`);

  function run(inputBytes: number | undefined): ValidationResult {
    const validator = createValidator(model, {
      fileType: 'csv',
      maxErrors: 10_000,
      ...(inputBytes === undefined ? {} : { inputBytes }),
    });
    // Small chunks, as a stream arrives: the tables are sized after the first 1,000 rows.
    for (let at = 0; at < bytes.length; at += 4096) validator.push(bytes.subarray(at, at + 4096));
    return validator.end();
  }

  it('finds the same duplicates, naming the same first rows, with and without it', () => {
    const plain = run(undefined);
    expect(plain.errors.filter((e) => e.code === 'unique').length).toBe(271);
    expect(plain.errors.filter((e) => e.code === 'unique_together').length).toBe(253);
    expect(plain.errors.find((e) => e.code === 'unique_together')?.message).toMatch(/row \d+/);
    for (const inputBytes of [bytes.length, bytes.length * 50, 1]) {
      expect(shown(run(inputBytes)), String(inputBytes)).toEqual(shown(plain));
    }
  });
});
