import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStreamDecoder } from './decoder.ts';
import type { TextEncodingName } from './decoder.ts';

interface Decoded {
  text: string;
  errors: { index: number; byteOffset: number; bytes: string }[];
}

/** Decodes `bytes` pushed in pieces ending at `cuts`; error indexes are made file-wide. */
function decodeAll(
  encoding: TextEncodingName,
  bytes: Uint8Array,
  cuts: number[] = [],
  byteOffset = 0,
): Decoded {
  const errors: Decoded['errors'] = [];
  let text = '';
  const decoder = createStreamDecoder(encoding, byteOffset, (index, offset, hex) =>
    errors.push({ index: text.length + index, byteOffset: offset, bytes: hex }),
  );
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    text += decoder.decode(bytes.subarray(at, cut), cut === bytes.length);
    at = cut;
  }
  return { text, errors };
}

const cutsOf = (length: number) =>
  fc
    .array(fc.integer({ min: 0, max: length }), { maxLength: 12 })
    .map((cuts) => [...new Set(cuts)].sort((a, b) => a - b));

// Bytes biased towards multi-byte characters, their fragments and the edges of the valid ranges.
const utf8Bytes = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        [0x41],
        [0xc3, 0xa9],
        [0xe2, 0x82, 0xac],
        [0xf0, 0x9f, 0x98, 0x80],
        [0xef, 0xbb, 0xbf],
        [0xe0, 0x80, 0x80],
        [0xe0, 0xa0, 0x80],
        [0xed, 0xa0, 0x80],
        [0xed, 0x9f, 0xbf],
        [0xf4, 0x90, 0x80, 0x80],
        [0xf4, 0x8f, 0xbf, 0xbf],
        [0xc0, 0xaf],
        [0xf8],
      ),
      fc.integer({ min: 0x80, max: 0xff }).map((b) => [b]),
    ),
    { maxLength: 30 },
  )
  .map((parts) => Uint8Array.from(parts.flat()));

describe('UTF-8', () => {
  it('gives exactly what a standard decoder gives, with one error per U+FFFD it inserted', () => {
    fc.assert(
      fc.property(utf8Bytes, (bytes) => {
        const { text, errors } = decodeAll('utf-8', bytes);
        expect(text).toBe(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes));
        for (const error of errors) expect(text[error.index]).toBe('\uFFFD');
        // EF BF BD is a well-formed U+FFFD wherever it stands (EF always starts a character).
        let written = 0;
        for (let i = 0; i + 2 < bytes.length; i++) {
          if (bytes[i] === 0xef && bytes[i + 1] === 0xbf && bytes[i + 2] === 0xbd) written++;
        }
        expect(errors.length).toBe(text.split('\uFFFD').length - 1 - written);
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same text and errors wherever the chunks are cut', () => {
    fc.assert(
      fc.property(
        utf8Bytes.chain((bytes) => fc.tuple(fc.constant(bytes), cutsOf(bytes.length))),
        ([bytes, cuts]) => {
          expect(decodeAll('utf-8', bytes, cuts)).toEqual(decodeAll('utf-8', bytes));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('names each bad sequence by its file offset and bytes', () => {
    const bytes = Uint8Array.from([0x61, 0xe9, 0x62, 0xe2, 0x82, 0x63, 0xf0, 0x9f]);
    expect(decodeAll('utf-8', bytes, [], 3)).toEqual({
      text: 'a\uFFFDb\uFFFDc\uFFFD',
      errors: [
        { index: 1, byteOffset: 4, bytes: 'E9' },
        { index: 3, byteOffset: 6, bytes: 'E2 82' },
        { index: 5, byteOffset: 9, bytes: 'F0 9F' },
      ],
    });
  });

  it('keeps a BOM-like character in the middle of the file', () => {
    const bytes = Uint8Array.from([0x61, 0xef, 0xbb, 0xbf, 0x62]);
    expect(decodeAll('utf-8', bytes, [1]).text).toBe('a\uFEFFb');
  });
});

function utf16(units: number[], littleEndian: boolean): Uint8Array {
  const bytes = new Uint8Array(units.length * 2);
  const view = new DataView(bytes.buffer);
  units.forEach((unit, i) => view.setUint16(i * 2, unit, littleEndian));
  return bytes;
}

const units = fc.array(
  fc.oneof(
    fc.constantFrom(0x41, 0x2c, 0x0a, 0xe9, 0x20ac, 0xfeff, 0xd83d, 0xde00, 0xdbff, 0xdc00),
    fc.integer({ min: 0, max: 0xffff }),
  ),
  { maxLength: 30 },
);

describe('UTF-16', () => {
  for (const littleEndian of [true, false]) {
    const encoding = littleEndian ? 'utf-16le' : 'utf-16be';
    it(`${encoding}: gives what a standard decoder gives, wherever the chunks are cut`, () => {
      fc.assert(
        fc.property(
          units.chain((u) =>
            fc.tuple(fc.constant(utf16(u, littleEndian)), cutsOf(u.length * 2), fc.boolean()),
          ),
          ([whole, cuts, odd]) => {
            // An odd trailing byte cannot be a character.
            const bytes = odd ? Uint8Array.from([...whole, 0x41]) : whole;
            const decoded = decodeAll(encoding, bytes, cuts);
            expect(decoded.text).toBe(new TextDecoder(encoding, { ignoreBOM: true }).decode(bytes));
            expect(decoded).toEqual(decodeAll(encoding, bytes));
            for (const error of decoded.errors) expect(decoded.text[error.index]).toBe('\uFFFD');
            const view = new DataView(whole.buffer);
            let written = 0;
            for (let i = 0; i < whole.length; i += 2)
              if (view.getUint16(i, littleEndian) === 0xfffd) written++;
            expect(decoded.errors.length).toBe(decoded.text.split('\uFFFD').length - 1 - written);
          },
        ),
        { numRuns: 300 },
      );
    });
  }

  it('reports a lone surrogate with its offset', () => {
    const bytes = utf16([0x41, 0xd800, 0x42], true);
    expect(decodeAll('utf-16le', bytes, [], 2)).toEqual({
      text: 'A\uFFFDB',
      errors: [{ index: 1, byteOffset: 4, bytes: '00 D8' }],
    });
  });
});

describe('Windows-1252', () => {
  it('decodes 0x80-0x9F to the characters Windows shows, not to control characters', () => {
    const bytes = Uint8Array.from([0x80, 0x8a, 0x92, 0x9f, 0x81, 0x9d, 0xe9, 0xff, 0x41]);
    expect(decodeAll('windows-1252', bytes, [3]).text).toBe('€Š’Ÿ\u0081\u009déÿA');
  });

  it('decodes 0xA0-0xFF as the same code points', () => {
    const bytes = Uint8Array.from({ length: 96 }, (_, i) => 0xa0 + i);
    expect(decodeAll('windows-1252', bytes).text).toBe(String.fromCharCode(...bytes));
  });
});
