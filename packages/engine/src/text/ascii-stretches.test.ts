import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forEachAsciiStretch } from './ascii-stretches.ts';

function stretches(bytes: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  forEachAsciiStretch(bytes, (start, end) => out.push([start, end]));
  return out;
}

const LF = 0x0a;

describe('forEachAsciiStretch', () => {
  it('keeps plain ASCII lines together and gives each other line its own stretch', () => {
    const text = 'id,name\n1,Ann\n2,Zoë\n3,Bob\n4,Cy\n5,😀\n6,Dee';
    const bytes = new TextEncoder().encode(text);
    const decoded = stretches(bytes).map(([s, e]) =>
      new TextDecoder().decode(bytes.subarray(s, e)),
    );
    expect(decoded).toEqual(['id,name\n1,Ann\n', '2,Zoë\n', '3,Bob\n4,Cy\n', '5,😀\n', '6,Dee']);
  });

  it('covers every byte in order, cutting only after line feeds, at any alignment', () => {
    const byte = fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
      { weight: 2, arbitrary: fc.constant(LF) },
      { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 80 }), fc.nat({ max: 7 }), (values, shift) => {
        // A view that starts at any offset of its buffer, as Buffer pools and subarray give.
        const backing = new Uint8Array(values.length + shift);
        backing.set(values, shift);
        const bytes = backing.subarray(shift);
        const found = stretches(bytes);
        let at = 0;
        for (const [start, end] of found) {
          expect(start).toBe(at);
          expect(end).toBeGreaterThan(start);
          const piece = [...bytes.subarray(start, end)];
          const ascii = piece.every((b) => b < 0x80);
          if (!ascii) {
            // One line: no line feed but maybe its last byte.
            expect(piece.slice(0, -1).includes(LF)).toBe(false);
          }
          if (end < bytes.length) expect(bytes[end - 1]).toBe(LF);
          at = end;
        }
        expect(at).toBe(bytes.length);
      }),
      { numRuns: 2000 },
    );
  });
});
