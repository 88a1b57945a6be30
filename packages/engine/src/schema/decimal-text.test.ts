import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalDecimal,
  compareDecimal,
  decimalPlaces,
  decimalToNumberIfExact,
  numberToDecimal,
} from './decimal-text.ts';

describe('canonicalDecimal', () => {
  it.each([
    ['0', '0'],
    ['-0', '0'],
    ['+5', '5'],
    ['007', '7'],
    ['1.50', '1.5'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['1e3', '1000'],
    ['1.5E-3', '0.0015'],
    ['-12.340e1', '-123.4'],
    ['9007199254740993', '9007199254740993'],
    ['0.000', '0'],
  ])('%s → %s', (text, canonical) => {
    expect(canonicalDecimal(text)).toBe(canonical);
  });

  it.each(['', '-', '.', 'e3', '1,000', '1 000', '0x10', 'NaN', 'Infinity', '1e', '1e1000', '--1'])(
    'refuses %j',
    (text) => {
      expect(canonicalDecimal(text)).toBeNull();
    },
  );

  it('spells doubles exactly as JavaScript prints them, without exponents', () => {
    expect(numberToDecimal(1e21)).toBe('1000000000000000000000');
    expect(numberToDecimal(1e-7)).toBe('0.0000001');
    expect(numberToDecimal(Number.NaN)).toBeNull();
    expect(decimalToNumberIfExact('0.1')).toBe(0.1);
    expect(decimalToNumberIfExact('9007199254740993')).toBeUndefined();
    expect(decimalPlaces('12.345')).toBe(3);
  });
});

describe('compareDecimal', () => {
  it('orders like the numbers, for values a double holds', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        (a, b) => {
          const x = numberToDecimal(a) as string;
          const y = numberToDecimal(b) as string;
          expect(Math.sign(compareDecimal(x, y))).toBe(Math.sign(a - b) || 0);
        },
      ),
    );
  });

  it('orders big integers exactly', () => {
    expect(compareDecimal('9007199254740993', '9007199254740992')).toBeGreaterThan(0);
    expect(compareDecimal('-9007199254740993', '-9007199254740992')).toBeLessThan(0);
    expect(compareDecimal('0.30000000000000001', '0.3')).toBeGreaterThan(0);
  });
});
