import { describe, expect, it } from 'vitest';
import { LosslessNumber } from '../model.ts';
import { numberFromLiteral } from './numbers.ts';

describe('numberFromLiteral', () => {
  it.each([
    ['0.30000000000000004', 0.30000000000000004],
    ['1.10', 1.1],
    ['100e-2', 1],
    ['1E+2', 100],
    ['1000000000000000000000', 1e21],
    ['1e21', 1e21],
    ['-9007199254740992', -9007199254740992],
    ['5e-324', 5e-324],
  ])('gives %s as the number it exactly is', (literal, expected) => {
    expect(numberFromLiteral(literal)).toBe(expected);
  });

  it('keeps -0', () => {
    expect(Object.is(numberFromLiteral('-0.0e5'), -0)).toBe(true);
  });

  it.each([
    '9007199254740993',
    '-12345678901234567890',
    '1152921504606846976', // 2^60, exact as a double, but String() shows 1152921504606847000
    '0.1000000000000000055511151231257827',
    '1e400',
    '-1e400',
    '1e-400',
    '2.4703282292062327e-324', // rounds to 0 or to the smallest subnormal, not what is written
  ])('keeps %s as written', (literal) => {
    expect(numberFromLiteral(literal)).toEqual(new LosslessNumber(literal));
  });
});
