import { describe, expect, it } from 'vitest';
import { ValueSet } from '../lists/value-set.ts';
import { buildSuggester } from './suggest.ts';

/** Optimal-string-alignment distance, written plainly (the oracle's own). */
function osa(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    d.push([]);
    for (let j = 0; j <= b.length; j++) {
      if (i === 0 || j === 0) {
        d[i]![j] = i + j;
        continue;
      }
      let v = Math.min(
        d[i - 1]![j]! + 1,
        d[i]![j - 1]! + 1,
        d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** Brute force over the list: same key first, else the closest within 2 (first listed on ties). */
function oracle(list: string[], value: string): string | undefined {
  const norm = (s: string) =>
    s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
  const key = norm(value);
  const same = list.find((v) => norm(v) === key);
  if (same !== undefined) return same === value ? undefined : same;
  if (key.length < 4) return undefined;
  let best: string | undefined;
  let bestDistance = 3;
  const keys = new Set<string>();
  for (const v of list) {
    const k = norm(v);
    if (keys.has(k)) continue;
    keys.add(k);
    if (k.length < 4 || k.length > 64) continue;
    const distance = osa(key, k);
    if (distance < bestDistance) {
      best = v;
      bestDistance = distance;
    }
  }
  return best;
}

function random(seed: number) {
  let a = seed;
  return (n: number) => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * n;
  };
}

describe('did you mean, against a brute-force search of the list', () => {
  // ASCII lists, and lists where some values have accents (a ValueSet files those apart).
  it.each(['abcAB ', 'abéÉB '])(
    'agrees on near and far misses over generated lists (%j)',
    (alphabet) => {
      const r = random(22);
      const word = (min: number, max: number) => {
        let s = '';
        const n = min + Math.floor(r(max - min + 1));
        for (let i = 0; i < n; i++) s += alphabet[Math.floor(r(alphabet.length))];
        return s;
      };
      const edit = (s: string) => {
        const i = Math.floor(r(s.length + 1));
        switch (Math.floor(r(4))) {
          case 0:
            return s.slice(0, i) + s.slice(i + 1);
          case 1:
            return s.slice(0, i) + alphabet[Math.floor(r(alphabet.length))]! + s.slice(i);
          case 2:
            return s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
          default:
            return s.slice(0, i) + alphabet[Math.floor(r(alphabet.length))]! + s.slice(i + 1);
        }
      };
      for (let round = 0; round < 60; round++) {
        const list = Array.from({ length: 1 + Math.floor(r(40)) }, () => word(1, 9));
        const suggester = buildSuggester(list);
        // A reference list arrives as a ValueSet (its values read as bytes): the same answers.
        const fromSet = buildSuggester(new ValueSet(list));
        for (let probe = 0; probe < 25; probe++) {
          const base = list[Math.floor(r(list.length))]!;
          const value = r(3) < 1 ? word(1, 9) : r(2) < 1 ? edit(base) : edit(edit(base));
          const expected = oracle(list, value);
          expect([list, value, suggester.suggest(value)]).toEqual([list, value, expected]);
          expect([list, value, fromSet.suggest(value)]).toEqual([list, value, expected]);
        }
      }
    },
  );
});
