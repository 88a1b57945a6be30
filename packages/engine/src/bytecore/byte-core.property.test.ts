// The byte core (decision 248) changes nothing but speed: for generated schemas (every field type
// and rule, cross-field rules, missing, extra and reordered columns) and generated CSV files
// (quotes, line ends, blank lines, BOM, sep= lines, delimiters, ragged rows, multibyte text,
// control characters, long cells), pushed in random chunks, validation with the core gives the
// same ValidationResult, and the same issues in the same order, as validation without it. Files
// are mostly larger than the 64 KiB the reader reads as text before it offers the core anything,
// some with the rows that matter right at that boundary. The core's scan is counted, so that
// the comparison cannot pass with the core silently off.
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { CrossFieldRule, SchemaModel } from '../model.ts';
import type { WebFieldValidation } from '../schema/web-types.ts';
import { parseSchema } from '../schema/parse.ts';
import { ENCODING_SAMPLE_BYTES } from '../text/detect-encoding.ts';
import type { ValidateOptions } from '../validate/validator.ts';
import { taken } from '../../test/counting-core.ts';
import { validateOutcome, type Outcome } from '../../test/outcome.ts';

vi.mock('./load.ts', async (importOriginal) =>
  (await import('../../test/counting-core.ts')).countingLoad(importOriginal),
);

const NOW = new Date('2024-02-29T12:00:00Z');
const rawByte = (b: number) => String.fromCharCode(0xdc00 + b);

// --- fields ---

type FieldType = 'integer' | 'number' | 'boolean' | 'date' | 'email' | 'url' | 'enum' | 'string';
interface Template {
  type: FieldType;
  validation: WebFieldValidation;
  /** Cells of the field's own kind, good and bad. */
  pool: readonly string[];
}

const INTEGERS = [
  '0',
  '-0',
  '+5',
  '5',
  '-5',
  '05',
  '10',
  '11',
  '-6',
  '99',
  '100',
  '1.',
  '.5',
  '1e3',
  '1.0',
  '999999999999999999',
  '9999999999999999999',
  '-9223372036854775808',
  '9223372036854775807',
  '9223372036854775808',
  '12',
  '42',
  '7',
  '3',
];
const DECIMALS = [
  ...INTEGERS,
  '1.5',
  '-1.5',
  '2.25',
  '2.250000001',
  '2.2500000001',
  '0.000000001',
  '0.0000000001',
  '0.123456789',
  '0.1234567891',
  '-0.0',
  '1.12',
  '1.123',
  '123456789.5',
  '1234567890.5',
  '3.14',
  '0.5',
];
const BOOLEANS = ['true', 'false', 'TRUE', 'Yes', 'no', '1', '0', 'on', 'OFF', 'Y', 'N', 'maybe'];
const ISO_DATES = [
  '2024-02-29',
  '2023-02-29',
  '2024-02-28',
  '2024-03-01',
  '2024-13-01',
  '2024-04-31',
  '2024-1-1',
  '2000-02-29',
  '1900-02-29',
  '2023-12-31',
  '2025-01-01',
];
const DMY_DATES = [
  '29/02/2024',
  '29/02/2023',
  '31/12/2023',
  '01/01/2025',
  '1/1/2024',
  '32/01/2024',
];
const DATE_TIMES = [
  '2024-02-29T12:00:00',
  '2024-02-29t12:00:00',
  '2024-02-29T24:00:00',
  '2024-02-29T23:59:60',
  '2024-02-29T11:59:59',
  '2024-03-01T00:00:00',
  '2023-02-29T00:00:00',
  '2024-02-29 12:00:00',
];
const ZONED = [
  '2024-02-29T12:00:00Z',
  '2024-02-29T12:00:00+01:00',
  '2024-02-29T12:00:00',
  '2024-02-29T12:00:00.5Z',
  '2024-02-29t12:00:00z',
];
const EMAILS = [
  'a@b.c',
  'A.B@c-d.e',
  'a@b',
  'a@-b.c',
  'a@b-.c',
  `a@${'x'.repeat(63)}.c`,
  `a@${'x'.repeat(64)}.c`,
  'a@xn--bcher-kva.ch',
  'a..b@c.d',
  'a@b..c',
  'é@b.c',
  '@b.c',
  'a b@c.d',
];
const URLS = [
  'http://a.b',
  'https://example.com/x?y#z',
  'HTTP://A.COM',
  'http://a.b:80',
  'http://u:p@a.b',
  'http://127.0.0.1',
  'http://0x1f',
  'http://a.0x1f',
  'http://xn--nxasmq6b.com',
  'http://a-.b',
  `http://${'a'.repeat(64)}.com`,
  'http:\\\\a.b',
  'http://a.b/c\\d',
  'http://a.b/ c',
  'ftp://a.b',
  'http://a.b/é',
];
const TEXTS = [
  'ABC-1234',
  'AB-1234',
  'abc',
  'aax',
  'ab',
  'a',
  'b',
  'DE',
  'FR',
  'de',
  'é',
  '😀',
  '中文',
  'x'.repeat(70),
];

const TEMPLATES: Template[] = [
  { type: 'integer', validation: {}, pool: INTEGERS },
  { type: 'integer', validation: { minValue: -5, maxValue: 10 }, pool: INTEGERS },
  { type: 'integer', validation: { minValue: '0.5', maxValue: '99.5' }, pool: INTEGERS },
  {
    type: 'integer',
    validation: { exclusiveMinimum: 0, exclusiveMaximum: 100, unique: true },
    pool: INTEGERS,
  },
  { type: 'integer', validation: { values: ['5', '7', '-0'] }, pool: INTEGERS },
  { type: 'number', validation: {}, pool: DECIMALS },
  {
    type: 'number',
    validation: { precision: 2, minValue: '-1.5', maxValue: '2.25' },
    pool: DECIMALS,
  },
  {
    type: 'number',
    validation: { exclusiveMinimum: '0', exclusiveMaximum: '1', severity: 'warning' },
    pool: DECIMALS,
  },
  { type: 'number', validation: { precision: 12, unique: true }, pool: DECIMALS },
  { type: 'boolean', validation: {}, pool: BOOLEANS },
  { type: 'boolean', validation: { truthy: ['Y', 'oui'], falsy: ['N', 'non'] }, pool: BOOLEANS },
  { type: 'date', validation: {}, pool: ISO_DATES },
  { type: 'date', validation: { format: 'DD/MM/YYYY', allowFuture: false }, pool: DMY_DATES },
  {
    type: 'date',
    validation: { format: 'YYYY-MM-DDTHH:mm:ss', allowPast: false },
    pool: DATE_TIMES,
  },
  { type: 'date', validation: { format: 'YYYY-MM-DDTHH:mm:ssZ' }, pool: ZONED },
  {
    type: 'date',
    validation: { minDate: '2024-01-01', maxDate: '2024-02-29', severity: 'warning' },
    pool: ISO_DATES,
  },
  { type: 'email', validation: {}, pool: EMAILS },
  { type: 'email', validation: { maxLength: 10 }, pool: EMAILS },
  { type: 'url', validation: {}, pool: URLS },
  { type: 'enum', validation: { values: ['DE', 'FR', 'a b', 'é'] }, pool: TEXTS },
  { type: 'string', validation: {}, pool: TEXTS },
  { type: 'string', validation: { minLength: 2, maxLength: 4 }, pool: TEXTS },
  { type: 'string', validation: { pattern: '^[A-Z]{3}-\\d{4}$' }, pool: TEXTS },
  { type: 'string', validation: { pattern: '^\\d+$' }, pool: [...TEXTS, ...INTEGERS] },
  { type: 'string', validation: { pattern: '[a-z]+x' }, pool: TEXTS },
  { type: 'string', validation: { pattern: '^(a|b)+$' }, pool: TEXTS },
  { type: 'string', validation: { allowedChars: 'abcx-' }, pool: TEXTS },
  { type: 'string', validation: { values: ['DE', 'FR'] }, pool: TEXTS },
  { type: 'string', validation: { unique: true }, pool: TEXTS },
  { type: 'string', validation: { message: '{field}: {value}', maxLength: 2 }, pool: TEXTS },
];

const SHARED_CELLS = [
  '',
  ' ',
  '\t',
  'a,b',
  'a;b',
  'a|b',
  'a"b',
  'a""b',
  '\u0000',
  '\u0001x',
  '\u007f',
  '\uFEFF',
  'é',
  '😀',
  '中',
  'x'.repeat(300),
  'a\nb',
  'a\r\nb',
  rawByte(0xff),
  `a${rawByte(0xc3)}`,
];

interface Field {
  name: string;
  template: Template;
  required: boolean;
}

const field = (name: string): fc.Arbitrary<Field> =>
  fc.record({
    name: fc.constant(name),
    template: fc.constantFrom(...TEMPLATES),
    required: fc.boolean(),
  });

const NUMERIC = new Set<FieldType>(['integer', 'number']);

/** Cross-field rules over the schema's fields (numeric ones where a rule needs them). */
function rulesFor(fields: readonly Field[]): fc.Arbitrary<CrossFieldRule[]> {
  const names = fields.map((f) => f.name);
  const numeric = fields.filter((f) => NUMERIC.has(f.template.type)).map((f) => f.name);
  const options = fc.record(
    { severity: fc.constant<'warning'>('warning'), message: fc.constant('{field} vs {other}') },
    { requiredKeys: [] },
  );
  const name = fc.constantFrom(...names);
  const kinds: fc.Arbitrary<CrossFieldRule>[] = [
    fc
      .tuple(name, name, fc.constantFrom('isNotEmpty', 'isEmpty'), options)
      .map(([f, w, op, o]) => ({ kind: 'requiredWhen', field: f, when: { field: w, op }, ...o })),
  ];
  if (names.length > 1)
    kinds.push(
      fc
        .tuple(fc.uniqueArray(name, { minLength: 2, maxLength: 2 }), options)
        .map(([list, o]) => ({ kind: 'uniqueTogether', fields: list, ...o })),
    );
  if (numeric.length > 0) {
    const num = fc.constantFrom(...numeric);
    kinds.push(
      fc
        .tuple(num, fc.constantFrom('=', '!=', '<', '<=', '>', '>='), fc.constantFrom('5', '0.5'))
        .map(([left, op, value]) => ({ kind: 'compare', left, op, value })),
      fc
        .tuple(fc.uniqueArray(num, { minLength: 1, maxLength: 3 }), fc.constantFrom('10', '0'))
        .map(([list, value]) => ({ kind: 'sum', fields: list, value, tolerance: '0.5' })),
    );
    if (numeric.length > 1)
      kinds.push(
        fc
          .tuple(
            fc.uniqueArray(num, { minLength: 2, maxLength: 2 }),
            fc.constantFrom('<', '>=', '='),
          )
          .map(([[left, right], op]) => ({ kind: 'compare', left: left!, op, right: right! })),
      );
  }
  return fc.array(fc.oneof(...kinds), { maxLength: 3 });
}

interface SchemaCase {
  fields: Field[];
  rules: CrossFieldRule[];
  orderMatters: boolean;
  additionalColumns: boolean;
  missingValues: boolean;
}

const schemaCase: fc.Arbitrary<SchemaCase> = fc
  .integer({ min: 1, max: 6 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, k) => field(`f${k}`))))
  .chain((fields) =>
    fc.record({
      fields: fc.constant(fields),
      rules: fc.oneof(fc.constant<CrossFieldRule[]>([]), rulesFor(fields)),
      orderMatters: fc.boolean(),
      additionalColumns: fc.boolean(),
      missingValues: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, fc.constant(true)),
    }),
  );

function schemaOf(c: SchemaCase): SchemaModel {
  const parsed = parseSchema(
    {
      name: 'byte core',
      fields: c.fields.map((f) => ({
        name: f.name,
        type: f.template.type,
        required: f.required,
        validation: f.template.validation,
      })),
      rules: c.rules,
      orderMatters: c.orderMatters,
      additionalColumns: c.additionalColumns,
    },
    'web',
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  // Table Schema's missing values (the core steps aside for them).
  return c.missingValues ? { ...parsed.value, missingValues: ['NA', ''] } : parsed.value;
}

// --- files ---

type Ending = 'lf' | 'crlf' | 'cr' | 'mixed';
interface FileCase {
  /** Column order: indexes into the schema's fields, or -1 for an extra column. */
  columns: number[];
  rows: {
    cells: { pick: number; own: boolean; quote: boolean }[];
    arity: number;
    blank: boolean;
  }[];
  delimiter: ',' | ';' | '\t' | '|';
  /** Passed as an option, named on a sep= line, or detected. */
  delimiterBy: 'option' | 'sep' | 'detect';
  ending: Ending;
  bom: boolean;
  finalNewline: boolean;
  /** How the generated rows fill the file (see fileBytes). */
  layout: 'small' | 'repeat' | 'boundary';
  repeats: number;
  boundaryShift: number;
  maxRows: number | undefined;
  maxErrors: number | undefined;
  maxFieldBytes: number | undefined;
  chunks: number[];
}

const chunkSize = fc.oneof(
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 16 }) },
  { weight: 2, arbitrary: fc.integer({ min: 17, max: 8192 }) },
  { weight: 3, arbitrary: fc.integer({ min: 8193, max: 200 * 1024 }) },
);

function fileCase(fieldCount: number): fc.Arbitrary<FileCase> {
  const columns = fc
    .tuple(
      fc.shuffledSubarray(
        Array.from({ length: fieldCount }, (_, k) => k),
        { minLength: Math.max(0, fieldCount - 2) },
      ),
      fc.integer({ min: 0, max: 2 }),
      fc.nat(),
    )
    .map(([kept, extras, at]) => {
      const out = [...kept];
      for (let e = 0; e < extras; e++) out.splice((at + e) % (out.length + 1), 0, -1);
      return out.length === 0 ? [-1] : out;
    });
  return columns.chain((cols) => {
    const cell = fc.record({
      pick: fc.nat(),
      own: fc.nat(9).map((n) => n < 8),
      quote: fc.nat(5).map((n) => n === 0),
    });
    const row = fc.record({
      cells: fc.array(cell, { minLength: cols.length, maxLength: cols.length }),
      // Mostly the header's cell count; sometimes one more or fewer.
      arity: fc.oneof({ weight: 12, arbitrary: fc.constant(0) }, fc.constant(1), fc.constant(-1)),
      blank: fc.nat(20).map((n) => n === 0),
    });
    return fc.record({
      columns: fc.constant(cols),
      rows: fc.array(row, { minLength: 1, maxLength: 40 }),
      delimiter: fc.constantFrom(',', ';', '\t', '|'),
      delimiterBy: fc.constantFrom('option', 'option', 'sep', 'detect'),
      ending: fc.constantFrom<Ending>('lf', 'lf', 'crlf', 'cr', 'mixed'),
      bom: fc.nat(5).map((n) => n === 0),
      finalNewline: fc.nat(4).map((n) => n !== 0),
      layout: fc.constantFrom('small', 'repeat', 'repeat', 'boundary', 'boundary'),
      repeats: fc.integer({ min: 1, max: 4 }),
      boundaryShift: fc.integer({ min: -40, max: 40 }),
      maxRows: fc.option(fc.integer({ min: 0, max: 3000 }), { freq: 5 }),
      maxErrors: fc.option(fc.integer({ min: 0, max: 50 }), { freq: 4 }),
      maxFieldBytes: fc.option(fc.constantFrom(3, 8, 40, 200), { freq: 6 }),
      // With a large size in each cycle: a file of 1-byte pushes would take seconds.
      chunks: fc
        .tuple(fc.array(chunkSize, { maxLength: 4 }), fc.integer({ min: 8193, max: 200 * 1024 }))
        .map(([sizes, large]) => [...sizes, large]),
    });
  });
}

function quoted(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** The file's text (invalid UTF-8 as \uDCxx, see bytesOf) and the options it is read with. */
function fileText(s: SchemaCase, f: FileCase): { text: string; options: Partial<ValidateOptions> } {
  const d = f.delimiter;
  const endings = { lf: ['\n'], crlf: ['\r\n'], cr: ['\r'], mixed: ['\n', '\r\n', '\n', '\r'] }[
    f.ending
  ];
  let lineNo = 0;
  const end = () => endings[lineNo++ % endings.length] as string;
  const header = f.columns.map((c, k) => (c < 0 ? `extra${k}` : (s.fields[c] as Field).name));
  const rowText = f.rows.map((row) => {
    if (row.blank) return '';
    const cells = row.cells.map((c, k) => {
      const col = f.columns[k] as number;
      const pool = col >= 0 && c.own ? (s.fields[col] as Field).template.pool : SHARED_CELLS;
      const value = pool[c.pick % pool.length] as string;
      return c.quote || /["\r\n]/.test(value) || value.includes(d) ? quoted(value) : value;
    });
    if (row.arity > 0) cells.push('z');
    if (row.arity < 0) cells.pop();
    return cells.join(d);
  });
  let head = '';
  if (f.bom) head += '\uFEFF';
  if (f.delimiterBy === 'sep') head += `sep=${d}${end()}`;
  head += header.join(d) + end();
  const block = () => rowText.map((r) => r + end()).join('');
  let text = head;
  const sample = ENCODING_SAMPLE_BYTES;
  if (f.layout === 'small') text += block();
  else if (f.layout === 'repeat') {
    // Past the sample, so that stretches of many records reach the core.
    const first = block();
    const more = Math.ceil((sample * f.repeats - utf8Length(text)) / utf8Length(first));
    text += first + block().repeat(Math.max(0, more));
  } else {
    // Blank lines up to just before or after the 64 KiB boundary, then the rows, twice over.
    const fill = Math.max(0, sample + f.boundaryShift - utf8Length(text));
    const lineEnd = end();
    text += lineEnd.repeat(Math.floor(fill / lineEnd.length));
    text += block() + block();
  }
  if (!f.finalNewline) text = text.replace(/(\r\n|\r|\n)$/, '');
  const options: Partial<ValidateOptions> = {};
  if (f.delimiterBy === 'option') options.delimiter = d;
  if (f.maxRows !== undefined) options.maxRows = f.maxRows;
  if (f.maxErrors !== undefined) options.maxErrors = f.maxErrors;
  if (f.maxFieldBytes !== undefined) options.maxFieldBytes = f.maxFieldBytes;
  return { text, options };
}

const encoder = new TextEncoder();
const utf8Length = (text: string) => encoder.encode(text).length;

function bytesOf(text: string): Uint8Array {
  const out: number[] = [];
  let run = '';
  const flush = () => {
    for (const b of encoder.encode(run)) out.push(b);
    run = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc80 && c <= 0xdcff && !(i > 0 && (text.charCodeAt(i - 1) & 0xfc00) === 0xd800)) {
      flush();
      out.push(c - 0xdc00);
    } else run += text[i];
  }
  flush();
  return Uint8Array.from(out);
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
    { fileType: 'csv', now: NOW, ...options, byteCore },
    chunks,
  );
}

function sameWithAndWithout(s: SchemaCase, f: FileCase): void {
  const schema = schemaOf(s);
  const { text, options } = fileText(s, f);
  const bytes = bytesOf(text);
  const reference = validate(schema, bytes, options, false, undefined);
  expect(validate(schema, bytes, options, true, undefined)).toEqual(reference);
  expect(validate(schema, bytes, options, true, f.chunks)).toEqual(reference);
  expect(validate(schema, bytes, options, false, f.chunks)).toEqual(reference);
}

const cases = schemaCase.chain((s) => fc.tuple(fc.constant(s), fileCase(s.fields.length)));

describe('the byte core gives the same results as the JavaScript path', () => {
  afterAll(() => {
    console.log(`byte core: ${taken.records} records in ${taken.scans} scans`);
    expect(taken.records).toBeGreaterThan(20_000);
  });

  it('generated schemas and files, whole and in random chunks', () => {
    fc.assert(
      fc.property(cases, ([s, f]) => sameWithAndWithout(s, f)),
      { numRuns: 100, seed: 248 },
    );
  });

  it('clean files: the core takes nearly every record', () => {
    fc.assert(
      fc.property(
        schemaCase.filter((s) => !s.missingValues),
        fc.integer({ min: 70, max: 300 }),
        chunkSize,
        (s, kib, chunk) => {
          const schema = schemaOf({ ...s, rules: [] });
          // Each field's first pool value that passes alone, else an empty cell or a rejected
          // one: the rows are all alike, so the comparison below still holds when none passes.
          const header = s.fields.map((f) => f.name).join(',');
          const row = s.fields.map((f) => cleanCell(schema, f)).join(',');
          const lines: string[] = [header];
          let bytes = header.length + 1;
          for (let k = 0; bytes < kib * 1024; k++) {
            // Unique fields: a different value per row where the field takes one.
            const line = row.replaceAll('<k>', String(k));
            lines.push(line);
            bytes += line.length + 1;
          }
          const file = encoder.encode(`${lines.join('\n')}\n`);
          const before = taken.records;
          const reference = validate(schema, file, {}, false, undefined);
          expect(validate(schema, file, {}, true, [chunk])).toEqual(reference);
          // Pushes of a byte or two never hold a whole line: the core is not offered any.
          if (reference.result.valid && reference.result.totalRows > 1000 && chunk >= 64) {
            // Most rows past the sample went through the core: not the rest of the push that
            // completes the sample when the sample ends inside a line (all read as text), nor a
            // line cut by a push and the lines JS reads after it.
            const rowsIn = (bytes: number) => Math.ceil(bytes / (row.length + 1));
            const after =
              reference.result.totalRows - rowsIn(ENCODING_SAMPLE_BYTES) - rowsIn(chunk);
            expect(taken.records - before).toBeGreaterThanOrEqual(Math.floor(after * 0.8));
          }
        },
      ),
      { numRuns: 25, seed: 248 },
    );
  });
});

/** A cell that the field takes on its own in a file, '<k>' standing for a row number. */
function cleanCell(schema: SchemaModel, f: Field): string {
  if (f.template.validation.unique === true) {
    if (f.template.type === 'string') return 'u<k>';
    if (f.template.type === 'number') return '0.<k>';
  }
  const single = parseSchema(
    {
      name: 'one',
      fields: [
        { name: 'h', type: f.template.type, required: true, validation: f.template.validation },
      ],
    },
    'web',
  );
  if (!single.ok) return '';
  for (const value of f.template.pool) {
    if (/[",\r\n]/.test(value)) continue;
    const one = validate(single.value, encoder.encode(`h\n${value}\n`), {}, false, undefined);
    if (one.result.valid && (one.result.warningCount ?? 0) === 0) return value;
  }
  void schema;
  return '';
}
