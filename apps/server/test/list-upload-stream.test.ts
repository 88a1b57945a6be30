import { readListValues } from '@schemacheck/engine';
import { describe, expect, it } from 'vitest';
import { valueStream } from '../src/lists/stream-values.ts';

// The upload counts a list's values as its file arrives (lists/stream-values.ts) and refuses it
// once they pass the plan's limit, so the count must never see a value the engine's reading of
// the whole file (what is stored) lacks. Generated files, full of quotes, commas, CR, LF and
// byte-order marks, cut into pieces at random bytes (inside a character too), read both ways.

/** A small seeded generator, so that a failure can be replayed. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['a', 'b', 'é', '"', '""', ',', '\n', '\r', '\r\n', ' ', '\uFEFF', 'x1', '😀'];

/** What the server hands the engine: the file decoded as UTF-8 (its first BOM dropped). */
function engineValues(bytes: Uint8Array, csv: boolean, column: string | undefined) {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  const read = readListValues(text, { csv, ...(column !== undefined ? { column } : {}) });
  // As stored: the upload keeps each value once (createList).
  return read.ok ? [...new Set(read.values)] : null;
}

function streamValues(
  bytes: Uint8Array,
  csv: boolean,
  column: string | undefined,
  cuts: number[],
): string[] {
  const seen = new Set<string>();
  const stream = valueStream({ csv, column }, (v) => seen.add(v));
  const decoder = new TextDecoder('utf-8');
  let from = 0;
  for (const at of [...cuts, bytes.length]) {
    stream.push(decoder.decode(bytes.subarray(from, at), { stream: true }));
    from = at;
  }
  stream.push(decoder.decode());
  stream.end();
  return [...seen];
}

describe('list values counted as the file arrives', () => {
  it('are the values the engine reads from the whole file, wherever the file is cut', () => {
    const random = prng(22);
    for (let round = 0; round < 3000; round++) {
      const length = Math.floor(random() * 40);
      let text = round % 7 === 0 ? '\uFEFF' : '';
      for (let i = 0; i < length; i++) text += PIECES[Math.floor(random() * PIECES.length)];
      const bytes = new TextEncoder().encode(text);
      const cuts = Array.from({ length: Math.floor(random() * 4) }, () =>
        Math.floor(random() * (bytes.length + 1)),
      ).sort((a, b) => a - b);
      for (const [csv, column] of [
        [false, undefined],
        [true, undefined],
        [true, '2'],
        [true, 'a'],
      ] as const) {
        const expected = engineValues(bytes, csv, column);
        const got = streamValues(bytes, csv, column, cuts);
        const where = `${JSON.stringify(text)} csv=${csv} column=${column} cuts=${cuts}`;
        if (expected === null) {
          // A file the engine refuses (an unclosed quote, no such column) is never stored.
          continue;
        }
        expect(got, where).toEqual(expected);
      }
    }
  });
});
