// The byte core's JSON records (decision 252) change nothing but speed: for generated schemas
// (every field type, rules, unique, required or not, extra properties allowed or not) and
// generated files (an array one record a line, on one line, pretty-printed; NDJSON with blank
// lines and CRLF; values of every JSON kind, escapes, multibyte text, nulls, missing, extra,
// duplicate and escaped keys, nested values, a broken record), pushed whole and in random
// chunks, validation with the core gives the same ValidationResult, and the same issues in the
// same order, as validation without it. Files are larger than the 64 KiB piece the reader reads
// before the core is offered anything. The core's takes are counted, so that the comparison
// cannot pass with the core silently off.
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { SchemaModel } from '../model.ts';
import type { WebFieldValidation } from '../schema/web-types.ts';
import { parseSchema } from '../schema/parse.ts';
import type { ValidateOptions } from '../validate/validator.ts';
import { taken } from '../../test/counting-core.ts';
import { validateOutcome, type Outcome } from '../../test/outcome.ts';

vi.mock('./load.ts', async (importOriginal) =>
  (await import('../../test/counting-core.ts')).countingLoad(importOriginal),
);

const NOW = new Date('2024-02-29T12:00:00Z');

interface Template {
  type: string;
  validation: WebFieldValidation;
  /** JSON texts of values of the field's own kind and others, good and bad. */
  pool: readonly string[];
}

const TEMPLATES: readonly Template[] = [
  {
    type: 'integer',
    validation: { minValue: '1', maxValue: '1000' },
    pool: ['5', '7', '1000', '1001', '0', '-0', '12.0', '1e3', '12345678901234567', '"5"', 'true'],
  },
  {
    type: 'integer',
    validation: {},
    pool: ['-3', '42', '999999999999999', '9007199254740993', '-0', '1.5'],
  },
  {
    type: 'number',
    validation: { minValue: '0', precision: 2 },
    pool: ['1.5', '12.30', '12.301', '0', '-0.01', '9999.99', '1E2', '0.1', '"1.5"', '12.300'],
  },
  {
    type: 'number',
    validation: { exclusiveMaximum: '10.5' },
    pool: ['10.49', '-7', '10.5', '10.500000000000001', '3', '123456789012.34'],
  },
  { type: 'boolean', validation: {}, pool: ['true', 'false', '"true"', '1', '"yes"'] },
  {
    type: 'boolean',
    validation: { truthy: ['yes'], falsy: ['no'] },
    pool: ['true', 'false', '"yes"'],
  },
  {
    type: 'date',
    validation: { format: 'YYYY-MM-DD' },
    pool: [
      '"2024-01-05"',
      '"2024-02-30"',
      '"2024-1-5"',
      '""',
      '"2024-01-05 "',
      '5',
      '"2023-12-31"',
    ],
  },
  {
    type: 'email',
    validation: {},
    pool: ['"a@b.co"', '"x.y@ex.org"', '"bad"', '"ü@b.co"', '"a\\u0040b.co"', '"a@b"'],
  },
  {
    type: 'url',
    validation: {},
    pool: ['"https://e.com/a"', '"http://ex.org/p?q=1"', '"ftp://x"', '"https://e.com/a b"'],
  },
  {
    type: 'enum',
    validation: { values: ['A', 'B', '1'] },
    pool: ['"A"', '"B"', '"C"', '1', '"1"', 'true'],
  },
  {
    type: 'string',
    validation: { minLength: 2, maxLength: 10 },
    pool: [
      '"ab"',
      '"a"',
      '"😀😀"',
      '"é"',
      '"a\\"b"',
      '"a\\nb"',
      '"  "',
      '""',
      '"\\u00e9t\\u00e9"',
      '"abcdefghi\\"j"',
      '"abcdefgh\\\\j"',
      '"abcdefghijk"',
    ],
  },
  {
    type: 'string',
    validation: { pattern: '^[A-Z]{3}-[0-9]{2}$' },
    pool: ['"ABC-12"', '"XYZ-00"', '"abc-12"', '"ABC-123"', '"ÀBC-12"'],
  },
  { type: 'string', validation: { unique: true }, pool: ['"u<k>"', '"same"', '"u<k>x"'] },
  { type: 'string', validation: {}, pool: ['"free text"', '"tab\\there"', '"ok"', '7', 'false'] },
];

/** Mostly one of a pool's first two values (they pass), so that many records are clean. */
const pick = fc.oneof({ weight: 6, arbitrary: fc.nat(1) }, { weight: 1, arbitrary: fc.nat() });

/** Values of no field's kind, for any property. */
const OTHER_VALUES = ['null', '{"x":1}', '[1,2]', '{}', '[]', '"\\ud800"', '-1.5e-3'];

interface Field {
  template: Template;
  required: boolean;
  /** How its name is spelled: plain, with a letter JSON keeps as UTF-8, with characters JSON escapes. */
  spelling: number;
}

const SPELLINGS = ['f', 'é', 'q"', 's\\'];
const nameOf = (f: Field, i: number) => `${SPELLINGS[f.spelling] as string}${i}`;

interface SchemaCase {
  fields: Field[];
  additionalProperties: boolean;
}

const schemaCase: fc.Arbitrary<SchemaCase> = fc.record({
  fields: fc.array(
    fc.record({
      template: fc.constantFrom(...TEMPLATES),
      required: fc.boolean(),
      spelling: fc.constantFrom(0, 0, 0, 0, 0, 1, 2, 3),
    }),
    { minLength: 1, maxLength: 7 },
  ),
  additionalProperties: fc.boolean(),
});

type Member =
  | { kind: 'own'; pick: number }
  | { kind: 'other'; pick: number }
  | { kind: 'missing' }
  | { kind: 'duplicate'; pick: number };

interface RecordCase {
  members: Member[];
  extra: number;
  shuffle: boolean;
  escapedKey: boolean;
  broken: boolean;
  badByte: boolean;
}

const member: fc.Arbitrary<Member> = fc.oneof(
  { weight: 30, arbitrary: fc.record({ kind: fc.constant('own' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('other' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'missing' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('duplicate' as const), pick: fc.nat() }) },
);

const recordCase = (fields: number): fc.Arbitrary<RecordCase> =>
  fc.record({
    members: fc.array(member, { minLength: fields, maxLength: fields }),
    extra: fc.oneof({ weight: 4, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: fc.nat() }),
    shuffle: fc.boolean(),
    escapedKey: fc.constantFrom(false, false, false, false, false, false, false, true),
    broken: fc.constantFrom(false, false, false, false, false, false, false, false, false, true),
    badByte: fc.constantFrom(false, false, false, false, false, false, false, false, false, true),
  });

interface FileCase {
  records: RecordCase[];
  layout: 'lines' | 'compact' | 'pretty' | 'ndjson';
  crlf: boolean;
  bom: boolean;
  chunks: number[];
  maxRows: number | undefined;
}

const fileCase = (fields: number): fc.Arbitrary<FileCase> =>
  fc.record({
    records: fc.array(recordCase(fields), { minLength: 1, maxLength: 30 }),
    layout: fc.constantFrom('lines', 'compact', 'pretty', 'ndjson'),
    crlf: fc.boolean(),
    bom: fc.constantFrom(false, false, false, true),
    chunks: fc.array(fc.integer({ min: 1, max: 200_000 }), { minLength: 1, maxLength: 4 }),
    maxRows: fc.constantFrom(undefined, undefined, undefined, 700),
  });

/** Stands for a byte that is not UTF-8 (0xFF) in the file. */
const BAD_BYTE = '~BAD~';

const EXTRA_VALUES = ['1', '"é"', '{"a":1}', '"x\\"y"', 'null', '[true]'];

function recordText(s: SchemaCase, r: RecordCase, k: number, pretty: boolean): string {
  const parts: string[] = [];
  s.fields.forEach((f, i) => {
    const m = r.members[i] as Member;
    const name = nameOf(f, i);
    const key =
      r.escapedKey && i === 0
        ? JSON.stringify(name).replace(/\d/, '\\u003$&')
        : JSON.stringify(name);
    const pool = f.template.pool;
    if (m.kind === 'missing') return;
    const value =
      m.kind === 'other'
        ? (OTHER_VALUES[m.pick % OTHER_VALUES.length] as string)
        : (pool[m.pick % pool.length] as string);
    parts.push(`${key}:${value.replaceAll('<k>', String(k))}`);
    if (m.kind === 'duplicate') parts.push(`${key}:${pool[(m.pick + 1) % pool.length] as string}`);
  });
  if (r.extra >= 0) parts.push(`"extra":${EXTRA_VALUES[r.extra % EXTRA_VALUES.length] as string}`);
  if (r.badByte) parts.push(`"bad":"${BAD_BYTE}"`);
  if (r.shuffle && parts.length > 1) parts.push(parts.shift() as string);
  const body = pretty ? `{\n    ${parts.join(',\n    ')}\n  }` : `{${parts.join(',')}}`;
  return r.broken ? body.replace(':', ' ') : body;
}

/**
 * The records, repeated past 64 KiB several times, laid out as the case says. Broken records and
 * bad bytes are in one round only, past the first 64 KiB (an array stops reading at the first).
 */
function fileText(s: SchemaCase, f: FileCase): string {
  const texts: string[] = [];
  let size = 0;
  let faultRound = -1;
  for (let k = 0; size < 200_000; k++) {
    const r = f.records[k % f.records.length] as RecordCase;
    const round = Math.floor(k / f.records.length);
    if (faultRound < 0 && size > 100_000 && k % f.records.length === 0) faultRound = round;
    const record = round === faultRound ? r : { ...r, broken: false, badByte: false };
    const text = recordText(s, record, k, f.layout === 'pretty');
    texts.push(text);
    size += text.length + 2;
  }
  const nl = f.crlf ? '\r\n' : '\n';
  let text: string;
  if (f.layout === 'ndjson') {
    text = texts.map((t, k) => (k % 97 === 5 ? `${nl}${t}` : t)).join(nl) + nl;
  } else if (f.layout === 'compact') {
    text = `[${texts.join(',')}]`;
  } else {
    const indent = f.layout === 'pretty' ? '  ' : '';
    text = `[${nl}${texts.map((t) => indent + t.replaceAll('\n', nl)).join(`,${nl}`)}${nl}]${nl}`;
  }
  return (f.bom ? '\uFEFF' : '') + text;
}

function validate(
  schema: SchemaModel,
  bytes: Uint8Array,
  options: Partial<ValidateOptions>,
  byteCore: boolean,
  chunks: readonly number[] | undefined,
): Outcome {
  return validateOutcome(
    schema,
    bytes,
    { fileType: 'json', now: NOW, ...options, byteCore },
    chunks,
  );
}

/** The web form schema of `fields`, field i named `nameOf(i)`. */
function webSchema(fields: readonly Field[], nameOf: (i: number) => string): SchemaModel {
  const parsed = parseSchema(
    {
      name: 'generated',
      fields: fields.map((f, i) => ({
        name: nameOf(i),
        type: f.template.type,
        required: f.required,
        validation: f.template.validation,
      })),
    },
    'web',
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.value;
}

function schemaOf(s: SchemaCase): SchemaModel {
  const schema = webSchema(s.fields, (i) => nameOf(s.fields[i] as Field, i));
  return { ...schema, additionalProperties: s.additionalProperties };
}

const encoder = new TextEncoder();

/** Nested values, well-formed or not, deeper than the core follows or not. */
const NESTED_VALUES = [
  '{"a":[1,2,{"b":null,"c":"\\u00e9"}],"d":{}}',
  '[[[[[[[[[[[[[[1]]]]]]]]]]]]]]',
  '[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]',
  '[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]',
  '{"a":1,}',
  '[1,]',
  '[1 2]',
  '{"a" 1}',
  '{"a":1 "b":2}',
  '{1:2}',
  '[01]',
  '["\\x"]',
  '{"a":tru}',
  '[1.]',
  '{"a":"é\\n","b":-0.5e+3}',
  '[{"a":[{"b":[{"c":[]}]}]}]',
  '{"a":[}',
  '{"a":{"a":{"a":1}}}',
];

/** The records as an array a record a line and as NDJSON: the same with and without the core. */
function sameInBothLayouts(schema: SchemaModel, records: readonly string[]): void {
  for (const layout of ['array', 'ndjson']) {
    const text = layout === 'array' ? `[\n${records.join(',\n')}\n]\n` : `${records.join('\n')}\n`;
    const bytes = encoder.encode(text);
    expect(validate(schema, bytes, {}, true, undefined)).toEqual(
      validate(schema, bytes, {}, false, undefined),
    );
  }
}

function bytesOf(text: string): Uint8Array {
  const parts = text.split(BAD_BYTE).map((t) => encoder.encode(t));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, parts.length - 1));
  let at = 0;
  parts.forEach((p, k) => {
    if (k > 0) out[at++] = 0xff;
    out.set(p, at);
    at += p.length;
  });
  return out;
}

const cases = schemaCase.chain((s) => fc.tuple(fc.constant(s), fileCase(s.fields.length)));

/** The objects a nested schema describes (paths below the record), each a node of the next. */
const OBJECTS = [['o'], ['o', 'p'], ['q']] as const;

interface NestedSchemaCase {
  /** Each field in the record (group -1) or in one of OBJECTS. */
  fields: (Field & { group: number; withinObject: boolean })[];
  additionalProperties: boolean;
  objects: { required: boolean; additionalProperties: boolean | undefined }[];
}

const nestedSchemaCase: fc.Arbitrary<NestedSchemaCase> = fc.record({
  fields: fc.array(
    fc.record({
      template: fc.constantFrom(...TEMPLATES),
      required: fc.boolean(),
      spelling: fc.constant(0),
      group: fc.constantFrom(-1, 0, 0, 1, 1, 2),
      // Required only where its object is there (JSON Schema's `required` inside an optional object).
      withinObject: fc.boolean(),
    }),
    { minLength: 1, maxLength: 7 },
  ),
  additionalProperties: fc.boolean(),
  objects: fc.array(
    fc.record({
      required: fc.constantFrom(false, false, true),
      additionalProperties: fc.constantFrom(undefined, true, false),
    }),
    { minLength: OBJECTS.length, maxLength: OBJECTS.length },
  ),
});

const nestedNameOf = (f: NestedSchemaCase['fields'][number], i: number) =>
  [...(f.group < 0 ? [] : (OBJECTS[f.group] as readonly string[])), `f${i}`].join('.');

function nestedSchemaOf(s: NestedSchemaCase): SchemaModel {
  const parsed = webSchema(s.fields, (i) =>
    nestedNameOf(s.fields[i] as NestedSchemaCase['fields'][number], i),
  );
  const fields = parsed.fields.map((spec, i) => {
    const f = s.fields[i] as NestedSchemaCase['fields'][number];
    return f.required && f.withinObject && f.group >= 0
      ? { ...spec, requiredWithin: (OBJECTS[f.group] as readonly string[]).length }
      : spec;
  });
  return {
    ...parsed,
    fields,
    additionalProperties: s.additionalProperties,
    objects: OBJECTS.map((path, k) => {
      const o = s.objects[k] as NestedSchemaCase['objects'][number];
      return {
        path: [...path],
        ...(o.required ? { required: true, requiredWithin: path.length - 1 } : {}),
        ...(o.additionalProperties === undefined
          ? {}
          : { additionalProperties: o.additionalProperties }),
      };
    }),
  };
}

/** How a record holds one of OBJECTS: mostly as an object, else absent, null or not an object. */
const OBJECT_FORMS = ['{', '{', '{', '{', '{', '{', 'missing', 'null', '5', '"x"', '[]', '{}'];

interface NestedRecordCase {
  members: Member[];
  objects: number[];
  /** An undescribed property in the record (0) or in one of OBJECTS (1 + its index), or none. */
  extraIn: number;
  shuffle: boolean;
}

const nestedRecordCase = (fields: number): fc.Arbitrary<NestedRecordCase> =>
  fc.record({
    // Mostly clean values: a fault in every record of the cycle would leave the core off.
    members: fc.array(
      fc.oneof(
        { weight: 4, arbitrary: fc.record({ kind: fc.constant('own' as const), pick: fc.nat(1) }) },
        { weight: 1, arbitrary: member },
      ),
      { minLength: fields, maxLength: fields },
    ),
    objects: fc.array(
      fc.oneof({ weight: 16, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat() }),
      { minLength: OBJECTS.length, maxLength: OBJECTS.length },
    ),
    extraIn: fc.oneof(
      { weight: 3, arbitrary: fc.constant(-1) },
      { weight: 1, arbitrary: fc.nat(3) },
    ),
    shuffle: fc.boolean(),
  });

function nestedRecordText(s: NestedSchemaCase, r: NestedRecordCase, k: number): string {
  // The object at `group` (-1: the record), with its fields, its objects and any extra property.
  const objectText = (group: number): string => {
    const parts: string[] = [];
    s.fields.forEach((f, i) => {
      const m = r.members[i] as Member;
      if (f.group !== group || m.kind === 'missing') return;
      const key = JSON.stringify(`f${i}`);
      const pool = f.template.pool;
      const value =
        m.kind === 'other'
          ? (OTHER_VALUES[m.pick % OTHER_VALUES.length] as string)
          : (pool[m.pick % pool.length] as string);
      parts.push(`${key}:${value.replaceAll('<k>', String(k))}`);
      if (m.kind === 'duplicate')
        parts.push(`${key}:${pool[(m.pick + 1) % pool.length] as string}`);
    });
    const depth = group < 0 ? 0 : (OBJECTS[group] as readonly string[]).length;
    OBJECTS.forEach((path, o) => {
      const parent =
        path.length === 1 ? -1 : OBJECTS.findIndex((p) => p.length === 1 && p[0] === path[0]);
      if (path.length !== depth + 1 || parent !== group) return;
      const form = OBJECT_FORMS[(r.objects[o] as number) % OBJECT_FORMS.length] as string;
      if (form === 'missing') return;
      parts.push(`"${path[path.length - 1] as string}":${form === '{' ? objectText(o) : form}`);
    });
    if (r.extraIn === group + 1)
      parts.push(`"extra":${EXTRA_VALUES[k % EXTRA_VALUES.length] as string}`);
    if (r.shuffle && parts.length > 1) parts.push(parts.shift() as string);
    return `{${parts.join(',')}}`;
  };
  return objectText(-1);
}

describe('the byte core reads JSON records as the JavaScript path does', () => {
  afterAll(() => {
    console.log(`byte core, JSON: ${taken.jsonRecords} records in ${taken.jsonTakes} takes`);
    expect(taken.jsonRecords).toBeGreaterThan(10_000);
  });

  it('generated schemas and files, whole and in random chunks', () => {
    fc.assert(
      fc.property(cases, ([s, f]) => {
        const schema = schemaOf(s);
        const bytes = bytesOf(fileText(s, f));
        const options: Partial<ValidateOptions> =
          f.maxRows === undefined ? {} : { maxRows: f.maxRows };
        const reference = validate(schema, bytes, options, false, undefined);
        expect(validate(schema, bytes, options, true, undefined)).toEqual(reference);
        expect(validate(schema, bytes, options, true, f.chunks)).toEqual(reference);
      }),
      { numRuns: 120, seed: 252 },
    );
  });

  it('every value of every field, one field at a time, among clean records', () => {
    for (const template of TEMPLATES) {
      for (const required of [false, true]) {
        const s: SchemaCase = {
          fields: [{ template, required, spelling: 0 }],
          additionalProperties: true,
        };
        const schema = schemaOf(s);
        const clean = `{"f0":${(template.pool[0] as string).replace('<k>', 'c')}}`;
        const records: string[] = Array.from({ length: 6000 }, () => clean);
        [...template.pool, ...OTHER_VALUES].forEach((value, k) =>
          records.push(`{"f0":${value.replace('<k>', String(k))}}`, clean, clean),
        );
        sameInBothLayouts(schema, records);
      }
    }
  });

  it('nested objects the schema describes: present, absent, null, not objects, strict or not', () => {
    const before = taken.jsonRecords;
    const nestedCases = nestedSchemaCase.chain((s) =>
      fc.tuple(
        fc.constant(s),
        fc.array(nestedRecordCase(s.fields.length), { minLength: 1, maxLength: 30 }),
      ),
    );
    fc.assert(
      fc.property(nestedCases, ([s, recordCases]) => {
        const schema = nestedSchemaOf(s);
        const records: string[] = [];
        for (let k = 0, size = 0; size < 150_000; k++) {
          const text = nestedRecordText(
            s,
            recordCases[k % recordCases.length] as NestedRecordCase,
            k,
          );
          records.push(text);
          size += text.length + 2;
        }
        sameInBothLayouts(schema, records);
      }),
      { numRuns: 60, seed: 253 },
    );
    // Records with nested objects are taken too, not only records without them.
    expect(taken.jsonRecords - before).toBeGreaterThan(30_000);
  });

  it('objects nested as deep as the text fast path follows, and one deeper', () => {
    for (const depth of [14, 15, 16, 17]) {
      const path = Array.from({ length: depth }, (_, k) => `n${k}`);
      const s: SchemaCase = {
        fields: [{ template: TEMPLATES[0] as Template, required: true, spelling: 0 }],
        additionalProperties: true,
      };
      const flat = schemaOf(s);
      const schema: SchemaModel = {
        ...flat,
        fields: [
          { ...(flat.fields[0] as SchemaModel['fields'][number]), name: [...path, 'f0'].join('.') },
        ],
      };
      const nest = (value: string) =>
        path.reduceRight((inner, key) => `{"${key}":${inner}}`, value);
      // Mostly clean records, so that the core stays on; now and then an undescribed value one
      // or three levels deeper than the field's object.
      const extra = (k: number) =>
        k % 50 === 0 ? ',"x":[]' : k % 50 === 25 ? ',"x":{"a":[1]}' : '';
      const records = Array.from({ length: 6000 }, (_, k) =>
        nest(k === 5500 ? '{"f0":0}' : `{"f0":5${extra(k)}}`),
      );
      const before = taken.jsonRecords;
      sameInBothLayouts(schema, records);
      // Within the depth the text fast path follows, the core takes these records.
      if (depth <= 14) expect(taken.jsonRecords - before).toBeGreaterThan(10_000);
    }
  });

  it('every kind of value of a property the schema does not describe', () => {
    const s: SchemaCase = {
      fields: [{ template: TEMPLATES[0] as Template, required: true, spelling: 0 }],
      additionalProperties: true,
    };
    const schema = schemaOf(s);
    for (const value of NESTED_VALUES) {
      const records = Array.from({ length: 6000 }, (_, k) =>
        k === 5500 ? `{"f0":5,"x":${value}}` : `{"f0":5,"x":${k % 2 === 0 ? '[]' : '{"a":[1]}'}}`,
      );
      sameInBothLayouts(schema, records);
    }
  });
});
