import { describe, expect, it } from 'vitest';
import { SeenValues } from './unique.ts';

const firstRowOf = (seen: SeenValues, value: string, row: number) =>
  seen.firstRowOf(value, 0, value.length, row);

describe('SeenValues', () => {
  it('remembers the first row of every value through many resizes', () => {
    const seen = new SeenValues();
    const n = 200_000;
    let falseDuplicates = 0;
    for (let i = 0; i < n; i++) if (firstRowOf(seen, `value-${i}`, i + 2) !== 0) falseDuplicates++;
    expect(falseDuplicates).toBe(0);
    expect(seen.count).toBe(n);
    let wrongRows = 0;
    for (let i = 0; i < n; i += 7)
      if (firstRowOf(seen, `value-${i}`, n + 10) !== i + 2) wrongRows++;
    expect(wrongRows).toBe(0);
    expect(seen.count).toBe(n);
  });

  it('tells apart values that differ only slightly', () => {
    const seen = new SeenValues();
    const values = [
      '',
      'a',
      'A',
      'a ',
      ' a',
      'ab',
      'ba',
      '\u0000',
      '\u0000\u0000',
      '😀',
      '\ud83d',
      '1',
      '01',
      '1.0',
    ];
    values.forEach((v, i) => expect(firstRowOf(seen, v, i + 1), JSON.stringify(v)).toBe(0));
    values.forEach((v, i) => expect(firstRowOf(seen, v, 100), JSON.stringify(v)).toBe(i + 1));
  });
});
