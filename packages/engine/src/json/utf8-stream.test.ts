import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findInvalidUtf8 } from '../text/utf8.ts';
import { createUtf8Stream } from './utf8-stream.ts';

// Bytes that are mostly UTF-8-like, so valid and invalid sequences both come up often.
const byte = fc.oneof(
  fc.integer({ min: 0x20, max: 0x7e }),
  fc.constantFrom(
    0x0a,
    0x80,
    0x8f,
    0x90,
    0x9f,
    0xa0,
    0xbf,
    0xc0,
    0xc1,
    0xc2,
    0xdf,
    0xe0,
    0xed,
    0xef,
    0xf0,
    0xf4,
    0xf5,
    0xff,
  ),
  fc.integer({ min: 0x80, max: 0xbf }),
);
const bytes = fc.array(byte, { maxLength: 40 }).map((list) => new Uint8Array(list));
const fatal = (b: Uint8Array): string | undefined => {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(b);
  } catch {
    return undefined;
  }
};

interface Decoded {
  text: string;
  errors: number[];
}

function decode(input: Uint8Array, cuts: number[], resume: boolean): Decoded {
  const out: Decoded = { text: '', errors: [] };
  const stream = createUtf8Stream({
    text: (piece) => {
      out.text += piece;
    },
    invalidUtf8: (offset) => {
      out.errors.push(offset);
      return resume;
    },
  });
  let from = 0;
  for (const cut of cuts) {
    stream.push(input.subarray(from, cut));
    from = cut;
  }
  stream.push(input.subarray(from));
  stream.end();
  return out;
}

const cutsIn = (length: number, picks: number[]) =>
  [...new Set(picks.map((p) => p % (length + 1)))].sort((a, b) => a - b);

describe('findInvalidUtf8', () => {
  it('agrees with the fatal TextDecoder, and everything before the offset is valid', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        const bad = findInvalidUtf8(b, 0, b.length, true);
        expect(bad === -1).toBe(fatal(b) !== undefined);
        if (bad >= 0) {
          // Everything before it decodes; no longer prefix that takes in the byte at `bad` does.
          expect(fatal(b.subarray(0, bad))).toBeDefined();
          for (let end = bad + 1; end <= b.length; end++)
            expect(fatal(b.subarray(0, end))).toBeUndefined();
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('createUtf8Stream', () => {
  it('decodes like TextDecoder and finds the first bad byte, however the bytes are cut', () => {
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(), { maxLength: 6 }), (b, picks) => {
        const result = decode(b, cutsIn(b.length, picks), false);
        const bad = findInvalidUtf8(b, 0, b.length, true);
        if (bad === -1) {
          expect(result).toEqual({ text: fatal(b), errors: [] });
        } else {
          expect(result).toEqual({ text: fatal(b.subarray(0, bad)), errors: [bad] });
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('goes on after the next line feed when asked, the same for any cuts', () => {
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(), { maxLength: 6 }), (b, picks) => {
        const whole = decode(b, [], true);
        expect(decode(b, cutsIn(b.length, picks), true)).toEqual(whole);
        // Each error is followed by skipping to a line feed: the text never holds U+FFFD.
        expect(whole.text.includes('\uFFFD')).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('reports a sequence cut off by the end at its first byte', () => {
    expect(decode(new Uint8Array([0x61, 0xf0, 0x9f, 0x98]), [2, 3], false)).toEqual({
      text: 'a',
      errors: [1],
    });
  });
});
