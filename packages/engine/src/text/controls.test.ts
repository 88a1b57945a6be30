import { describe, expect, it } from 'vitest';
import { hasOtherControls } from './controls.ts';

// The regular expression the JSON fast path used on decoded text: the oracle.
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const OTHER_CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f]/;

describe('hasOtherControls', () => {
  it('finds every control character but tab, line feed and carriage return, at every offset', () => {
    const base = new TextEncoder().encode(`{"name":"Zoë 😀","note":"a\tb"}\r\n`.repeat(6));
    for (let c = 0; c < 0x80; c++) {
      for (const at of [0, 1, 2, 3, 5, 64, 101, base.length - 1]) {
        const bytes = base.slice();
        bytes[at] = c;
        const expected = OTHER_CONTROLS.test(String.fromCharCode(c));
        // Every alignment of the view: the word loop and the plain loop at both ends.
        for (const shift of [0, 1, 2, 3]) {
          const buffer = new Uint8Array(bytes.length + shift);
          buffer.set(bytes, shift);
          const view = buffer.subarray(shift);
          expect(hasOtherControls(view), `byte ${c} at ${at}, shift ${shift}`).toBe(expected);
        }
      }
    }
  });

  it('is false for text with only tabs, line breaks and multibyte characters', () => {
    const text = 'naïve\tcafé\r\n😀 ünïcödé\n'.repeat(40);
    expect(OTHER_CONTROLS.test(text)).toBe(false);
    expect(hasOtherControls(new TextEncoder().encode(text))).toBe(false);
    expect(hasOtherControls(new Uint8Array(0))).toBe(false);
  });
});
