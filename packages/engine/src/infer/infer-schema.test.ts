import { describe, expect, it } from 'vitest';
import { LosslessNumber } from '../model.ts';
import { parseSchema } from '../schema/parse.ts';
import { validateBytes } from '../validate/validator.ts';
import type { WebField } from '../schema/web-types.ts';
import { inferProposal, inferSchema, MISFITS_LISTED } from './infer-schema.ts';

/** The proposal for one CSV column holding these cells. */
function column(values: (string | null)[], name = 'col'): WebField {
  const schema = inferSchema({ headers: [name], rows: values.map((v) => [v]) });
  return schema.fields[0] as WebField;
}

const repeat = <T>(values: T[], times: number): T[] =>
  Array.from({ length: times }, () => values).flat();

describe('inferSchema on CSV samples', () => {
  it.each<[string, (string | null)[], Partial<WebField>]>([
    ['whole numbers', ['1', '20', '300'], { type: 'integer', validation: { minValue: 0 } }],
    ['negative whole numbers', ['-1', '20'], { type: 'integer', validation: {} }],
    [
      'decimals, precision as written',
      ['1.5', '2.25', '3'],
      { type: 'number', validation: { minValue: 0, precision: 2 } },
    ],
    ['decimals with an exponent', ['1.5', '2e3'], { type: 'number', validation: { minValue: 0 } }],
    [
      'codes with leading zeros stay text, with a pattern of their width',
      ['007', '012', '123'],
      { type: 'string', validation: { pattern: '^[0-9]{3}$' } },
    ],
    [
      'codes with leading zeros of several widths',
      ['007', '0012', '123'],
      { type: 'string', validation: { pattern: '^[0-9]+$' } },
    ],
    [
      'Y/N: boolean, with its spellings',
      ['Y', 'N', 'y', 'Y'],
      { type: 'boolean', validation: { truthy: ['Y'], falsy: ['N'] } },
    ],
    [
      'T/F beside words: boolean, with the spellings seen',
      ['T', 'false', 'F', 'yes'],
      { type: 'boolean', validation: { truthy: ['T', 'yes'], falsy: ['F', 'false'] } },
    ],
    ['0 and 1 are numbers', ['0', '1', '1', '0'], { type: 'integer' }],
    [
      'boolean words, any case',
      ['true', 'FALSE', 'Yes', 'no', '1'],
      { type: 'boolean', validation: {} },
    ],
    [
      'ISO dates',
      ['2024-01-31', '2024-02-29'],
      { type: 'date', validation: { format: 'YYYY-MM-DD' } },
    ],
    [
      'day first, when a day above 12 shows it',
      ['31/01/2024', '01/02/2024'],
      { type: 'date', validation: { format: 'DD/MM/YYYY' } },
    ],
    [
      'month first, when a day above 12 shows it',
      ['01/31/2024', '02/01/2024'],
      { type: 'date', validation: { format: 'MM/DD/YYYY' } },
    ],
    [
      'ambiguous day/month: day first',
      ['01/02/2024', '03/04/2024'],
      { type: 'date', validation: { format: 'DD/MM/YYYY' } },
    ],
    [
      'date-times',
      ['2024-01-31 10:00:00', '2024-02-01 23:59:59'],
      { type: 'date', validation: { format: 'YYYY-MM-DD HH:mm:ss' } },
    ],
    [
      'ISO date-times',
      ['2024-01-31T10:00:00', '2024-02-01T23:59:59'],
      { type: 'date', validation: { format: 'YYYY-MM-DDTHH:mm:ss' } },
    ],
    [
      'RFC 3339 date-times',
      ['2024-01-31T10:00:00Z', '2024-02-01T23:59:59.123+02:00'],
      { type: 'date', validation: { format: 'YYYY-MM-DDTHH:mm:ssZ' } },
    ],
    ['not a real date', ['2024-02-30', '2024-01-01'], { type: 'string' }],
    ['emails', ['a@example.com', 'b.c+d@mail.example.org'], { type: 'email', validation: {} }],
    [
      'urls',
      ['https://example.com/a', 'http://shop.example.org/p?id=1'],
      { type: 'url', validation: {} },
    ],
    ['text', ['hello', 'world'], { type: 'string', validation: {} }],
  ])('%s', (_, values, expected) => {
    expect(column(values)).toMatchObject(expected);
  });

  it('proposes an enum for a few values repeated over enough rows', () => {
    expect(column(repeat(['Income', 'Expense', 'Transfer', 'Income'], 3))).toMatchObject({
      type: 'enum',
      validation: { values: ['Expense', 'Income', 'Transfer'] },
    });
    // Too few rows, too many distinct values, or values mostly unique: plain text.
    expect(column(['Income', 'Expense', 'Income']).type).toBe('string');
    expect(column(Array.from({ length: 30 }, (_, i) => `v${i % 11}`)).type).toBe('string');
    expect(column(Array.from({ length: 12 }, (_, i) => `v${i % 7}`)).type).toBe('string');
  });

  it('keeps repeated zip codes as text with a pattern, not an enum of the sample', () => {
    const zips = repeat(['01234', '02134', '10001', '00501'], 3);
    expect(column([...zips, '1234'])).toMatchObject({
      type: 'string',
      validation: { pattern: '^[0-9]{5}$' },
    });
    const sample = { headers: ['col'], rows: [...zips, '1234'].map((v) => [v]) };
    expect(inferProposal(sample).misfits).toEqual([
      { field: 'col', type: 'string', count: 1, misfits: [{ row: 14, value: '1234' }] },
    ]);
  });

  it('proposes schemas that read their own Y/N and zip sample without errors', () => {
    const rows = repeat(
      [
        ['Y', '01234'],
        ['n', '10001'],
        ['N', '00501'],
      ],
      4,
    );
    const schema = inferSchema({ headers: ['active', 'zip'], rows });
    const parsed = parseSchema(schema);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const text = `active,zip\n${rows.map((r) => r.join(',')).join('\n')}\n`;
    const result = validateBytes(parsed.value, new TextEncoder().encode(text), { fileType: 'csv' });
    expect(result.errors).toEqual([]);
    expect(schema.fields.map((f) => f.type)).toEqual(['boolean', 'string']);
  });

  it('marks a column required only when no value is missing', () => {
    expect(column(['1', '2']).required).toBe(true);
    expect(column(['1', '']).required).toBe(false);
    expect(column(['1', null]).required).toBe(false);
    expect(column(['', ''])).toEqual({
      name: 'col',
      type: 'string',
      required: false,
      validation: {},
    });
  });

  it('proposes unique for id-like columns whose sample values are all different', () => {
    expect(column(['1', '2', '3'], 'customer_id').validation.unique).toBe(true);
    expect(column(['1', '2', '3'], 'userId').validation.unique).toBe(true);
    expect(column(['A1', 'B2'], 'SKU').validation.unique).toBe(true);
    expect(column(['1', '1', '3'], 'id').validation.unique).toBeUndefined();
    expect(column(['1', '2', '3'], 'quantity').validation.unique).toBeUndefined();
    expect(column(['1', '2', '3'], 'paid').validation.unique).toBeUndefined();
  });

  it('skips blank and repeated headers, and reads short rows as missing cells', () => {
    const schema = inferSchema({
      headers: ['a', '', 'a', 'b'],
      rows: [['1', 'x', 'y', 'z'], ['2']],
    });
    expect(schema.fields.map((f) => [f.name, f.required])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    const { skipped } = inferProposal({
      headers: ['a', '', 'a', 'b'],
      rows: [['1', 'x', 'y', 'z']],
    });
    expect(skipped).toEqual([
      { column: '', position: 2, reason: 'blank-header' },
      { column: 'a', position: 3, reason: 'repeated-header' },
    ]);
  });

  it('returns a web-form schema the parser accepts', () => {
    const schema = inferSchema(
      {
        headers: ['id', 'email', 'amount', 'when', 'kind', 'note'],
        rows: repeat(
          [
            ['1', 'a@example.com', '9.99', '2024-01-31', 'A', 'x'],
            ['2', 'b@example.com', '10', '2024-02-01', 'B', ''],
          ],
          6,
        ).map((row, i) => [String(i + 1), ...row.slice(1)]),
      },
      { name: 'Sample' },
    );
    expect(schema).toMatchObject({
      name: 'Sample',
      fileType: 'csv',
      orderMatters: false,
      additionalColumns: true,
    });
    const checked = parseSchema(schema);
    expect(checked.ok && checked.warnings).toEqual([]);
    expect(checked.ok && checked.value.fields.map((f) => f.type)).toEqual([
      'integer',
      'email',
      'number',
      'date',
      'enum',
      'string',
    ]);
  });
});

describe('inferSchema on JSON records', () => {
  it('uses the JSON types, nests objects as dotted names and leaves arrays out', () => {
    const schema = inferSchema({
      records: [
        {
          id: 1,
          price: 9.5,
          active: true,
          code: '007',
          count: '12',
          address: { zip: '12345' },
          tags: ['a'],
          big: new LosslessNumber('9007199254740993'),
        },
        {
          id: 2,
          price: 10,
          active: false,
          code: '008',
          count: '13',
          address: { zip: '54321' },
          tags: [],
          big: new LosslessNumber('9007199254740995'),
        },
        {
          id: 3,
          price: null,
          active: true,
          code: '009',
          count: '14',
          address: { zip: '11111', city: 'Leeds' },
        },
      ],
    });
    expect(schema.fileType).toBe('json');
    expect(schema.fields).toEqual([
      { name: 'id', type: 'integer', required: true, validation: { minValue: 0, unique: true } },
      { name: 'price', type: 'number', required: false, validation: { minValue: 0, precision: 1 } },
      { name: 'active', type: 'boolean', required: true, validation: {} },
      { name: 'code', type: 'string', required: true, validation: { pattern: '^[0-9]{3}$' } },
      { name: 'count', type: 'string', required: true, validation: {} },
      { name: 'address.zip', type: 'string', required: true, validation: {} },
      { name: 'big', type: 'integer', required: false, validation: { minValue: 0 } },
      { name: 'address.city', type: 'string', required: false, validation: {} },
    ]);
  });

  it('treats a property with mixed JSON types as text and skips records that are not objects', () => {
    const schema = inferSchema({ records: [{ a: 1 }, { a: 'x' }, 'not a record', [1]] });
    expect(schema.fields).toEqual([{ name: 'a', type: 'string', required: true, validation: {} }]);
  });
});

describe('inferProposal on dirty samples', () => {
  const proposal = (values: (string | null)[], name = 'col') =>
    inferProposal({ headers: [name], rows: values.map((v) => [v]) });

  it('takes the type most values have and lists the others by row', () => {
    const result = proposal(['1', '2', '3', 'x4', '5', '6', '7', '8']);
    expect(result.schema.fields[0]).toMatchObject({ type: 'integer', validation: { minValue: 0 } });
    expect(result.misfits).toEqual([
      { field: 'col', type: 'integer', count: 1, misfits: [{ row: 5, value: 'x4' }] },
    ]);
  });

  it('proposes rules from the fitting values only', () => {
    const result = proposal(['1.5', '2.25', 'n/a', '3']);
    expect(result.schema.fields[0]).toMatchObject({
      type: 'number',
      validation: { minValue: 0, precision: 2 },
    });
    expect(result.misfits[0]?.misfits).toEqual([{ row: 4, value: 'n/a' }]);
  });

  it.each<[string, string[], string, string[]]>([
    [
      'dates with one impossible day',
      ['2024-01-31', '2024-02-30', '2024-03-01'],
      'date',
      ['2024-02-30'],
    ],
    [
      'emails with a placeholder',
      ['a@example.com', 'unknown', 'b@example.com'],
      'email',
      ['unknown'],
    ],
    ['booleans with a typo', ['yes', 'no', 'nope', 'yes'], 'boolean', ['nope']],
  ])('%s', (_, values, type, misfits) => {
    const result = proposal(values);
    expect(result.schema.fields[0]?.type).toBe(type);
    expect(result.misfits[0]?.misfits.map((m) => m.value)).toEqual(misfits);
  });

  it('needs more than half: an even split or a minority stays text', () => {
    expect(proposal(['1', 'x']).schema.fields[0]?.type).toBe('string');
    expect(proposal(['1', '2', 'x', 'y']).schema.fields[0]?.type).toBe('string');
    expect(proposal(['1', '2', 'x', 'y']).misfits).toEqual([]);
  });

  it('prefers the type more values fit: 1 and 0 among yes and no are booleans', () => {
    expect(proposal(['1', '0', 'yes', 'no', 'yes']).schema.fields[0]?.type).toBe('boolean');
    expect(proposal(['1', '0', 'yes', 'no', 'yes']).misfits).toEqual([]);
  });

  it('does not count missing cells as misfits, and lists at most MISFITS_LISTED', () => {
    const values = [...Array.from({ length: 60 }, (_, i) => String(i + 1)), ...repeat(['?'], 30)];
    const result = proposal([...values, '', null]);
    expect(result.schema.fields[0]).toMatchObject({ type: 'integer', required: false });
    expect(result.misfits[0]?.count).toBe(30);
    expect(result.misfits[0]?.misfits).toHaveLength(MISFITS_LISTED);
    expect(result.misfits[0]?.misfits[0]).toEqual({ row: 62, value: '?' });
  });

  it('reads JSON records the same way: numbers with a string among them', () => {
    const result = inferProposal({
      records: [{ n: 1 }, { n: 2 }, 'skipped', { n: '3' }],
      rowNumbers: [1, 2, 3, 4],
    });
    expect(result.schema.fields[0]).toMatchObject({ name: 'n', type: 'integer' });
    expect(result.misfits).toEqual([
      { field: 'n', type: 'integer', count: 1, misfits: [{ row: 4, value: '3' }] },
    ]);
  });
});

describe('inferProposal suggests composite keys, never adding them', () => {
  /** Twelve rows: sku repeats, warehouse repeats, each (sku, warehouse) once; qty repeats with each. */
  const STOCK = {
    headers: ['sku', 'warehouse', 'qty'],
    rows: Array.from({ length: 12 }, (_, i) => [
      `SKU-${i % 4}`,
      `W${Math.floor(i / 4)}`,
      `${Math.floor(i / 2) % 2}`,
    ]),
  };

  it('suggests uniqueTogether when no column is unique and a pair is', () => {
    const proposal = inferProposal(STOCK);
    expect(proposal.suggestedRules).toEqual([
      {
        rule: { kind: 'uniqueTogether', fields: ['sku', 'warehouse'] },
        reason:
          'No column alone is unique in the 12 sample rows, but sku and warehouse together are: a composite key?',
      },
    ]);
    expect(proposal.schema.rules).toBeUndefined();
  });

  it('suggests nothing when a single column is unique', () => {
    const rows = STOCK.rows.map((row, i) => [...row, `line ${i}`]);
    const proposal = inferProposal({ headers: [...STOCK.headers, 'note'], rows });
    expect(proposal.suggestedRules).toEqual([]);
  });

  it('suggests nothing when no pair is unique', () => {
    const rows = [...STOCK.rows, STOCK.rows[0]!.slice()];
    expect(inferProposal({ headers: STOCK.headers, rows }).suggestedRules).toEqual([]);
  });

  it('leaves out columns with empty cells and samples too small to tell', () => {
    const gappy = STOCK.rows.map((row, i) => (i === 5 ? [row[0]!, '', row[2]!] : row));
    expect(inferProposal({ headers: STOCK.headers, rows: gappy }).suggestedRules).toEqual([]);
    const few = { headers: STOCK.headers, rows: STOCK.rows.slice(0, 9) };
    expect(inferProposal(few).suggestedRules).toEqual([]);
  });

  it('puts pairs with an id-like column first, and reads JSON records too', () => {
    const records = Array.from({ length: 12 }, (_, i) => ({
      aisle: i % 2,
      shelf: Math.floor(i / 2),
      orderId: Math.floor(i / 3),
      line: i % 3,
    }));
    expect(inferProposal({ records }).suggestedRules.map((s) => s.rule)).toEqual(
      [
        ['orderId', 'line'],
        ['aisle', 'shelf'],
        ['shelf', 'line'],
      ].map((fields) => ({ kind: 'uniqueTogether', fields })),
    );
  });
});
