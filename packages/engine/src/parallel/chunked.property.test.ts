// Chunked validation against the whole file's validator: for generated CSV files (quotes,
// doubled quotes, line breaks in cells, CRLF and CR, multibyte and non-BMP text, a BOM, several
// types and rules, `unique` and `uniqueTogether` with duplicates, rules marked as warnings,
// planted errors, stray quotes that mislead the boundary scan) and any chunking, the result and
// every issue passed to onIssue are byte-identical to validateBytes's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Issue, SchemaModel } from '../model.ts';
import { parseSchema } from '../schema/parse.ts';
import { validateBytes } from '../validate/validator.ts';
import { newCsvScanState, scanCsvBytes } from './boundary.ts';
import { planChunks, validateCsvInChunks } from './in-memory.ts';
import { planCsvSplit } from './plan.ts';
import { type RangeAction, validateCsvInRanges } from './ranges.ts';

function schemaOf(input: unknown): SchemaModel {
  const parsed = parseSchema(input, 'web');
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.value;
}

const SCHEMA = schemaOf({
  name: 'chunks',
  fileType: 'csv',
  fields: [
    { name: 'id', type: 'integer', required: true, validation: { minValue: 1, unique: true } },
    { name: 'name', type: 'string', required: true, validation: { minLength: 2, maxLength: 8 } },
    { name: 'email', type: 'email', required: false, validation: { unique: true } },
    { name: 'price', type: 'number', required: false, validation: { minValue: 0, precision: 2 } },
    { name: 'day', type: 'date', required: false, validation: {} },
    { name: 'ok', type: 'boolean', required: false, validation: { severity: 'warning' } },
    {
      name: 'kind',
      type: 'enum',
      required: false,
      validation: { values: ['red', 'green', 'blüe'] },
    },
  ],
  rules: [
    { kind: 'uniqueTogether', fields: ['name', 'kind'] },
    { kind: 'requiredWhen', field: 'price', when: { field: 'kind', op: '=', value: 'red' } },
  ],
});

const CELLS: Record<string, string[]> = {
  id: ['1', '2', '3', '4', '5', '17', '0', '-3', 'x', '', '01', '2.5'],
  name: [
    'ab',
    'Zoë',
    'a,b',
    'x"y',
    'line\nbreak',
    'crlf\r\nin',
    '𝄞𝄞',
    'a',
    'toolongname',
    '日本語',
    '',
  ],
  email: ['a@example.com', 'b@example.com', 'bad', '', 'c@ex.org'],
  price: ['1.00', '0', '-1', '2.345', '', 'x', '12.3'],
  day: ['2024-02-29', '2023-02-29', '', '2024-13-01', '2000-01-01'],
  ok: ['true', 'false', 'maybe', ''],
  kind: ['red', 'green', 'blüe', 'blue', ''],
};
const COLUMNS = Object.keys(CELLS);

/** A cell as a CSV writer would write it (quoted when it must be), or now and then as is. */
function written(value: string, raw: boolean): string {
  if (raw || !/[",\r\n]/.test(value)) return value;
  return `"${value.replaceAll('"', '""')}"`;
}

const rowArb = fc.record({
  cells: fc.tuple(...COLUMNS.map((c) => fc.constantFrom(...(CELLS[c] as string[])))),
  // A cell written without quotes although it needs them: a stray quote or a broken row.
  raw: fc.nat(40),
  width: fc.constantFrom(0, 0, 0, 0, 0, 0, 0, 0, 1, -1),
  // A name with a quote inside, unquoted (`O"Neil`): read literally, it flips quote parity.
  stray: fc.nat(12),
});

const fileArb = fc.record({
  rows: fc.array(rowArb, { minLength: 0, maxLength: 60 }),
  eol: fc.constantFrom('\n', '\r\n', '\r\n', '\n'),
  bom: fc.boolean(),
  emptyLines: fc.nat(3),
  finalBreak: fc.boolean(),
  order: fc.constantFrom('schema', 'shuffled'),
});

type FileSpec = typeof fileArb extends fc.Arbitrary<infer T> ? T : never;

function fileText(f: FileSpec): string {
  const order = f.order === 'schema' ? COLUMNS : [...COLUMNS].reverse();
  const lines = [order.join(',')];
  f.rows.forEach((r, i) => {
    const cells = order.map((c) => r.cells[COLUMNS.indexOf(c)] as string);
    const line = cells
      .map((v, k) => (r.stray === 0 && order[k] === 'name' ? 'O"Neil' : written(v, r.raw === k)))
      .join(',');
    lines.push(r.width > 0 ? `${line},extra` : r.width < 0 ? line.replace(/,[^,]*$/, '') : line);
    if (i < f.emptyLines) lines.push('');
  });
  return (f.bom ? '\uFEFF' : '') + lines.join(f.eol) + (f.finalBreak ? f.eol : '');
}

const verdicts = { merged: 0, seed: 0, rest: 0 };

function run(bytes: Uint8Array, cuts: number[] | null, maxErrors: number) {
  const issues: Issue[] = [];
  const onIssue = (issue: Issue) => issues.push(structuredClone(issue));
  const result =
    cuts === null
      ? validateBytes(SCHEMA, bytes, { fileType: 'csv', maxErrors, onIssue, now: NOW })
      : validateCsvInChunks(SCHEMA, bytes, {
          maxErrors,
          onIssue,
          cuts,
          now: NOW,
          onVerdict: (kind) => verdicts[kind]++,
        });
  return JSON.stringify({ result, issues });
}

const NOW = new Date('2026-01-01T00:00:00Z');
const encoder = new TextEncoder();

describe('chunked CSV validation', () => {
  it('gives the whole file validator’s result and issues for every chunking', () => {
    fc.assert(
      fc.property(
        fileArb,
        fc.array(fc.nat(4000), { maxLength: 12 }),
        fc.constantFrom(1, 3, 1000),
        (file, rawCuts, maxErrors) => {
          const bytes = encoder.encode(fileText(file));
          const cuts = [...new Set(rawCuts.map((c) => c % (bytes.length + 1)))].sort(
            (a, b) => a - b,
          );
          expect(run(bytes, cuts, maxErrors)).toBe(run(bytes, null, maxErrors));
        },
      ),
      { numRuns: 300 },
    );
    // Every path was taken: chunks merged as they were, validated again with earlier chunks'
    // values, and the rest of a file read in one piece after a stray quote.
    expect(verdicts.merged).toBeGreaterThan(300);
    expect(verdicts.seed).toBeGreaterThan(50);
    expect(verdicts.rest).toBeGreaterThan(5);
  });

  it('cuts at every line feed outside quotes gives the same, also one byte per chunk asked', () => {
    fc.assert(
      fc.property(fileArb, (file) => {
        const bytes = encoder.encode(fileText(file));
        const everyByte = Array.from({ length: bytes.length }, (_, i) => i + 1);
        expect(run(bytes, everyByte, 1000)).toBe(run(bytes, null, 1000));
      }),
      { numRuns: 100 },
    );
  });

  it('reports a duplicate in a later chunk as a duplicate of the row where it was first seen', () => {
    const text =
      'id,name,email\n1,ab,a@example.com\n2,cd,b@example.com\n3,ef,a@example.com\n1,gh,c@ex.org\n';
    const bytes = encoder.encode(text);
    const cuts = [20, 40, 60];
    expect(planChunks(bytes, cuts).length).toBeGreaterThan(2);
    const issues: Issue[] = [];
    const kinds: string[] = [];
    const result = validateCsvInChunks(SCHEMA, bytes, {
      cuts,
      onIssue: (i) => issues.push(i),
      onVerdict: (kind) => kinds.push(kind),
    });
    expect(kinds).toEqual(['merged', 'merged', 'merged', 'seed']);
    const dupes = issues
      .filter((i) => i.code === 'unique')
      .map((i) => `${i.row} ${i.field} ${i.message}`);
    expect(dupes).toEqual([
      '4 email Duplicate value; first seen in row 2',
      '5 id Duplicate value; first seen in row 2',
    ]);
    expect(result.invalidRows).toBe(2);
  });

  it('a stray quote that misleads the boundary scan: the rest of the file is read in one piece', () => {
    // `x"y` keeps its quote (as spreadsheets do), so quote parity is wrong from row 3 on.
    const text = 'id,name\n1,ab\n2,x"y\n3,cd\n1,"e\nf"\n4,gh\n2,ij\n';
    const bytes = encoder.encode(text);
    const chunks = planChunks(bytes, [16, 24, 32, 40]);
    expect(chunks.length).toBeGreaterThan(1);
    expect(run(bytes, [16, 24, 32, 40], 1000)).toBe(run(bytes, null, 1000));
    expect(JSON.parse(run(bytes, [16, 24, 32, 40], 1000)).result.totalRows).toBe(6);
    const kinds: string[] = [];
    validateCsvInChunks(SCHEMA, bytes, { cuts: [16, 24, 32, 40], onVerdict: (k) => kinds.push(k) });
    expect(kinds.at(-1)).toBe('rest');
  });

  it('the boundary scan counts LF, CR and CRLF as the reader counts rows, across pieces', () => {
    const bytes = encoder.encode('a\r\nb\rc\n"x\ny"\r\n\n');
    for (let split = 0; split <= bytes.length; split++) {
      const state = newCsvScanState();
      scanCsvBytes(bytes.subarray(0, split), state);
      const cut = scanCsvBytes(bytes, state, split);
      expect(state.lineBreaks).toBe(5);
      expect(state.inQuotes).toBe(false);
      if (split < bytes.length) expect(cut.at).toBe(bytes.length);
    }
  });

  it('refuses what chunks could read otherwise than the whole file', () => {
    expect(planCsvSplit(encoder.encode('sep=;\na;b\n1;2\n')).ok).toBe(false);
    expect(planCsvSplit(encoder.encode('\na,b\n1,2\n')).ok).toBe(false);
    expect(planCsvSplit(new Uint8Array([0xff, 0xfe, 0x61, 0x00])).ok).toBe(false);
    const ok = planCsvSplit(encoder.encode('\uFEFFa;b\r\n1;2\r\n'));
    expect(ok).toEqual({
      ok: true,
      plan: { encoding: { encoding: 'utf-8', bomLength: 3 }, delimiter: ';', headerEnd: 8 },
    });
  });
});

const rangeActions = { rerun: 0, rest: 0, ranges: 0 };

function runInRanges(
  bytes: Uint8Array,
  ranges: number,
  blockBytes: number,
  maxErrors: number,
  keepIssues: number | undefined,
  reversed: boolean,
) {
  const issues: Issue[] = [];
  const onIssue = (issue: Issue) => issues.push(structuredClone(issue));
  const order = reversed ? Array.from({ length: ranges }, (_, i) => ranges - 1 - i) : undefined;
  const result = validateCsvInRanges(SCHEMA, bytes, {
    maxErrors,
    onIssue,
    ranges,
    blockBytes,
    now: NOW,
    ...(keepIssues === undefined ? {} : { keepIssues }),
    // The ranges actually cut (a quoted cell longer than a range joins two).
    ...(order === undefined ? {} : { order: order.filter((i) => i < planned(bytes, ranges)) }),
    onAction: (a: RangeAction) => {
      if (a.kind === 'rerun') rangeActions.rerun++;
    },
  });
  if (result === null) return run(bytes, null, maxErrors);
  return JSON.stringify({ result, issues });
}

function planned(bytes: Uint8Array, ranges: number): number {
  let n = 0;
  validateCsvInRanges(SCHEMA, bytes, {
    ranges,
    blockBytes: 64,
    now: NOW,
    onAction: (a) => {
      if (a.kind === 'merged') n = Math.max(n, a.range + 1);
    },
  });
  return Math.max(n, 1);
}

describe('CSV validation in ranges (one validator per thread, decision 228)', () => {
  it('gives the whole file validator’s result and issues for every range count and block size', () => {
    fc.assert(
      fc.property(
        fileArb,
        fc.integer({ min: 1, max: 9 }),
        fc.constantFrom(1, 2, 7, 64, 4096),
        fc.constantFrom(1, 3, 1000),
        fc.constantFrom(undefined, 0, 2),
        fc.boolean(),
        (file, ranges, blockBytes, maxErrors, keepIssues, reversed) => {
          const bytes = encoder.encode(fileText(file));
          rangeActions.ranges++;
          expect(runInRanges(bytes, ranges, blockBytes, maxErrors, keepIssues, reversed)).toBe(
            run(bytes, null, maxErrors),
          );
        },
      ),
      { numRuns: 400 },
    );
    // Ranges were run again: values seen in an earlier range, or issues dropped past the bound.
    expect(rangeActions.rerun).toBeGreaterThan(50);
  });

  it('with tallyAfter, ranges count the issues past the first ones instead of sending them: the same result, the same counts in the same order', () => {
    let tallied = 0;
    fc.assert(
      fc.property(
        fileArb,
        fc.integer({ min: 2, max: 9 }),
        fc.constantFrom(7, 64, 4096),
        fc.constantFrom(1, 3, 1000),
        fc.nat(2),
        fc.constantFrom(undefined, 2),
        (file, ranges, blockBytes, maxErrors, extra, keepIssues) => {
          const bytes = encoder.encode(fileText(file));
          // What reaches onIssue one by one, and what is counted, as counts by key in the order
          // the keys first came: the whole file's issues, one by one, give the same.
          const counted = new Map<string, number>();
          const count = (field: string, code: string, warning: boolean, n: number) => {
            const key = `${warning ? 'w' : 'e'} ${code} ${field}`;
            counted.set(key, (counted.get(key) ?? 0) + n);
          };
          const result = validateCsvInRanges(SCHEMA, bytes, {
            maxErrors,
            ranges,
            blockBytes,
            now: NOW,
            tallyAfter: maxErrors + extra,
            ...(keepIssues === undefined ? {} : { keepIssues }),
            onIssue: (i) => count(i.field, i.code, i.severity === 'warning', 1),
            onTally: (entries) => {
              tallied++;
              for (const [field, code, warning, n] of entries) count(field, code, warning, n);
            },
          });
          const whole = new Map<string, number>();
          const expected = validateBytes(SCHEMA, bytes, {
            fileType: 'csv',
            maxErrors,
            now: NOW,
            onIssue: (i) => {
              const key = `${i.severity === 'warning' ? 'w' : 'e'} ${i.code} ${i.field}`;
              whole.set(key, (whole.get(key) ?? 0) + 1);
            },
          });
          if (result === null) return;
          expect(JSON.stringify(result)).toBe(JSON.stringify(expected));
          expect([...counted]).toEqual([...whole]);
        },
      ),
      { numRuns: 300 },
    );
    // Issues were counted, not only sent.
    expect(tallied).toBeGreaterThan(50);
  });

  it('a quoted cell spanning the cut, CRLF, a multibyte character and a BOM at every range boundary', () => {
    const rows = ['\uFEFFid,name,email,kind'];
    for (let i = 1; i <= 40; i++) {
      const name = i % 3 === 0 ? '"a,\r\n""b""\nc"' : i % 3 === 1 ? '日本𝄞' : 'Zoë';
      // id repeats (unique across ranges); email repeats only far apart.
      rows.push(`${(i % 17) + 1},${name},u${i % 23}@example.com,${i % 2 ? 'red' : 'blüe'}`);
    }
    const bytes = encoder.encode(`${rows.join('\r\n')}\r\n`);
    const expected = run(bytes, null, 1000);
    for (let ranges = 1; ranges <= 12; ranges++) {
      for (const blockBytes of [1, 3, 100, 1 << 20]) {
        expect(runInRanges(bytes, ranges, blockBytes, 1000, undefined, false)).toBe(expected);
        expect(runInRanges(bytes, ranges, blockBytes, 5, 1, true)).toBe(run(bytes, null, 5));
      }
    }
    expect(JSON.parse(expected).result.errorsByCode.unique).toBeGreaterThan(10);
  });

  it('a stray quote that misleads the scan: the range before reads on to the end of the file', () => {
    const text = `id,name\n${Array.from({ length: 30 }, (_, i) => `${i + 1},${i === 5 ? 'x"y' : 'ab'}`).join('\n')}\n`;
    const bytes = encoder.encode(text);
    for (let ranges = 2; ranges <= 6; ranges++) {
      expect(runInRanges(bytes, ranges, 7, 1000, undefined, false)).toBe(run(bytes, null, 1000));
    }
  });
});
