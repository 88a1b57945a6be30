import { describe, expect, it } from 'vitest';
import { readListValues, type ReadListResult } from './read-list.ts';
import { ValueSet } from './value-set.ts';

/** The result with its values as an array, in the order the set iterates them. */
const listed = (read: ReadListResult) => (read.ok ? { ok: true, values: [...read.values] } : read);

describe('readListValues', () => {
  it('one value a line: distinct, in file order, line ends and a byte-order mark removed', () => {
    const text = '\uFEFFDE\r\nFR\n\nDE\n  IT \r\nfr\n\r\nES';
    expect(listed(readListValues(text, { csv: false }))).toEqual({
      ok: true,
      values: ['DE', 'FR', '  IT ', 'fr', 'ES'],
    });
  });
  it("reads a file's bytes as its text: the same values, and has() answers for them", () => {
    const text = '\uFEFFDE\r\nFR\n\nDE\n  IT \r\nfr\n\r\nES\nÄpfel\nÄpfel\n😀';
    const read = readListValues(new TextEncoder().encode(text), { csv: false });
    expect(listed(read)).toEqual(listed(readListValues(text, { csv: false })));
    const set = read.ok ? read.values : new ValueSet();
    expect(['Äpfel', '😀', '  IT ', 'IT', 'Apfel', ''].map((v) => set.has(v))).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });
  it('a value that starts with U+FEFF after the first line is kept as written', () => {
    const read = readListValues(new TextEncoder().encode('b\n\uFEFFb\n\uFEFF\n'), { csv: false });
    expect(listed(read)).toEqual({ ok: true, values: ['b', '\uFEFFb', '\uFEFF'] });
  });
  it('bytes that are not UTF-8 read as a decoder reads them', () => {
    const bytes = Uint8Array.from([0x41, 0xff, 0x42, 10, 0xc3, 0xa4, 10]);
    const read = readListValues(bytes, { csv: false });
    expect(listed(read)).toEqual({ ok: true, values: ['A\uFFFDB', 'ä'] });
    expect(read.ok && read.values.has('A\uFFFDB')).toBe(true);
  });
  it('a CSV column by name, duplicates and empty cells skipped', () => {
    const text = 'code,name\nDE,Germany\n,Nowhere\n"FR","France, Republic"\nDE,Again\n';
    expect(listed(readListValues(text, { csv: true, column: 'code' }))).toEqual({
      ok: true,
      values: ['DE', 'FR'],
    });
  });
  it('keeps every one of 200,000 distinct values once', () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => `SKU-${i}`);
    const read = readListValues([...lines, ...lines.slice(0, 1000)].join('\n'), { csv: false });
    expect(read.ok && [...read.values]).toEqual(lines);
  });
});

describe('ValueSet', () => {
  it('answers has() for what was added, and iterates in the order first added', () => {
    const set = new ValueSet(['b', 'a', 'b', '', 'Ä']);
    expect([set.size, set.has('a'), set.has('Ä'), set.has('A'), set.has('')]).toEqual([
      4,
      true,
      true,
      false,
      true,
    ]);
    expect([...set]).toEqual(['b', 'a', '', 'Ä']);
    expect([...set.entries()][0]).toEqual(['b', 'b']);
    const seen: string[] = [];
    set.forEach((v) => seen.push(v));
    expect(seen).toEqual([...set.keys()]);
  });
  it('grows past its first table without losing a value', () => {
    const set = new ValueSet();
    for (let i = 0; i < 50_000; i++) set.add(`v${i % 30_000}`);
    expect(set.size).toBe(30_000);
    expect(set.has('v29999') && set.has('v0') && !set.has('v30000')).toBe(true);
  });
});
