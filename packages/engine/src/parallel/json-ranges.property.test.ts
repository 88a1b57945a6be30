// JSON validation in ranges (decision 247) against the whole file's validator: for generated
// NDJSON files and top-level arrays (nested objects and arrays, strings with escaped quotes,
// backslashes, `\n` escapes and brackets, multibyte and non-BMP text, a BOM, CRLF, blank NDJSON
// lines, planted type errors, `unique` and `uniqueTogether` values repeated across ranges, broken
// records, invalid UTF-8, elements that are not objects, an array that breaks midway or never
// closes) and every range count and block size, the result and every issue passed to onIssue are
// byte-identical to validateBytes's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Issue, SchemaModel } from '../model.ts';
import { parseSchema } from '../schema/parse.ts';
import { validateBytes } from '../validate/validator.ts';
import { validateJsonInRanges } from './json-chunk.ts';
import { type JsonSplitPlan, planJsonRanges, planJsonSplit } from './json-plan.ts';
import type { RangeAction } from './ranges.ts';

function schemaOf(input: unknown): SchemaModel {
  const parsed = parseSchema(input, 'web');
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.value;
}

const FIELDS = [
  { name: 'id', type: 'integer', required: true, validation: { minValue: 1, unique: true } },
  { name: 'name', type: 'string', required: true, validation: { minLength: 2, maxLength: 8 } },
  { name: 'email', type: 'email', required: false, validation: { unique: true } },
  { name: 'price', type: 'number', required: false, validation: { minValue: 0, precision: 2 } },
  { name: 'address.zip', type: 'string', required: false, validation: { pattern: '^[0-9]{5}$' } },
  { name: 'ok', type: 'boolean', required: false, validation: { severity: 'warning' } },
];

// Clean records are taken by the fast paths, which with cross-field rules run them too (decision
// 255): both schemas are read in ranges.
const SCHEMAS = [
  schemaOf({ name: 'plain', fileType: 'json', fields: FIELDS }),
  schemaOf({
    name: 'rules',
    fileType: 'json',
    fields: FIELDS,
    rules: [{ kind: 'uniqueTogether', fields: ['name', 'ok'] }],
  }),
];

/** Property values as JSON text. */
const VALUES: Record<string, string[]> = {
  id: ['1', '2', '3', '4', '5', '17', '0', '-3', '"x"', '2.5', 'null', '"1"'],
  name: [
    '"ab"',
    '"Zoë"',
    '"say \\"hi\\""',
    '"back\\\\"',
    '"a\\\\\\"b"',
    '"line\\nbreak"',
    '"𝄞𝄞"',
    '"日本語"',
    '"a"',
    '"[{,]}"',
    '"toolongname"',
    '"\\u00e9t\\u00e9"',
  ],
  email: ['"a@example.com"', '"b@example.com"', '"bad"', 'null', '"c@ex.org"'],
  price: ['1.00', '0', '-1', '2.345', '"x"', '12.3', '1e400', '9007199254740993'],
  zip: ['"12345"', '"1234"', 'null', '{"a":[1,{"b":"]"}]}'],
  ok: ['true', 'false', '"maybe"', '[true,[false,{}]]'],
};

const recordArb = fc.record({
  values: fc.record(
    Object.fromEntries(Object.entries(VALUES).map(([k, v]) => [k, fc.constantFrom(...v)])),
  ) as fc.Arbitrary<Record<string, string>>,
  // 0: broken (cut short), 1: not an object, 2: invalid UTF-8 in a string; otherwise a record.
  kind: fc.nat(40),
  spaced: fc.boolean(),
});

const fileArb = fc.record({
  records: fc.array(recordArb, { minLength: 0, maxLength: 50 }),
  shape: fc.constantFrom('ndjson', 'ndjson', 'array', 'array'),
  forced: fc.boolean(),
  bom: fc.boolean(),
  eol: fc.constantFrom('\n', '\r\n'),
  // NDJSON: blank lines after these records; array: one element per line, or all on one.
  blank: fc.nat(6),
  layout: fc.constantFrom('one line', 'lines', 'pretty'),
  // An array: whether it is closed.
  closed: fc.constantFrom(true, true, true, false),
  finalBreak: fc.boolean(),
});

type FileSpec = typeof fileArb extends fc.Arbitrary<infer T> ? T : never;
type RecordSpec = FileSpec['records'][number];

const BAD_BYTE = '\uE000';

function recordText(r: RecordSpec, eol: string, pretty: boolean): string {
  const v = r.values;
  if (r.kind === 1) return v.ok as string;
  const sep = pretty ? `,${eol}    ` : r.spaced ? ', ' : ',';
  const colon = r.spaced ? ': ' : ':';
  const name = r.kind === 2 ? `"a${BAD_BYTE}b"` : v.name;
  const text =
    `{${pretty ? `${eol}    ` : ''}"id"${colon}${v.id}${sep}"name"${colon}${name}${sep}` +
    `"email"${colon}${v.email}${sep}"price"${colon}${v.price}${sep}` +
    `"address"${colon}{"zip"${colon}${v.zip}}${sep}"ok"${colon}${v.ok}${pretty ? `${eol}  ` : ''}}`;
  return r.kind === 0 ? text.slice(0, text.length >> 1) : text;
}

function fileText(f: FileSpec): string {
  let body: string;
  if (f.shape === 'ndjson') {
    const lines: string[] = [];
    f.records.forEach((r, i) => {
      lines.push(recordText(r, f.eol, false));
      if (i % 7 === f.blank) lines.push('', ' \t');
    });
    body = lines.join(f.eol) + (f.finalBreak ? f.eol : '');
  } else {
    const pretty = f.layout === 'pretty';
    const between = f.layout === 'one line' ? ',' : `,${f.eol}  `;
    const open = f.layout === 'one line' ? '[' : `[${f.eol}  `;
    const close = f.layout === 'one line' ? ']' : `${f.eol}]`;
    body =
      open +
      f.records.map((r) => recordText(r, f.eol, pretty)).join(between) +
      (f.closed ? close : '') +
      (f.finalBreak ? f.eol : '');
  }
  return (f.bom ? '\uFEFF' : '') + body;
}

const encoder = new TextEncoder();

/** The file's bytes, each BAD_BYTE an 0xFF (invalid UTF-8). */
function fileBytes(text: string): Uint8Array {
  const parts = text.split(BAD_BYTE).map((p) => encoder.encode(p));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0) + parts.length - 1);
  let at = 0;
  parts.forEach((p, i) => {
    if (i > 0) out[at++] = 0xff;
    out.set(p, at);
    at += p.length;
  });
  return out;
}

const NOW = new Date('2026-01-01T00:00:00Z');
type Shape = 'ndjson' | undefined;

function whole(schema: SchemaModel, bytes: Uint8Array, shape: Shape, maxErrors: number) {
  const issues: Issue[] = [];
  const result = validateBytes(schema, bytes, {
    fileType: 'json',
    maxErrors,
    now: NOW,
    onIssue: (issue) => issues.push(structuredClone(issue)),
    ...(shape === undefined ? {} : { jsonShape: shape }),
  });
  return JSON.stringify({ result, issues });
}

const seen = { rerun: 0, ranged: 0, refused: 0, rest: 0 };

function inRanges(
  schema: SchemaModel,
  bytes: Uint8Array,
  shape: Shape,
  ranges: number,
  blockBytes: number,
  maxErrors: number,
  keepIssues: number | undefined,
  reversed: boolean,
): string {
  const issues: Issue[] = [];
  let count = 0;
  const plan = planJsonSplit(bytes, shape);
  if (plan.ok) {
    const read = (p: number, n: number) => bytes.subarray(p, p + n);
    count = planJsonRanges(plan.plan, read, bytes.length, ranges, blockBytes).length;
  }
  const order = reversed ? Array.from({ length: count }, (_, i) => count - 1 - i) : undefined;
  let merged = 0;
  const result = validateJsonInRanges(schema, bytes, {
    maxErrors,
    onIssue: (issue) => issues.push(structuredClone(issue)),
    ranges,
    blockBytes,
    now: NOW,
    ...(shape === undefined ? {} : { jsonShape: shape }),
    ...(keepIssues === undefined ? {} : { keepIssues }),
    ...(order === undefined ? {} : { order }),
    onAction: (a: RangeAction) => {
      if (a.kind === 'rerun') seen.rerun++;
      if (a.kind === 'merged') merged = Math.max(merged, a.range + 1);
    },
  });
  if (result === null) {
    seen.refused++;
    return whole(schema, bytes, shape, maxErrors);
  }
  if (count > 1) seen.ranged++;
  if (merged < count) seen.rest++;
  return JSON.stringify({ result, issues });
}

/** inRanges with the file's own shape, maxErrors 1000, no issue bound, ranges in order. */
function asOneFile(schema: SchemaModel, bytes: Uint8Array, ranges: number, blockBytes: number) {
  return inRanges(schema, bytes, undefined, ranges, blockBytes, 1000, undefined, false);
}

describe('JSON validation in ranges (decision 247)', () => {
  it('gives the whole file validator’s result and issues for every range count and block size', () => {
    fc.assert(
      fc.property(
        fileArb,
        fc.nat(1),
        fc.integer({ min: 1, max: 9 }),
        fc.constantFrom(1, 2, 7, 64, 4096),
        fc.constantFrom(1, 3, 1000),
        fc.constantFrom(undefined, 0, 2),
        fc.boolean(),
        (file, s, ranges, blockBytes, maxErrors, keepIssues, reversed) => {
          const schema = SCHEMAS[s] as SchemaModel;
          const bytes = fileBytes(fileText(file));
          const shape: Shape = file.forced && file.shape === 'ndjson' ? 'ndjson' : undefined;
          expect(
            inRanges(schema, bytes, shape, ranges, blockBytes, maxErrors, keepIssues, reversed),
          ).toBe(whole(schema, bytes, shape, maxErrors));
        },
      ),
      { numRuns: 600 },
    );
    // Every path was taken: ranges merged, run again with earlier values, a range read on to the
    // end of the file (a broken array, a first line that is not NDJSON's), a file refused.
    expect(seen.ranged).toBeGreaterThan(200);
    expect(seen.rerun).toBeGreaterThan(50);
    expect(seen.rest).toBeGreaterThan(10);
    expect(seen.refused).toBeGreaterThan(5);
  });

  it('every range count and block size on one NDJSON and one array file with everything in them', () => {
    for (const shape of ['ndjson', 'array'] as const) {
      const records: string[] = [];
      for (let i = 1; i <= 40; i++) {
        const name = ['"日本𝄞"', '"say \\"hi\\", [x]"', '"a\\\\"', '"x\\ny"'][i % 4];
        const id = i === 20 ? '"twenty"' : String((i % 17) + 1);
        records.push(`{"id":${id},"name":${name},"email":"u${i % 23}@example.com","ok":true}`);
      }
      const text =
        shape === 'ndjson'
          ? `\uFEFF${records.join('\r\n\r\n')}\r\n`
          : `\uFEFF[\r\n${records.join(',\r\n')}\r\n]\r\n`;
      const bytes = encoder.encode(text);
      for (const schema of SCHEMAS) {
        const expected = whole(schema, bytes, undefined, 1000);
        for (let ranges = 1; ranges <= 12; ranges++) {
          for (const blockBytes of [1, 3, 100, 1 << 20]) {
            const got = asOneFile(schema, bytes, ranges, blockBytes);
            expect(got).toBe(expected);
            const few = inRanges(schema, bytes, undefined, ranges, blockBytes, 5, 1, true);
            expect(few).toBe(whole(schema, bytes, undefined, 5));
          }
        }
        expect(JSON.parse(expected).result.errorsByCode.unique).toBeGreaterThan(10);
      }
    }
  });

  it('invalid UTF-8 in later ranges: the same lines, columns and byte offsets', () => {
    for (const shape of ['ndjson', 'array'] as const) {
      const records = Array.from(
        { length: 30 },
        (_, i) => `{"id":${i + 1},"name":"日本${i % 9 === 4 ? BAD_BYTE : ''}𝄞"}`,
      );
      const text = shape === 'ndjson' ? `${records.join('\n')}\n` : `[${records.join(',\n ')}]`;
      const bytes = fileBytes(text);
      expect(planJsonSplit(bytes).ok).toBe(true);
      const schema = SCHEMAS[0] as SchemaModel;
      const expected = whole(schema, bytes, undefined, 1000);
      const errors = JSON.parse(expected).result.errorsByCode.encoding_error;
      expect(errors).toBe(shape === 'ndjson' ? 3 : 1);
      for (let ranges = 1; ranges <= 9; ranges++) {
        for (const blockBytes of [1, 3, 100]) {
          const got = asOneFile(schema, bytes, ranges, blockBytes);
          expect(got).toBe(expected);
        }
      }
    }
  });

  it('a record over the size limits is judged where one thread judges it (reads end at the same offsets)', () => {
    // Over 100,000 members, then 40 KB on, a bracket that does not match: `record_too_large`
    // when a piece of the reader ends between the two, else the `parse_error`. So ranges push at
    // the offsets one thread does (blocks of a multiple of 64 KiB).
    const big = `{"id":7,"name":"ab","v":[${'0,'.repeat(120_000)}0}}`;
    const small = (i: number) => `{"id":${i},"name":"ab"}`;
    // (An NDJSON line is measured only once it ends: no piece end can tell it too large.)
    for (const shape of ['array', 'ndjson'] as const) {
      for (let pad = 0; pad < 64 << 10; pad += shape === 'array' ? 4099 : 32771) {
        const records = [
          `{"id":1,"name":"${'p'.repeat(pad)}"}`,
          ...Array.from({ length: 3000 }, (_, i) => small(i + 2)),
          big,
          ...Array.from({ length: 300 }, (_, i) => small(i + 5000)),
        ];
        const text = shape === 'ndjson' ? `${records.join('\n')}\n` : `[${records.join(',')}]`;
        const bytes = encoder.encode(text);
        const schema = SCHEMAS[0] as SchemaModel;
        const expected = whole(schema, bytes, undefined, 1000);
        for (const ranges of [2, 3]) {
          for (const blockBytes of ranges === 2 ? [64 << 10, 1 << 20] : [64 << 10]) {
            const got = asOneFile(schema, bytes, ranges, blockBytes);
            expect(got).toBe(expected);
          }
        }
      }
    }
  });

  it('an array that breaks midway: the ranges after the break are dropped', () => {
    const elements = Array.from({ length: 30 }, (_, i) =>
      i === 12 ? '{"id":13,"name":"ab",}' : `{"id":${i + 1},"name":"ab"}`,
    );
    const bytes = encoder.encode(`[\n${elements.join(',\n')}\n]\n`);
    const expected = whole(SCHEMAS[0] as SchemaModel, bytes, undefined, 1000);
    expect(JSON.parse(expected).result.totalRows).toBe(13);
    for (let ranges = 2; ranges <= 9; ranges++) {
      const got = asOneFile(SCHEMAS[0] as SchemaModel, bytes, ranges, 7);
      expect(got).toBe(expected);
    }
  });

  it('cuts an array only between its elements, past strings, escapes and nesting', () => {
    const text = '\uFEFF [{"a":"\\",[x"},\n [1,[2,"]"]], "é,\\\\",\n{"b":{"c":[3,4]}}]';
    const bytes = encoder.encode(text);
    const decision = planJsonSplit(bytes);
    expect(decision.ok).toBe(true);
    const plan = (decision as { plan: JsonSplitPlan }).plan;
    const read = (p: number, n: number) => bytes.subarray(p, p + n);
    for (const blockBytes of [1, 2, 5, 1000]) {
      const ranges = planJsonRanges(plan, read, bytes.length, 40, blockBytes);
      const cuts = ranges.map((r) => [r.lineBreaksBefore, r.line, r.column]);
      // Just after each comma between elements: the records before, line and column.
      expect(cuts).toEqual([
        [0, 1, 1],
        [1, 1, 17],
        [2, 2, 14],
        [3, 2, 22],
      ]);
    }
  });

  it('refuses what ranges could read otherwise than the whole file', () => {
    expect(planJsonSplit(encoder.encode('{"a":1}')).ok).toBe(false);
    expect(planJsonSplit(encoder.encode('{"a":\n1}\n{"a":2}\n')).ok).toBe(false);
    expect(planJsonSplit(encoder.encode('[1,2]'), 'object').ok).toBe(false);
    expect(planJsonSplit(encoder.encode('   \n  ')).ok).toBe(false);
    expect(planJsonSplit(new Uint8Array([0xff, 0xfe, 0x5b, 0x00])).ok).toBe(false);
    expect(planJsonSplit(new Uint8Array([0x7b, 0x7d, 0x0a, 0xff, 0x0a])).ok).toBe(true);
    expect(planJsonSplit(encoder.encode('{"a":1}\n{"a":2}\n')).ok).toBe(true);
    expect(planJsonSplit(encoder.encode('{"a":\n{"a":2}\n'), 'ndjson').ok).toBe(true);
    expect(planJsonSplit(encoder.encode('\uFEFF\n [1]'))).toEqual({
      ok: true,
      plan: { shape: 'array', forced: undefined, bodyStart: 6, bomLength: 3 },
    });
  });
});
