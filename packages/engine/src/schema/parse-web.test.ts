import { describe, expect, it } from 'vitest';
import type { FieldSpec, SchemaModel } from '../model.ts';
import { parseSchema } from './parse.ts';

function model(input: unknown, format?: Parameters<typeof parseSchema>[1]): SchemaModel {
  const checked = parseSchema(input, format);
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  return checked.value;
}

function onlyField(input: Record<string, unknown>): FieldSpec {
  const fields = model({
    name: 's',
    fileType: 'csv',
    fields: [{ name: 'f', required: false, ...input }],
  }).fields;
  return fields[0] as FieldSpec;
}

describe('web form', () => {
  it('normalises a schema with the defaults', () => {
    expect(
      model({
        name: 'Contacts',
        fileType: 'csv',
        fields: [{ name: 'email', type: 'email', required: true, validation: {} }],
      }),
    ).toEqual({
      name: 'Contacts',
      fileType: 'csv',
      fields: [{ name: 'email', type: 'email', required: true, rules: {} }],
      orderMatters: false,
      additionalColumns: true,
      additionalProperties: true,
    });
  });

  it('reads the schema flags', () => {
    const m = model({
      name: 'x',
      fields: [{ name: 'a', type: 'string' }],
      orderMatters: true,
      additionalColumns: false,
      additionalProperties: 'false',
    });
    expect(m).toMatchObject({
      orderMatters: true,
      additionalColumns: false,
      additionalProperties: false,
    });
    expect(m.fileType).toBeUndefined();
  });

  it.each<[string, Record<string, unknown>, FieldSpec['rules']]>([
    [
      'string',
      { minLength: 2, maxLength: '100', pattern: '^[A-Z]', allowedChars: 'ABC' },
      { minLength: 2, maxLength: 100, pattern: '^[A-Z]', allowedChars: 'ABC' },
    ],
    ['integer', { minValue: '0', maxValue: 120 }, { minValue: '0', maxValue: '120' }],
    ['integer', { minValue: '9007199254740993' }, { minValue: '9007199254740993' }],
    [
      'number',
      { minValue: '0.50', maxValue: '1e3', precision: '2' },
      { minValue: '0.5', maxValue: '1000', precision: 2 },
    ],
    ['number', { minValue: -1.5 }, { minValue: '-1.5' }],
    ['boolean', {}, { truthy: ['true', '1', 'yes', 'on'], falsy: ['false', '0', 'no', 'off'] }],
    [
      'boolean',
      { truthy: ['Y'], falsy: [] },
      { truthy: ['Y'], falsy: ['false', '0', 'no', 'off'] },
    ],
    ['date', {}, { format: 'YYYY-MM-DD' }],
    [
      'date',
      { format: 'DD/MM/YYYY', minDate: '2020-01-01', maxDate: '2030-12-31', allowFuture: false },
      { format: 'DD/MM/YYYY', minDate: '2020-01-01', maxDate: '2030-12-31', allowFuture: false },
    ],
    ['date', { allowFuture: true, allowPast: 'true' }, { format: 'YYYY-MM-DD' }],
    [
      'enum',
      { values: ['Income', 'Expense', 'Transfer', 'Income'] },
      { values: ['Income', 'Expense', 'Transfer'] },
    ],
    ['string', { values: ['a', 'b'], unique: true }, { values: ['a', 'b'], unique: true }],
    ['url', {}, {}],
  ])('%s with %j', (type, validation, rules) => {
    expect(onlyField({ type, validation }).rules).toEqual(rules);
  });

  it('treats empty strings and null as unset, as a cleared input sends them', () => {
    const field = onlyField({
      type: 'number',
      validation: {
        minLength: '',
        maxLength: null,
        pattern: '',
        minValue: '',
        maxValue: null,
        precision: '',
      },
    });
    expect(field.rules).toEqual({});
  });

  it('reads required as a boolean or its text', () => {
    expect(onlyField({ type: 'string', required: 'true' }).required).toBe(true);
    expect(onlyField({ type: 'string', required: undefined }).required).toBe(false);
  });

  it('ignores rules of another type with a warning (the form keeps them when the type changes)', () => {
    const checked = parseSchema({
      name: 's',
      fields: [
        {
          name: 'f',
          type: 'string',
          validation: { minValue: 3, format: 'YYYY', truthy: ['y'], precision: 2 },
        },
      ],
    });
    if (!checked.ok) throw new Error('refused');
    expect(checked.value.fields[0]?.rules).toEqual({});
    expect(checked.warnings).toEqual([
      'minValue applies to integer and number fields only and was ignored at fields[0].validation.minValue',
      'precision applies to number fields only and was ignored at fields[0].validation.precision',
      'truthy applies to boolean fields only and was ignored at fields[0].validation.truthy',
      'format applies to date fields only and was ignored at fields[0].validation.format',
    ]);
  });

  it('says nothing about options of another type left at their defaults', () => {
    const checked = parseSchema({
      name: 's',
      fields: [
        {
          name: 'f',
          type: 'string',
          validation: {
            allowFuture: true,
            allowPast: true,
            unique: false,
            truthy: ['true', '1', 'yes', 'on'],
            format: 'YYYY-MM-DD',
            values: [],
            minValue: '',
          },
        },
      ],
    });
    expect(checked).toMatchObject({ ok: true, warnings: [] });
  });

  it('accepts customRule with a warning and never runs it', () => {
    const checked = parseSchema({
      name: 's',
      fields: [{ name: 'f', type: 'string', validation: { customRule: 'value => true' } }],
    });
    expect(checked).toMatchObject({
      ok: true,
      warnings: ['customRule is not supported and was ignored at fields[0].validation.customRule'],
    });
  });

  it('warns about options it does not know', () => {
    const checked = parseSchema({
      name: 's',
      fields: [{ name: 'f', type: 'string', validation: { minLen: 3 } }],
    });
    expect(checked).toMatchObject({
      ok: true,
      warnings: ["Option 'minLen' is not known and was ignored at fields[0].validation.minLen"],
    });
  });

  it('reads a big number written in JSON without losing digits', async () => {
    const { parseSchemaText } = await import('./parse.ts');
    const checked = parseSchemaText(
      '{"fields":[{"name":"n","type":"integer","validation":{"maxValue":123456789012345678901234567890}}]}',
    );
    expect(checked.ok && checked.value.fields[0]?.rules.maxValue).toBe(
      '123456789012345678901234567890',
    );
  });
});

describe('public API form', () => {
  it('reads columns, rules on the column and in validation, and the flags in rules', () => {
    const m = model({
      name: 'Transactions',
      type: 'csv',
      rules: {
        orderMatters: true,
        additionalColumns: false,
        columns: [
          {
            name: 'transaction_id',
            type: 'string',
            required: true,
            validation: { pattern: '^TXN\\d{6}$' },
          },
          { name: 'date', type: 'date', required: true, format: 'YYYY-MM-DD' },
          {
            name: 'amount',
            type: 'number',
            required: true,
            minValue: 0,
            validation: { precision: 2 },
          },
          {
            name: 'category',
            type: 'enum',
            required: true,
            values: ['Income', 'Expense', 'Transfer'],
          },
          {
            name: 'note',
            type: 'string',
            required: false,
            maxLength: 200,
            validation: { maxLength: '200' },
          },
        ],
      },
    });
    expect(m).toEqual({
      name: 'Transactions',
      fileType: 'csv',
      orderMatters: true,
      additionalColumns: false,
      additionalProperties: true,
      fields: [
        {
          name: 'transaction_id',
          type: 'string',
          required: true,
          rules: { pattern: '^TXN\\d{6}$' },
        },
        { name: 'date', type: 'date', required: true, rules: { format: 'YYYY-MM-DD' } },
        { name: 'amount', type: 'number', required: true, rules: { minValue: '0', precision: 2 } },
        {
          name: 'category',
          type: 'enum',
          required: true,
          rules: { values: ['Income', 'Expense', 'Transfer'] },
        },
        { name: 'note', type: 'string', required: false, rules: { maxLength: 200 } },
      ],
    });
  });

  it('refuses a rule given twice with different values', () => {
    const checked = parseSchema({
      name: 'x',
      type: 'csv',
      rules: {
        columns: [
          {
            name: 'a',
            type: 'string',
            required: true,
            maxLength: 10,
            validation: { maxLength: 20 },
          },
        ],
      },
    });
    expect(checked).toEqual({
      ok: false,
      problems: [
        {
          path: 'rules.columns[0].validation.maxLength',
          message:
            'maxLength is given twice with different values (10 at rules.columns[0].maxLength and 20 here)',
        },
      ],
    });
  });

  it('refuses a missing rules object', () => {
    expect(parseSchema({ name: 'x', type: 'csv', rules: 'none' }, 'api')).toEqual({
      ok: false,
      problems: [{ path: 'rules', message: 'rules must be an object with a columns list' }],
    });
  });
});
