import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareToBound,
  decimalPlaces,
  isIntegral,
  newScan,
  parseDecimal,
  scanDecimal,
  toBound,
} from './decimal.ts';

/** Reference: the literal as an exact fraction digits·10^exponent, compared with BigInt. */
function exact(text: string): { n: bigint; e: number } {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) throw new Error(`not a decimal: ${text}`);
  const digits = `${m[2] ?? ''}${m[3] ?? ''}` || '0';
  const n = BigInt(digits) * (m[1] === '-' ? -1n : 1n);
  return { n, e: Number(m[4] ?? 0) - (m[3] ?? '').length };
}

function referenceCompare(a: string, b: string): number {
  const x = exact(a);
  const y = exact(b);
  const e = Math.min(x.e, y.e);
  const xa = x.n * 10n ** BigInt(x.e - e);
  const ya = y.n * 10n ** BigInt(y.e - e);
  return xa < ya ? -1 : xa > ya ? 1 : 0;
}

const digits = (min: number, max: number) =>
  fc
    .array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max })
    .map((d) => d.join(''));

/** Decimal literals in the engine's grammar, biased to short ones so both comparison paths run. */
const literal = fc
  .tuple(
    fc.constantFrom('', '-', '+'),
    fc.oneof(digits(1, 4), digits(1, 25)),
    fc.option(fc.oneof(digits(0, 4), digits(0, 20)), { nil: undefined }),
    fc.option(fc.integer({ min: -30, max: 30 }), { nil: undefined }),
  )
  .map(
    ([sign, int, frac, exp]) =>
      `${sign}${int}${frac === undefined ? '' : `.${frac}`}${exp === undefined ? '' : `e${exp}`}`,
  );

describe('exact decimal comparison', () => {
  it('orders any two literals like exact arithmetic does', () => {
    fc.assert(
      fc.property(literal, literal, (a, b) => {
        const scan = newScan();
        expect(scanDecimal(a, 0, a.length, false, scan)).toBe(true);
        const bound = toBound(b);
        expect(bound).toBeDefined();
        // Equal negative values may compare as -0, which orders as 0 does.
        expect(Math.sign(compareToBound(a, scan, bound!)) || 0).toBe(referenceCompare(a, b));
      }),
      // An equal negative pair, which once compared as -0.
      { numRuns: 3000, examples: [['-7e-3', '-7e-3']] },
    );
  });

  it('tells a value from the same value with a tiny tail', () => {
    const plain = fc
      .tuple(fc.constantFrom('', '-'), digits(1, 12), digits(0, 6))
      .map(([sign, int, frac]) => `${sign}${int}.${frac}`);
    fc.assert(
      fc.property(plain, digits(0, 8), (a, zeros) => {
        const tailed = `${a}${zeros}1`;
        const scan = newScan();
        scanDecimal(tailed, 0, tailed.length, false, scan);
        expect(Math.sign(compareToBound(tailed, scan, toBound(a)!)) || 0).toBe(
          referenceCompare(tailed, a),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps neighbours beyond 2^53 and 17 significant digits apart', () => {
    const cases: [string, string, number][] = [
      ['9007199254740993', '9007199254740992', 1],
      ['0.30000000000000001', '0.3', 1],
      ['123456789012345.6', '123456789012345.7', -1],
      ['-0', '0', 0],
      ['0.0e99', '0', 0],
      ['1e400', '1e399', 1],
    ];
    for (const [a, b, expected] of cases) {
      const scan = newScan();
      scanDecimal(a, 0, a.length, false, scan);
      expect(Math.sign(compareToBound(a, scan, toBound(b)!)), `${a} vs ${b}`).toBe(expected);
    }
  });
});

describe('scanDecimal', () => {
  it('counts decimal places of the value as written', () => {
    const places = (s: string) => {
      const scan = newScan();
      scanDecimal(s, 0, s.length, false, scan);
      return decimalPlaces(scan);
    };
    expect([
      places('1'),
      places('1.50'),
      places('1.5e1'),
      places('1e-3'),
      places('.125'),
      places('5.'),
    ]).toEqual([0, 2, 0, 3, 3, 0]);
  });

  it('tells integral values apart', () => {
    const integral = (s: string) => isIntegral(parseDecimal(s)!);
    expect(['1.0', '1e3', '1.5e1', '0', '-0.0', '9007199254740993'].map(integral)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['1.5', '1e-1', '0.001'].map(integral)).toEqual([false, false, false]);
  });
});
