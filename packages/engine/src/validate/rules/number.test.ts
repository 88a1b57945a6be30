import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldRules } from '../../model.ts';
import type { Failure } from './failure.ts';
import { numericCheck } from './number.ts';

const codesOf = (run: (out: Failure[]) => boolean) => {
  const out: Failure[] = [];
  const ok = run(out);
  return { ok, codes: out.map((f) => f.code) };
};

/** Decimal text for bounds: short ones (the double shortcut) and long ones (the exact path). */
const boundText = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map(String),
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.constantFrom('0', '0.1', '-0.5', '99.99', '9007199254740993', '0.30000000000000001'),
);

/** JSON numbers as the reader hands them over: doubles read from literals people write. */
const jsonDouble = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -100000, max: 100000 }).map((n) => n / 100),
  fc.integer({ min: -100000, max: 100000 }).map((n) => n / 1000),
  fc.integer(),
  fc.constantFrom(0, -0, 0.1, 0.3, 99.99, 100, 1e21, 9007199254740992, 5e-324),
);

describe('a JSON double', () => {
  it('gets the same verdict as its shortest text', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('integer', 'number') as fc.Arbitrary<'integer' | 'number'>,
        jsonDouble,
        fc.record(
          {
            minValue: boundText,
            maxValue: boundText,
            exclusiveMinimum: boundText,
            precision: fc.integer({ min: 0, max: 20 }),
          },
          { requiredKeys: [] },
        ),
        (type, value, rules: FieldRules) => {
          const check = numericCheck(type, rules);
          const viaDouble = codesOf((out) => check.double(value, out));
          const viaText = codesOf((out) =>
            check.text(String(value), 0, String(value).length, 0, out, true),
          );
          expect(viaDouble).toEqual(viaText);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('is a whole number when integral, however it is written', () => {
    const check = numericCheck('integer', {});
    expect([1, -0, 1e21, 2 ** 60].map((v) => codesOf((out) => check.double(v, out)).ok)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(codesOf((out) => check.double(1.5, out))).toEqual({ ok: false, codes: ['type'] });
  });
});
