import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCsvEvents } from './read-events.ts';
import type { CsvEvent } from './read-events.ts';

const DELIMITERS = [',', ';', '\t', '|'];
// The smallest detection sample, so that the pieces of these small inputs reach the parser as
// they were pushed (with the default 64 KiB, a small file arrives in one piece).
const SAMPLE = 32;

const cellText = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      ',',
      ';',
      '\t',
      '|',
      '"',
      '\r',
      '\n',
      ' ',
      'a',
      'é',
      '€',
      '😀',
      '\u0000',
      '\uFEFF',
      '\u2028',
    ),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 12,
});
const cell = fc.record({ text: cellText, quote: fc.boolean() });
const row = fc.record({
  cells: fc.array(cell, { minLength: 1, maxLength: 5 }),
  end: fc.constantFrom('\n', '\r\n', '\r'),
});
const csvFile = fc.record({
  rows: fc.array(row, { minLength: 1, maxLength: 8 }),
  delimiter: fc.constantFrom(...DELIMITERS),
  quoting: fc.constantFrom('minimal', 'all', 'random'),
  finalBreak: fc.boolean(),
});
type CsvFile = typeof csvFile extends fc.Arbitrary<infer T> ? T : never;

function mustQuote(
  text: string,
  delimiter: string,
  firstCell: boolean,
  onlyCell: boolean,
): boolean {
  return (
    text.includes(delimiter) ||
    text.includes('\r') ||
    text.includes('\n') ||
    text.startsWith('"') ||
    // An unquoted lone empty cell is an empty line, which is no record.
    (onlyCell && text === '') ||
    // These would read as a byte order mark or an Excel `sep=` line.
    (firstCell && (text.startsWith('\uFEFF') || text.toLowerCase().startsWith('sep=')))
  );
}

function writeCsv(file: CsvFile): string {
  let out = '';
  file.rows.forEach((r, i) => {
    out += r.cells
      .map((c, j) => {
        const quote =
          file.quoting === 'all' ||
          (file.quoting === 'random' && c.quote) ||
          mustQuote(c.text, file.delimiter, i === 0 && j === 0, r.cells.length === 1);
        return quote ? `"${c.text.replaceAll('"', '""')}"` : c.text;
      })
      .join(file.delimiter);
    if (i < file.rows.length - 1 || file.finalBreak) out += r.end;
  });
  return out;
}

function expectedEvents(file: CsvFile): CsvEvent[] {
  return file.rows.map((r, i) => {
    const cells = r.cells.map((c) => c.text);
    return i === 0 ? { kind: 'header', cells } : { kind: 'record', row: i + 1, cells };
  });
}

describe('written tables read back equal', () => {
  it('for any cells, quoting, delimiter and line endings', () => {
    fc.assert(
      fc.property(csvFile, fc.array(fc.nat(), { maxLength: 8 }), (file, offsets) => {
        const bytes = new TextEncoder().encode(writeCsv(file));
        const options = { delimiter: file.delimiter };
        expect(readCsvEvents(bytes, options)).toEqual(expectedEvents(file));
        const cuts = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((x, y) => x - y);
        expect(readCsvEvents(bytes, options, cuts, SAMPLE)).toEqual(expectedEvents(file));
      }),
      { numRuns: 500 },
    );
  });
});

// Byte pieces that stress the reader: delimiters, quotes, line breaks, BOMs, `sep=`, multi-byte
// characters, their fragments and bytes that are not UTF-8.
const PIECES: number[][] = [
  ...['a', 'b', 'xyz', ',', ';', '\t', '"', '""', '\r', '\n', '\r\n', ' ', 'sep=', 'sep=;\n'].map(
    (s) => [...new TextEncoder().encode(s)],
  ),
  [0xef, 0xbb, 0xbf],
  [0xff, 0xfe],
  [0xc3, 0xa9],
  [0xe2, 0x82, 0xac],
  [0xf0, 0x9f, 0x98, 0x80],
  [0xe9],
  [0x80],
  [0xc3],
  [0xf0, 0x9f],
  [0xed, 0xa0, 0x80],
  [0x00],
];
// Most inputs must outgrow the 32-byte detection sample used below, or no split reaches the parser.
const bytesArb = fc
  .array(fc.constantFrom(...PIECES), { minLength: 10, maxLength: 80, size: 'max' })
  .map((pieces) => Uint8Array.from(pieces.flat()));
const optionsArb = fc.record(
  {
    delimiter: fc.constantFrom(...DELIMITERS),
    maxFieldBytes: fc.constantFrom(3, 8, 20),
  },
  { requiredKeys: [] },
);

describe('chunk boundaries never change the result', () => {
  it('split once at every offset', () => {
    fc.assert(
      fc.property(bytesArb, optionsArb, (bytes, options) => {
        const whole = readCsvEvents(bytes, options, [], SAMPLE);
        for (let cut = 0; cut <= bytes.length; cut++) {
          expect(readCsvEvents(bytes, options, [cut], SAMPLE)).toEqual(whole);
        }
      }),
      { numRuns: 120 },
    );
  });

  it('split at many random offsets, down to single bytes', () => {
    fc.assert(
      fc.property(
        bytesArb,
        optionsArb,
        fc.array(fc.nat(), { maxLength: 30 }),
        (bytes, options, offsets) => {
          const whole = readCsvEvents(bytes, options, [], SAMPLE);
          const cuts = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort(
            (x, y) => x - y,
          );
          expect(readCsvEvents(bytes, options, cuts, SAMPLE)).toEqual(whole);
          const everyByte = Array.from({ length: bytes.length }, (_, i) => i);
          expect(readCsvEvents(bytes, options, everyByte, SAMPLE)).toEqual(whole);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('on files past the 64 KiB detection window', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PIECES), { minLength: 50, maxLength: 50 }),
        fc.array(fc.integer({ min: 1, max: 200_000 }), { minLength: 1, maxLength: 25 }),
        (pieces, offsets) => {
          // Mostly well-formed rows so that detection has something to find, with the pieces
          // sprinkled in.
          const parts: number[] = [];
          const line = [...new TextEncoder().encode('id;naïve "x";"q;""r""\n\r"\r\n')];
          for (let i = 0; parts.length < 150_000; i++)
            parts.push(...line, ...pieces[i % pieces.length]!);
          const bytes = Uint8Array.from(parts);
          const cuts = [
            ...new Set(offsets.filter((o) => o < bytes.length).concat(65_535, 65_536, 65_537)),
          ].sort((x, y) => x - y);
          const options = { maxFieldBytes: 4096 };
          expect(readCsvEvents(bytes, options, cuts)).toEqual(readCsvEvents(bytes, options));
        },
      ),
      { numRuns: 8 },
    );
  });
});

describe('large pushes are read a slice at a time', () => {
  // push() parses at most 64 KiB at a time and cuts the text after line feeds; a file pushed
  // whole must read exactly as the same file pushed in small pieces, whatever its line endings.
  const encoder = new TextEncoder();
  const file = (end: string) => {
    const rows = ['id,name,note'];
    for (let i = 0; rows.length < 9000; i++) {
      const name =
        i % 7 === 0 ? `"naïve ${i}, 😀"` : i % 11 === 0 ? `"two${end}lines ${i}"` : `n${i}`;
      rows.push(`${i},${name},${'x'.repeat(i % 40)}${i % 13 === 0 ? '€' : ''}`);
    }
    return encoder.encode(rows.join(end) + end);
  };
  for (const [label, end] of [
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ] as const) {
    it(`with ${label} line endings`, () => {
      const bytes = file(end);
      expect(bytes.length).toBeGreaterThan(4 * 65_536);
      const cuts = Array.from({ length: Math.floor(bytes.length / 997) }, (_, i) => (i + 1) * 997);
      const whole = readCsvEvents(bytes);
      expect(whole.filter((e) => e.kind === 'record')).toHaveLength(8999);
      expect(readCsvEvents(bytes, {}, cuts)).toEqual(whole);
      expect(readCsvEvents(bytes, {}, [65_535, 65_536, 131_073])).toEqual(whole);
    });
  }
});
