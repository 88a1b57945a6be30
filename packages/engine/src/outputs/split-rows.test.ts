import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSchema } from '../schema/index.ts';
import { createValidator } from '../validate/validator.ts';
import { createCsvReader } from '../csv/reader.ts';
import { createRowSplitter } from './split-rows.ts';
import type { FileType, SchemaModel } from '../model.ts';

const utf8 = new TextDecoder();

function webSchema(fields: object[]): SchemaModel {
  const parsed = parseSchema({ name: 's', fields }, 'web');
  if (!parsed.ok) throw new Error('bad schema');
  return parsed.value;
}

const schema = webSchema([
  { name: 'id', type: 'integer', required: true, validation: { unique: true } },
  { name: 'email', type: 'email', required: true },
]);

/** Validates `text` pushed in pieces cut at `cuts`, splitting its rows on the way. */
function split(text: string | Uint8Array, fileType: FileType, cuts: number[] = [], model = schema) {
  const out = { valid: '', invalid: '' };
  const splitter = createRowSplitter(
    {
      valid: (bytes) => (out.valid += utf8.decode(bytes)),
      invalid: (bytes) => (out.invalid += utf8.decode(bytes)),
    },
    { fileType },
  );
  const validator = createValidator(model, { fileType, onIssue: (i) => splitter.issue(i) });
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    const piece = bytes.subarray(at, cut);
    validator.push(piece);
    splitter.push(piece);
    at = cut;
  }
  validator.end();
  splitter.end();
  return { ...out, counts: splitter.counts };
}

/**
 * The valid output as cutting every row into cells and joining them again gives it (how the
 * outputs were written before rows could pass as they lie): the oracle for the byte path.
 */
function validByCells(text: string, model = schema): string {
  const bad = new Set<number>();
  const validator = createValidator(model, { fileType: 'csv', onIssue: (i) => bad.add(i.row) });
  const bytes = new TextEncoder().encode(text);
  validator.push(bytes);
  validator.end();
  let delimiter = ',';
  const field = (v: string) =>
    v.includes(delimiter) || /["\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
  let out = '';
  const reader = createCsvReader(
    {
      header(cells) {
        delimiter = reader.delimiter ?? ',';
        out += `${cells.map(field).join(delimiter)}\r\n`;
      },
      record(cells, row) {
        if (!bad.has(row)) out += `${cells.map(field).join(delimiter)}\r\n`;
      },
      issue() {},
      warning() {},
    },
    {},
  );
  reader.push(bytes);
  reader.end();
  return out;
}

/**
 * Files of `header` and then up to eight generated rows, each with a line ending (LF, CRLF, a lone
 * CR, or a blank line after it): the valid output must be the oracle's, whole and pushed a byte
 * at a time. The same rows after `filler` rows past the reader's 64 KiB sample, whole and cut at
 * a random byte, reach the byte path (valid-bytes.ts), which is offered whole lines after it.
 */
function expectValidAsCut(
  header: string,
  row: fc.Arbitrary<string>,
  model: SchemaModel,
  runs: number,
  filler: (k: number) => string,
) {
  const ending = fc.constantFrom('\n', '\r\n', '\r', '\n\n');
  const rows = fc
    .array(fc.tuple(row, ending), { maxLength: 8 })
    .map((list) => list.map(([r, e]) => r + e).join(''));
  let padding = '';
  for (let k = 0; padding.length < 70_000; k++) padding += `${filler(k)}\n`;
  fc.assert(
    fc.property(rows, fc.nat(), (generated, at) => {
      const text = `${header}\n${generated}`;
      const bytes = new TextEncoder().encode(text).length;
      const cuts = Array.from({ length: bytes }, (_, i) => i + 1);
      const expected = validByCells(text, model);
      expect(split(text, 'csv', [], model).valid).toBe(expected);
      expect(split(text, 'csv', cuts, model).valid).toBe(expected);

      const long = `${header}\n${padding}${generated}`;
      const longBytes = new TextEncoder().encode(long).length;
      const expectedLong = validByCells(long, model);
      expect(split(long, 'csv', [], model).valid).toBe(expectedLong);
      expect(split(long, 'csv', [longBytes - (at % 200)], model).valid).toBe(expectedLong);
    }),
    { numRuns: runs },
  );
}

const CSV =
  'id;email\n1;a@example.com\n1;b@example.com\nx;"c;d@example.com"\n4;"broken\n5;e@example.com\n';

describe('the good rows back', () => {
  it('CSV: rows as they were in the file delimiter, bad rows with an errors column', () => {
    const result = split(CSV, 'csv');
    // The unterminated quote is one parse error on its row; reading resumes on the next line.
    expect(result.valid).toBe('id;email\r\n1;a@example.com\r\n5;e@example.com\r\n');
    expect(result.invalid.split('\r\n')).toEqual([
      'id;email;errors',
      // Quoted where the file's delimiter appears, in data and in the errors column alike.
      '1;b@example.com;"id: Duplicate value; first seen in row 2"',
      'x;"c;d@example.com";"id: Must be a whole number; email: Must be a valid email"',
      // A row that could not be cut into cells: the text the reader reports, and why.
      '"""broken";;Column 2 opens a quote that is never closed',
      '',
    ]);
    expect(result.counts).toEqual({ valid: 2, invalid: 3 });
  });

  it('gives the same outputs wherever the bytes are cut', () => {
    const whole = split(CSV, 'csv');
    for (let i = 0; i <= CSV.length; i++) expect(split(CSV, 'csv', [i])).toEqual(whole);
  });

  it('writes a clean row as it lies only where cutting and joining its cells gives the same', () => {
    // Most valid rows pass as they lie: as bytes (valid-bytes.ts) or, where the reader reads
    // them as text, as text (validAsWritten). Either way the bytes must be those of cutting each
    // row into cells and joining them again, for quotes, line endings, blank lines and bad rows.
    const id = fc.constantFrom('7', '12', '"9"', '" 3 "', 'x', '', '"q"', '"', 'na"me', '5\r6');
    const email = fc.constantFrom(
      'a@example.com',
      '"b@example.com"',
      'c@example.com',
      'bad@',
      '',
      '"a;b"',
      '"two\nlines"',
      '"say ""hi"""',
      'é😀@example.com',
    );
    // Mostly the header's two cells, so that many rows are valid; now and then one or three.
    const row = fc
      .tuple(id, email, fc.nat(9))
      .map(([i, e, n]) => (n === 0 ? i : n === 1 ? `${i};${e};${e}` : `${i};${e}`));
    expectValidAsCut('id;email', row, schema, 300, (k) => `${1000 + k};f${k}@example.com`);
  });

  it('writes a clean row with quoted cells as it lies only where they are quoted as they would be', () => {
    // A text column: quoted cells that need their quotes (a delimiter, a doubled quote, a line
    // feed) pass as they lie; quotes that are not needed, a carriage return, or text after a
    // closing quote send the row the normal way.
    const texts = webSchema([
      { name: 'id', type: 'integer', required: true },
      { name: 'note', type: 'string' },
    ]);
    const id = fc.constantFrom('7', '12', '"9"', '"3;4"', 'x', '');
    const note = fc.constantFrom(
      'plain',
      '',
      '"a;b"',
      '"two\nlines"',
      '"say ""hi"""',
      '""""',
      '"plain"',
      '""',
      '"a;b"c',
      '"a;b" ',
      '"cr\r\nlf;"',
      'é😀',
      '"é;😀"',
      'na"me',
    );
    const row = fc
      .tuple(id, note, fc.nat(9))
      .map(([i, n, k]) => (k === 0 ? `${n};${i}` : k === 1 ? `${i};${n};${n}` : `${i};${n}`));
    expectValidAsCut('id;note', row, texts, 400, (k) => `${k};note ${k}`);
  });

  it('copies rows of multibyte text as they lie, and keeps bad bytes on their own rows', () => {
    // Past the reader's 64 KiB sample, whole lines reach the byte path, which counts each row's
    // UTF-16 units for the reader: a miscount would put a later bad byte on another row.
    const texts = webSchema([
      { name: 'id', type: 'integer', required: true },
      { name: 'note', type: 'string' },
    ]);
    const parts: (string | number[])[] = ['id,note\n'];
    const odd = [[0xff], [0xc0, 0xaf], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]];
    for (let k = 0; k < 3000; k++) {
      parts.push(`${k},"é € 😀, ${k}"\r\n`);
      if (k % 600 === 599) parts.push(`${k},x`, odd[(k / 600) | 0] as number[], '\n');
    }
    const bytes = Uint8Array.from(
      parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)),
    );
    const whole = split(bytes, 'csv', [], texts);
    // A byte at a time, no line reaches the byte path whole: the text path's outputs.
    const byByte = split(
      bytes,
      'csv',
      Array.from({ length: bytes.length }, (_, i) => i + 1),
      texts,
    );
    expect(whole).toEqual(byByte);
    expect(whole.counts).toEqual({ valid: 3000, invalid: 5 });
    expect(whole.invalid.match(/Invalid UTF-8 at byte \d+/g)).toHaveLength(5);
    expect(whole.valid).toContain('2999,"é € 😀, 2999"\r\n');
  });

  it('JSON: records in the input form, array or NDJSON, big numbers kept', () => {
    const array = split(
      '[{"id":1,"email":"a@example.com"},{"id":"2","email":"b@example.com"},{"id":12345678901234567890,"email":"c@example.com"}]',
      'json',
    );
    expect(JSON.parse(array.valid)).toEqual([
      { id: 1, email: 'a@example.com' },
      { id: 12345678901234567000, email: 'c@example.com' },
    ]);
    expect(array.valid).toContain('12345678901234567890');
    expect(JSON.parse(array.invalid)).toEqual([{ id: '2', email: 'b@example.com' }]);
    const lines = split('{"id":1,"email":"a@example.com"}\n{"id":2,"email":"nope"}\n', 'json');
    expect(lines.valid).toBe('{"id":1,"email":"a@example.com"}\n');
    expect(lines.invalid).toBe('{"id":2,"email":"nope"}\n');
    const empty = split('[]', 'json');
    expect([empty.valid, empty.invalid]).toEqual(['[]\n', '[]\n']);
  });

  it('JSON: each record written compact, with the keys, escapes and numbers of its values', () => {
    // One optional field with a name longer than fc.string's keys (at most 10 characters): every
    // record is valid, so the valid output holds them all.
    const anyRecord = webSchema([{ name: 'not-in-any-record', type: 'string', required: false }]);
    const BIG = '123456789012345678901234567890';
    const record = fc.dictionary(
      fc.string(),
      fc.oneof(
        { weight: 20, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
        // Short numbers: the doubles fc.jsonValue draws mostly have 17 digits.
        { weight: 5, arbitrary: fc.integer({ min: -99999, max: 99999 }) },
        { weight: 5, arbitrary: fc.integer({ min: -99999, max: 99999 }).map((n) => n / 100) },
        // Zero, which JSON may write -0; numbers below 1e-6, which JavaScript writes 1e-7.
        { weight: 2, arbitrary: fc.constantFrom(0, 1e-7, -1.25e-7, 0.000001) },
        // Slashes, which JSON may escape as \/.
        { weight: 3, arbitrary: fc.constantFrom('a/b', 'https://example.org/p?q=1', '/') },
        { weight: 1, arbitrary: fc.constant('<big>') },
        { weight: 1, arbitrary: fc.array(fc.constant('<big>')) },
      ),
    );
    fc.assert(
      fc.property(
        // An empty file is written as an empty array whatever it was meant to be.
        fc.array(record, { minLength: 1, maxLength: 20 }),
        fc.integer(),
        fc.constantFrom('array', 'ndjson'),
        (records, seed, shape) => {
          // Each record written with the same values in other ways where `seed` says
          // (writeJson), `<big>` standing for a number longer than a double holds, which the
          // output keeps digit for digit.
          const random = seeded(seed);
          const texts = records.map((r) => writeJson(r, random, BIG, shape === 'array'));
          const input = shape === 'array' ? `[${texts.join(',')}]` : texts.join('\n');
          const out = split(input, 'json', [], anyRecord);
          const expected = records.map((r) => JSON.stringify(r).replaceAll('"<big>"', BIG));
          expect(out.valid).toBe(
            shape === 'ndjson'
              ? expected.map((e) => `${e}\n`).join('')
              : `[\n${expected.join(',\n')}\n]\n`,
          );
        },
      ),
      { numRuns: 400, seed: 42 },
    );
  });
});

/** A random number generator in [0, 1) from `seed`. */
function seeded(seed: number): () => number {
  let x = seed | 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/**
 * `value` as JSON text with the same value, written otherwise than JSON.stringify writes it where
 * `random` says: blanks between tokens (line feeds only with `lines`), `\/` and `\u` escapes,
 * numbers with trailing zeros, with an exponent, without one, or `-0`, and a key given twice
 * (JSON.parse keeps the second value, at the first key's place). The string "<big>" is written
 * as the number `big`.
 */
function writeJson(value: unknown, random: () => number, big: string, lines: boolean): string {
  const blanks = lines ? ' \n\t' : ' \t ';
  const blank = () => (random() < 0.2 ? blanks.slice(0, 1 + Math.floor(random() * 3)) : '');
  const text = (s: string) => {
    let out = '"';
    for (let i = 0; i < s.length; i++) {
      const ch = s[i] as string;
      if (ch === '/' && random() < 0.5) out += '\\/';
      else if (random() < 0.01) out += `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`;
      else out += JSON.stringify(ch).slice(1, -1);
    }
    return `${out}"`;
  };
  const list = (items: string[]) => items.join(`${blank()},${blank()}`);
  const write = (v: unknown): string => {
    if (v === '<big>') return big;
    if (typeof v === 'string') return text(v);
    if (typeof v === 'number') {
      const r = random();
      const plain = JSON.stringify(v);
      if (/e-/.test(plain) && r < 0.5) {
        const positional = v.toFixed(20).replace(/0+$/, '');
        return Number(positional) === v ? positional : plain;
      }
      if (/e/i.test(plain)) return plain;
      if (r < 0.1) return `${plain}e0`;
      if (r < 0.2) return plain.includes('.') ? `${plain}0` : `${plain}.0`;
      if (r < 0.3 && v === 0) return '-0';
      return plain;
    }
    if (Array.isArray(v)) return `[${blank()}${list(v.map(write))}${blank()}]`;
    if (v !== null && typeof v === 'object') {
      const members = Object.entries(v).flatMap(([k, x]) => {
        const member = `${text(k)}${blank()}:${blank()}${write(x)}`;
        return random() < 0.05 ? [`${text(k)}:"dropped"`, member] : [member];
      });
      return `{${blank()}${list(members)}${blank()}}`;
    }
    return JSON.stringify(v);
  };
  return write(value);
}
