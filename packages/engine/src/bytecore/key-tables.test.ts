import { describe, expect, it } from 'vitest';
import { SeenValues, type SeenEntries, type SeenStore } from '../validate/rules/unique.ts';
import { moveKeyTables, type KeyTableExports } from './key-tables.ts';
import { instantiateByteCore } from './load.ts';

interface Core extends KeyTableExports {
  reserve(bytes: number): number;
}

function newCore(): Core {
  const instance = instantiateByteCore();
  if (instance === undefined) throw new Error('no byte core here');
  return instance.exports as Core;
}

/** n distinct keys as uniqueTogether hashes them (two 32-bit words), from a fixed seed. */
function keys(n: number, seed = 7): Int32Array {
  const words = new Int32Array(2 * n);
  let x = seed;
  for (let i = 0; i < words.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) | 0;
    words[i] = x ^ (x >>> 15);
  }
  return words;
}

const sorted = (e: SeenEntries) =>
  Array.from(e.rows, (row, i) => `${e.h1[i]}:${e.h2[i]}:${row}`).sort();

describe('uniqueTogether tables in the byte core', () => {
  it('keeps every key and its first row through growth and moves of its memory', () => {
    const core = newCore();
    core.reserve(1024);
    const seen = new SeenValues();
    const n = 50_000;
    const k = keys(n);
    // Some keys seen in JavaScript before the table moves, as a parallel chunk's seeds are.
    for (let i = 0; i < 1000; i++) seen.firstRowOfHash(k[2 * i]!, k[2 * i + 1]!, i + 2);
    const tables = moveKeyTables(core, [seen]);
    expect(tables).toHaveLength(1);
    for (let i = 1000; i < n; i++) {
      expect(seen.firstRowOfHash(k[2 * i]!, k[2 * i + 1]!, i + 2)).toBe(0);
      // The scan area grows under the tables now and then: they move up, whole.
      if (i % 10_000 === 0) expect(core.reserve(i * 64)).toBeGreaterThan(0);
    }
    expect(seen.count).toBe(n);
    let wrong = 0;
    for (let i = 0; i < n; i += 3)
      if (seen.firstRowOfHash(k[2 * i]!, k[2 * i + 1]!, n + 10) !== i + 2) wrong++;
    expect(wrong).toBe(0);
    // A row that looks up its own key again is no duplicate: it gets its own row back.
    expect(seen.firstRowOfHash(k[20]!, k[21]!, 12)).toBe(12);
    // Keys equal in their first hash only are two keys.
    expect(seen.firstRowOfHash(k[0]!, k[1]! ^ 1, n + 11)).toBe(0);
    expect(seen.count).toBe(n + 1);
    const entries = seen.entries();
    expect(entries.rows).toHaveLength(n + 1);
    expect(new Set(sorted(entries)).size).toBe(n + 1);
  });

  it('sizes a table for the keys it expects at once', () => {
    const core = newCore();
    const seen = new SeenValues();
    expect(moveKeyTables(core, [seen])).toEqual([0]);
    const before = core.memory.buffer.byteLength;
    seen.expect(100_000);
    const sized = core.memory.buffer.byteLength;
    expect(sized).toBeGreaterThan(before + 100_000 * 16);
    const k = keys(100_000, 11);
    for (let i = 0; i < 100_000; i++) seen.firstRowOfHash(k[2 * i]!, k[2 * i + 1]!, i + 2);
    // No growth past what expect() made room for.
    expect(core.memory.buffer.byteLength).toBe(sized);
  });

  it('gives each of several tables its own keys', () => {
    const core = newCore();
    const a = new SeenValues();
    const b = new SeenValues();
    expect(moveKeyTables(core, [a, b])).toEqual([0, 1]);
    expect(a.firstRowOfHash(1, 2, 5)).toBe(0);
    expect(b.firstRowOfHash(1, 2, 6)).toBe(0);
    expect(a.firstRowOfHash(1, 2, 9)).toBe(5);
    expect(b.firstRowOfHash(1, 2, 9)).toBe(6);
  });
});

describe('a table whose store cannot take more', () => {
  /** A store that holds `room` keys, then answers -1, as the core does when it cannot grow. */
  class SmallStore implements SeenStore {
    readonly inner = new SeenValues();
    closed = false;
    constructor(private readonly room: number) {}
    get count() {
      return this.inner.count;
    }
    expect(): void {}
    firstRowOfHash(a: number, b: number, row: number): number {
      // As the core: full (or closed), it answers -1 before it looks.
      if (this.closed || this.inner.count >= this.room) return -1;
      return this.inner.firstRowOfHash(a, b, row);
    }
    entries() {
      return this.inner.entries();
    }
    close() {
      this.closed = true;
    }
  }

  it('takes its keys back into JavaScript and goes on with the same answers', () => {
    const seen = new SeenValues();
    const store = new SmallStore(100);
    expect(seen.moveTo(store)).toBe(true);
    const k = keys(300, 3);
    for (let i = 0; i < 300; i++)
      expect(seen.firstRowOfHash(k[2 * i]!, k[2 * i + 1]!, i + 2)).toBe(0);
    expect(store.closed).toBe(true);
    expect(seen.count).toBe(300);
    for (let i = 0; i < 300; i++)
      expect(seen.firstRowOfHash(k[2 * i]!, k[2 * i + 1]!, 1000)).toBe(i + 2);
  });

  it('stays in JavaScript when the store cannot take what it holds', () => {
    const seen = new SeenValues();
    const k = keys(50, 5);
    for (let i = 0; i < 50; i++) seen.firstRowOfHash(k[2 * i]!, k[2 * i + 1]!, i + 2);
    const store = new SmallStore(10);
    expect(seen.moveTo(store)).toBe(false);
    expect(store.closed).toBe(true);
    expect(seen.count).toBe(50);
    expect(seen.firstRowOfHash(k[40]!, k[41]!, 99)).toBe(22);
  });
});
