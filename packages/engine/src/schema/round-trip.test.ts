import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELD_TYPES, type SchemaModel } from '../model.ts';
import { exportSchema } from './export/index.ts';
import { parseSchema } from './parse.ts';
import type { WebField, WebFieldValidation, WebSchema } from './web-types.ts';

// Web-form schemas covering every rule, valid by construction: parse must accept each one.
const sortedPair = <T>(arb: fc.Arbitrary<T>, cmp: (a: T, b: T) => number) =>
  fc
    .tuple(arb, arb)
    .filter(([a, b]) => cmp(a, b) < 0)
    .map(([a, b]) => [a, b] as const);

const decimal = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map((n) => ({ n, text: String(n) })),
  fc
    .integer({ min: -100000, max: 100000 })
    .map((n) => ({ n: n / 100, text: (n / 100).toString() })),
  fc.bigInt({ min: 10n ** 20n, max: 10n ** 21n }).map((b) => ({ n: Number(b), text: `${b}` })),
);
const isoDate = fc
  .date({ min: new Date('1990-01-01'), max: new Date('2040-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

const validation: fc.Arbitrary<WebFieldValidation> = fc
  .record(
    {
      lengths: sortedPair(fc.nat({ max: 60 }), (a, b) => a - b),
      pattern: fc.constantFrom(
        '^[A-Z]{3}$',
        'abc',
        '^(?:a|b)$',
        'a|b',
        '^a|b$',
        '\\d+',
        '^\\u0041$',
        '^[\\s\\S]*$',
        '^$',
      ),
      allowedChars: fc.constantFrom('ABC', '0123456789-', 'é😀'),
      values: fc.uniqueArray(
        fc.constantFrom('Income', 'Expense', '1', '01', '2.50', 'true', 'x y', ''),
        { minLength: 1, maxLength: 4 },
      ),
      unique: fc.boolean(),
      bounds: sortedPair(decimal, (a, b) => a.n - b.n),
      exclusive: fc.constantFrom('none', 'min', 'max', 'both'),
      asNumbers: fc.boolean(),
      precision: fc.nat({ max: 6 }),
      truthy: fc.uniqueArray(fc.constantFrom('Y', 'yes', 'true', 'on', '1'), {
        minLength: 1,
        maxLength: 3,
      }),
      falsy: fc.uniqueArray(fc.constantFrom('N', 'no', 'false', 'off', '0'), {
        minLength: 1,
        maxLength: 3,
      }),
      format: fc.constantFrom(
        'YYYY-MM-DD',
        'DD/MM/YYYY',
        'YYYY-MM-DDTHH:mm:ssZ',
        'HH:mm:ssZ',
        'YYYY-MM-DD HH:mm:ss',
        'YYYY',
        'HH:mm',
        'DD.MM.YYYY %',
      ),
      dates: sortedPair(isoDate, (a, b) => a.localeCompare(b)),
      when: fc.constantFrom('any', 'noFuture', 'noPast'),
    },
    { requiredKeys: [] },
  )
  .map((r) => {
    const v: WebFieldValidation = {};
    if (r.lengths) [v.minLength, v.maxLength] = r.lengths;
    if (r.pattern !== undefined) v.pattern = r.pattern;
    if (r.allowedChars !== undefined) v.allowedChars = r.allowedChars;
    if (r.values !== undefined) v.values = r.values;
    if (r.unique !== undefined) v.unique = r.unique;
    if (r.bounds) {
      const [lo, hi] = r.bounds;
      const write = (d: { n: number; text: string }) =>
        r.asNumbers && Number.isSafeInteger(d.n) ? d.n : d.text;
      const ex = r.exclusive ?? 'none';
      if (ex === 'min' || ex === 'both') v.exclusiveMinimum = write(lo);
      else v.minValue = write(lo);
      if (ex === 'max' || ex === 'both') v.exclusiveMaximum = write(hi);
      else v.maxValue = write(hi);
    }
    if (r.precision !== undefined) v.precision = r.precision;
    if (r.truthy !== undefined) v.truthy = r.truthy;
    if (r.falsy !== undefined) v.falsy = r.falsy;
    if (r.format !== undefined) v.format = r.format;
    if (r.dates) [v.minDate, v.maxDate] = r.dates;
    if (r.when === 'noFuture') v.allowFuture = false;
    if (r.when === 'noPast') v.allowPast = false;
    return v;
  });

const field = fc.record({
  type: fc.constantFrom(...FIELD_TYPES),
  required: fc.boolean(),
  validation,
});
const names = fc.uniqueArray(
  fc.constantFrom(
    'id',
    'email',
    'address.zip',
    'address.city',
    'address',
    'x y',
    'naïve',
    'a.b.c',
    'total',
    '__proto__',
  ),
  {
    minLength: 1,
    maxLength: 6,
  },
);
const webSchema: fc.Arbitrary<WebSchema> = fc
  .record({
    name: fc.constantFrom('', 'Contacts', 'Ünïcödé schema'),
    fileType: fc.constantFrom('csv', 'json', undefined),
    names,
    fields: fc.array(field, { minLength: 6, maxLength: 6 }),
    orderMatters: fc.boolean(),
    additionalColumns: fc.boolean(),
    additionalProperties: fc.boolean(),
  })
  .map((s) => {
    const fields: WebField[] = s.names.map((name, i) => {
      const f = s.fields[i] as WebField;
      // An enum needs its values; every other rule may or may not apply to the type.
      const values =
        f.type === 'enum' && f.validation.values === undefined ? { values: ['a'] } : {};
      return {
        name,
        type: f.type,
        required: f.required,
        validation: { ...f.validation, ...values },
      };
    });
    const web: WebSchema = {
      name: s.name,
      fields,
      orderMatters: s.orderMatters,
      additionalColumns: s.additionalColumns,
      additionalProperties: s.additionalProperties,
    };
    if (s.fileType !== undefined) web.fileType = s.fileType;
    return web;
  });

function byName(model: SchemaModel): SchemaModel {
  return { ...model, fields: [...model.fields].sort((a, b) => (a.name < b.name ? -1 : 1)) };
}

function accepted(input: unknown): { value: SchemaModel; warnings: string[] } {
  const checked = parseSchema(input);
  if (!checked.ok)
    throw new Error(`refused: ${JSON.stringify(checked.problems)}\n${JSON.stringify(input)}`);
  return checked;
}

describe('export then parse gives the same model', () => {
  for (const to of ['web', 'jsonschema', 'tableschema'] as const) {
    it(`through ${to}, for every rule`, () => {
      fc.assert(
        fc.property(webSchema, (web) => {
          // The first reading may warn (a rule on the wrong type); the export leaves that rule out.
          const { warnings: _warned, ...model } = accepted(web).value;
          const exported = exportSchema(model, to);
          // What the exporter writes is plain JSON: it survives serialisation unchanged.
          expect(JSON.parse(JSON.stringify(exported))).toEqual(exported);
          const { warnings: _again, ...againValue } = accepted(exported).value;
          const again = { value: againValue, warnings: accepted(exported).warnings };
          // JSON Schema nests a.x and a.y together; the order only matters to CSV headers.
          const reordered = to === 'jsonschema' && model.fileType !== 'csv' && !model.orderMatters;
          expect(reordered ? byName(again.value) : again.value).toEqual(
            reordered ? byName(model) : model,
          );
          // A model exported flat (`a` next to `a.b`) says its dotted keys nest: no warning.
          expect(again.warnings).toEqual([]);
        }),
        { numRuns: 300 },
      );
    });
  }

  it('writes JSON Schema that other tools read: record type, nesting and nullable optional fields', () => {
    const model = accepted({
      name: 'People',
      fileType: 'json',
      fields: [
        { name: 'id', type: 'integer', required: true, validation: { minValue: 1 } },
        {
          name: 'address.zip',
          type: 'string',
          required: true,
          validation: { pattern: '^\\d{5}$' },
        },
        { name: 'nickname', type: 'string', required: false, validation: {} },
        {
          name: 'role',
          type: 'enum',
          required: false,
          validation: { values: ['admin', 'member'] },
        },
      ],
    }).value;
    expect(exportSchema(model, 'jsonschema')).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'People',
      type: 'object',
      properties: {
        id: { type: 'integer', minimum: 1 },
        address: {
          type: 'object',
          properties: { zip: { type: 'string', pattern: '^\\d{5}$' } },
          required: ['zip'],
        },
        nickname: { type: ['string', 'null'] },
        role: { enum: ['admin', 'member', null] },
      },
      required: ['id', 'address'],
      'x-schemacheck': { fileType: 'json' },
    });
  });

  it('writes Table Schema with whole-value patterns and strftime dates', () => {
    const model = accepted({
      name: 'Feed',
      fields: [
        {
          name: 'sku',
          type: 'string',
          required: true,
          validation: { pattern: '^[A-Z]{3}-\\d{4}$', unique: true },
        },
        { name: 'code', type: 'string', required: false, validation: { pattern: '\\d{3}' } },
        { name: 'day', type: 'date', required: false, validation: { format: 'DD/MM/YYYY' } },
      ],
    }).value;
    expect(exportSchema(model, 'tableschema')).toEqual({
      fields: [
        {
          name: 'sku',
          type: 'string',
          constraints: { required: true, unique: true, pattern: '[A-Z]{3}-\\d{4}' },
        },
        { name: 'code', type: 'string', constraints: { pattern: '[\\s\\S]*(?:\\d{3})[\\s\\S]*' } },
        { name: 'day', type: 'date', format: '%d/%m/%Y' },
      ],
      'x-schemacheck': { name: 'Feed' },
    });
  });
});

describe('exported JSON Schema in another validator (Ajv)', () => {
  it('accepts and refuses the same records as the model describes', async () => {
    const { default: Ajv2020 } = await import('ajv/dist/2020.js');
    const { default: addFormats } = await import('ajv-formats');
    const ajv = new Ajv2020({ allErrors: true });
    addFormats(ajv);
    ajv.addKeyword('x-schemacheck');
    const model = accepted({
      name: 'People',
      fileType: 'json',
      additionalProperties: false,
      fields: [
        { name: 'id', type: 'integer', required: true, validation: { minValue: 1 } },
        { name: 'email', type: 'email', required: true, validation: {} },
        {
          name: 'address.zip',
          type: 'string',
          required: true,
          validation: { pattern: '^\\d{5}$' },
        },
        { name: 'born', type: 'date', required: false, validation: {} },
        {
          name: 'price',
          type: 'number',
          required: false,
          validation: { precision: 2, exclusiveMaximum: 100 },
        },
        {
          name: 'role',
          type: 'enum',
          required: false,
          validation: { values: ['admin', 'member'] },
        },
      ],
    }).value;
    const validate = ajv.compile(exportSchema(model, 'jsonschema'));
    const good = {
      id: 1,
      email: 'a@example.com',
      address: { zip: '12345' },
      born: '2000-02-29',
      price: 9.99,
      role: null,
    };
    expect(validate(good)).toBe(true);
    expect(validate({ ...good, born: null, price: null })).toBe(true);
    for (const bad of [
      { ...good, id: 0 },
      { ...good, email: 'nope' },
      { ...good, address: { zip: '1234' } },
      { ...good, address: {} },
      { ...good, born: '2001-02-29' },
      { ...good, price: 100 },
      { ...good, role: 'owner' },
      { ...good, extra: 1 },
      { id: 1, email: 'a@example.com' },
    ]) {
      expect(validate(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});
