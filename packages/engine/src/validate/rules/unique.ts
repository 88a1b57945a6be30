// Values seen so far in a `unique` field, kept as 64-bit hashes in flat typed arrays instead of a
// Map of strings: about 24 bytes per distinct value whatever its length (a 1,000,000-row column
// costs ~25 MB, not the ~100 MB of retained strings), and no garbage for the collector to trace.
// The price is a possible false duplicate when two different values share all 64 bits: with n
// distinct values the chance is about n²/2⁶⁵ (1 in 37 million for a million values).

import { canonicalDecimal } from '../../schema/decimal-text.ts';
import { messages } from '../messages.ts';
import { failure, type RuleCheck } from './failure.ts';

const INITIAL_CAPACITY = 1024;
/** expect() makes a table at most this many slots at once (~55 MB); past it, it doubles as it fills. */
const MAX_EXPECTED_CAPACITY = 1 << 22;

/** The values a SeenValues holds: hashes and the row that first had each. */
export interface SeenEntries {
  h1: Int32Array;
  h2: Int32Array;
  rows: Uint32Array;
}

/**
 * Hands out the SeenValues of one validation's `unique` and `uniqueTogether` checks, in the order
 * they are compiled (always the same for one schema), and keeps them: parallel validation reads
 * each chunk's tables and seeds a chunk's with the values earlier chunks had.
 */
export class SeenRegistry {
  readonly tables: SeenValues[] = [];
  constructor(private readonly seeds: readonly (SeenEntries | undefined)[] = []) {}

  next(): SeenValues {
    const seen = new SeenValues();
    const seed = this.seeds[this.tables.length];
    if (seed !== undefined) {
      for (let i = 0; i < seed.rows.length; i++)
        seen.firstRowOfHash(seed.h1[i] as number, seed.h2[i] as number, seed.rows[i] as number);
    }
    this.tables.push(seen);
    return seen;
  }

  /**
   * The input is about `factor` times what was read so far (validator option `inputBytes`):
   * each table is made large enough at once for `factor` times the values it holds, instead of
   * doubling its way there (each doubling moves every value to a new place). A table whose values
   * repeat holds few and stays small.
   */
  expect(factor: number): void {
    for (const table of this.tables) table.expect(table.count * factor);
  }
}

/**
 * A table kept elsewhere, to which a SeenValues hands its calls: the byte core's own, which it
 * fills as it reads (bytecore/key-tables.ts, decision 256).
 */
export interface SeenStore {
  readonly count: number;
  expect(values: number): void;
  /** As SeenValues.firstRowOfHash; -1 when the store cannot take the value. */
  firstRowOfHash(a: number, b: number, row: number): number;
  entries(): SeenEntries;
  /** The store is used no more: it holds what it held, and takes nothing. */
  close(): void;
}

export class SeenValues {
  /** Where the values are while a store holds them (their arrays here then stay empty). */
  private store: SeenStore | undefined;
  private capacity = INITIAL_CAPACITY;
  private size = 0;
  /**
   * A byte per slot from the value's second hash (1 to 255; 0: empty). A new value, the usual
   * case, is told apart by these alone: 1 MB per million slots mostly stays in the cache, where a
   * read of the 12-byte entries would be a trip to memory per row (the entries are then only
   * written, which does not wait).
   */
  private tags = new Uint8Array(INITIAL_CAPACITY);
  private h1 = new Int32Array(INITIAL_CAPACITY);
  private h2 = new Int32Array(INITIAL_CAPACITY);
  /** The row that first had the value; 0 marks an empty slot (rows start at 1). */
  private rows = new Uint32Array(INITIAL_CAPACITY);

  get count(): number {
    return this.store?.count ?? this.size;
  }

  /**
   * Hands the values, and every call from now on, to `store`; false, and nothing moved, when the
   * store cannot take them all.
   */
  moveTo(store: SeenStore): boolean {
    const { h1, h2, rows } = this.entries();
    for (let i = 0; i < rows.length; i++) {
      if (store.firstRowOfHash(h1[i] as number, h2[i] as number, rows[i] as number) < 0) {
        store.close();
        return false;
      }
    }
    this.store = store;
    this.clear();
    return true;
  }

  /** Makes room for about `values` values at once (up to MAX_EXPECTED_CAPACITY slots). */
  expect(values: number): void {
    if (this.store !== undefined) {
      this.store.expect(values);
      return;
    }
    let capacity = this.capacity;
    while (capacity < values * 2 && capacity < MAX_EXPECTED_CAPACITY) capacity *= 2;
    if (capacity > this.capacity) this.resize(capacity);
  }

  /**
   * Records the value text[start, end) at `row` and returns 0, or returns the row where it was
   * first seen.
   */
  firstRowOf(text: string, start: number, end: number, row: number): number {
    const length = end - start;
    let a = 0x9747b28c ^ length;
    let b = 0x165667b1 ^ length;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      let k = Math.imul(c, 0xcc9e2d51);
      k = (k << 15) | (k >>> 17);
      a ^= Math.imul(k, 0x1b873593);
      a = (a << 13) | (a >>> 19);
      a = (Math.imul(a, 5) + 0xe6546b64) | 0;
      b = (b + Math.imul(c, 0xc2b2ae3d)) | 0;
      b = Math.imul((b << 17) | (b >>> 15), 0x27d4eb2f);
    }
    return this.firstRowOfHash(mix(a), mix(b ^ 0x85ebca77), row);
  }

  /** firstRowOf for the combination `key` has taken in since its start(). */
  firstRowOfKey(key: KeyHash, row: number): number {
    return this.firstRowOfHash(mix(key.a), mix(key.b ^ 0x85ebca77), row);
  }

  /** firstRowOf for a value already hashed (merging chunks' tables: engine/src/parallel). */
  firstRowOfHash(a: number, b: number, row: number): number {
    if (this.store !== undefined) {
      const first = this.store.firstRowOfHash(a, b, row);
      if (first >= 0) return first;
      this.moveBack();
    }
    const mask = this.capacity - 1;
    const tags = this.tags;
    const tag = tagOf(b);
    for (let slot = a & mask; ; slot = (slot + 1) & mask) {
      const t = tags[slot] as number;
      if (t === 0) {
        tags[slot] = tag;
        this.h1[slot] = a;
        this.h2[slot] = b;
        this.rows[slot] = row;
        if (++this.size * 2 > this.capacity) this.grow();
        return 0;
      }
      if (t === tag && this.h1[slot] === a && this.h2[slot] === b) return this.rows[slot] as number;
    }
  }

  /**
   * Every value recorded, as hashes and first rows (parallel validation merges these in chunk
   * order): three arrays of `count` entries, in table order.
   */
  entries(): SeenEntries {
    if (this.store !== undefined) return this.store.entries();
    const h1 = new Int32Array(this.size);
    const h2 = new Int32Array(this.size);
    const rows = new Uint32Array(this.size);
    let n = 0;
    for (let i = 0; i < this.capacity; i++) {
      const row = this.rows[i] as number;
      if (row === 0) continue;
      h1[n] = this.h1[i] as number;
      h2[n] = this.h2[i] as number;
      rows[n++] = row;
    }
    return { h1, h2, rows };
  }

  /** The store's values back here, and the store closed (it could not take another value). */
  moveBack(): void {
    const store = this.store as SeenStore;
    this.store = undefined;
    store.close();
    const { h1, h2, rows } = store.entries();
    this.expect(rows.length);
    for (let i = 0; i < rows.length; i++)
      this.firstRowOfHash(h1[i] as number, h2[i] as number, rows[i] as number);
  }

  private clear(): void {
    this.capacity = INITIAL_CAPACITY;
    this.size = 0;
    this.tags = new Uint8Array(INITIAL_CAPACITY);
    this.h1 = new Int32Array(INITIAL_CAPACITY);
    this.h2 = new Int32Array(INITIAL_CAPACITY);
    this.rows = new Uint32Array(INITIAL_CAPACITY);
  }

  private grow(): void {
    this.resize(this.capacity * 2);
  }

  private resize(capacity: number): void {
    const { h1, h2, rows } = this;
    this.capacity = capacity;
    const mask = this.capacity - 1;
    this.tags = new Uint8Array(this.capacity);
    this.h1 = new Int32Array(this.capacity);
    this.h2 = new Int32Array(this.capacity);
    this.rows = new Uint32Array(this.capacity);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as number;
      if (row === 0) continue;
      const a = h1[i] as number;
      const b = h2[i] as number;
      let slot = a & mask;
      while (this.tags[slot] !== 0) slot = (slot + 1) & mask;
      this.tags[slot] = tagOf(b);
      this.h1[slot] = a;
      this.h2[slot] = b;
      this.rows[slot] = row;
    }
  }
}

/**
 * The hash of a combination of values (uniqueTogether), taken in part by part where the values
 * lie, so that a row's key is never built as a string. Each text part is preceded by its length,
 * so that ("ab", "c") and ("a", "bc") differ.
 */
export class KeyHash {
  a = 0;
  b = 0;

  start(): void {
    this.a = 0x9747b28c;
    this.b = 0x165667b1;
  }

  /** The span's length, then its UTF-16 units two to a step (the byte core hashes alike). */
  span(text: string, start: number, end: number): void {
    this.unit(end - start);
    // The state in locals: two field reads and writes per span, not per step.
    let a = this.a;
    let b = this.b;
    for (let i = start; i < end; i += 2) {
      const c =
        i + 1 < end ? text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16) : text.charCodeAt(i);
      let k = Math.imul(c, 0xcc9e2d51);
      k = (k << 15) | (k >>> 17);
      a ^= Math.imul(k, 0x1b873593);
      a = (a << 13) | (a >>> 19);
      a = (Math.imul(a, 5) + 0xe6546b64) | 0;
      b = (b + Math.imul(c, 0xc2b2ae3d)) | 0;
      b = Math.imul((b << 17) | (b >>> 15), 0x27d4eb2f);
    }
    this.a = a;
    this.b = b;
  }

  /** A whole number below 2^53 (a date's key, a boolean's 0 or 1). */
  number(n: number): void {
    this.unit(n >>> 0);
    this.unit(Math.floor(n / 4294967296) | 0);
  }

  private unit(c: number): void {
    let k = Math.imul(c, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    let a = this.a ^ Math.imul(k, 0x1b873593);
    a = (a << 13) | (a >>> 19);
    this.a = (Math.imul(a, 5) + 0xe6546b64) | 0;
    const b = (this.b + Math.imul(c, 0xc2b2ae3d)) | 0;
    this.b = Math.imul((b << 17) | (b >>> 15), 0x27d4eb2f);
  }
}

/** 1 to 255 from bits the slot (the low bits of the first hash) does not use. */
function tagOf(b: number): number {
  return (b >>> 24) | 0 || 1;
}

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/**
 * Duplicates are reported on the second and later occurrences, naming the first row. Checking the
 * same row's value again is no duplicate: the JSON fast path may check a record, give up on it
 * for another of its fields, and leave it to the normal path, which checks it once more.
 */
export function uniqueRule(byValue = false, seen = new SeenValues()): RuleCheck {
  if (byValue) {
    return (text, start, end, row, out) => {
      // Most cells are already canonical (`42`, `-7`): hashed where they lie, with no string cut.
      if (!isCanonicalInteger(text, start, end)) {
        const canonical = canonicalDecimal(text.slice(start, end));
        if (canonical !== null) {
          text = canonical;
          start = 0;
          end = canonical.length;
        }
      }
      const first = seen.firstRowOf(text, start, end, row);
      if (first !== 0 && first !== row) out.push(failure('unique', messages.unique(first)));
    };
  }
  return (text, start, end, row, out) => {
    const first = seen.firstRowOf(text, start, end, row);
    if (first !== 0 && first !== row) out.push(failure('unique', messages.unique(first)));
  };
}

/** `0`, or digits not starting with 0 with an optional `-`: canonicalDecimal's own spelling. */
export function isCanonicalInteger(text: string, start: number, end: number): boolean {
  let i = start;
  if (i < end && text.charCodeAt(i) === 45) i++;
  if (i >= end) return false;
  const first = text.charCodeAt(i);
  if (first === 48) return end - start === 1;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}
