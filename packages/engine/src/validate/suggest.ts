// "Did you mean": for a value that misses an allowed-value list (an enum or a reference list) by
// case, spacing, accents or a small typo, the listed value it nearly is. The index is built once
// per list, on its first miss, and a lookup never scans the list:
// - a normalised key (accents stripped, lower case, spaces collapsed) → the first value with it:
//   the list's ValueSet files every ASCII value under the hash of its key already (lists/
//   value-set.ts), so only the values that are not ASCII get a table here (value numbers in
//   typed arrays); a candidate is confirmed by normalising the listed value. A 1,000,000-value
//   ASCII list then costs one pass over its bytes and no memory;
// - a symmetric-delete index (SymSpell's idea): every normalised value of 4+ characters is stored
//   under the hash of itself and of each string made by deleting one or two of its characters
//   (hashes in typed arrays, not the strings: a 3,000-value list of 35-character values has about
//   1,800,000 deletions, which as strings in a Map took ~230 MB and seconds to build); a miss looks
//   up its own deletions the same way, and each candidate found is confirmed by computing the edit
//   distance (Damerau–Levenshtein, at most 2). Two strings within distance 2 always share such a
//   deletion, so nothing within reach is missed; a shared hash only adds a candidate.
// The deletion index costs about L²/2 entries per value of length L; a list whose total would pass
// MAX_DELETIONS keeps only the normalised-key part (large reference lists still get case, spacing
// and accent suggestions, in bounded memory).

import { keyHashOf, keyLengthOf, NOT_ASCII, valueHash, ValueSet } from '../lists/value-set.ts';

/** Values shorter than this (after normalising) get no edit-distance suggestions. */
const MIN_TYPO_LENGTH = 4;
const MAX_DISTANCE = 2;
/** Upper bound on deletion entries for one list (16 bytes each: ~32 MB at most). */
const MAX_DELETIONS = 2_000_000;
/** Longer values are matched by normalised key only: their deletions would cost too much. */
const MAX_TYPO_LENGTH = 64;

export interface Suggester {
  /** The listed value `value` nearly is, or undefined. */
  suggest(value: string): string | undefined;
}

const COMBINING = /\p{M}+/gu;
const SPACES = /\s+/g;

/** Already normal: printable ASCII without capitals, single inner spaces, no outer ones. */
const PLAIN = /^[!-@[-~]+(?: [!-@[-~]+)*$/;

export function normaliseForSuggestion(value: string): string {
  // Most list values are plain already; only the rest pay for NFD and the replacements.
  if (PLAIN.test(value)) return value;
  return value.normalize('NFD').replace(COMBINING, '').toLowerCase().replace(SPACES, ' ').trim();
}

/** The suggester of one list, built on its first use. */
export function lazySuggester(values: () => Iterable<string>): Suggester {
  let built: Suggester | undefined;
  return {
    suggest(value) {
      built ??= buildSuggester(values());
      return built.suggest(value);
    },
  };
}

export function buildSuggester(list: Iterable<string>): Suggester {
  // A reference list arrives as a ValueSet; an enum's few values are put in one.
  const set = list instanceof ValueSet ? list : new ValueSet(list);
  const n = set.size;
  const valueAt = (id: number) => set.valueAt(id);
  const sameKey = (id: number, key: string) => normaliseForSuggestion(valueAt(id)) === key;
  // The set files each ASCII value under the hash of its key already (keyHashOf). The values that
  // are not ASCII get a table of their own here: value numbers by the hash of their key.
  const others: number[] = [];
  let deletionBudget = 0;
  for (let id = 0; id < n; id++) {
    let length = keyLengthOf(set, id);
    if (length < 0) {
      others.push(id);
      length = normaliseForSuggestion(valueAt(id)).length;
    }
    if (length >= MIN_TYPO_LENGTH && length <= MAX_TYPO_LENGTH)
      deletionBudget += 1 + length + (length * (length - 1)) / 2;
  }
  const otherHashes = Int32Array.from(others, (id) =>
    textHash(normaliseForSuggestion(valueAt(id))),
  );
  // Open addressing, linear probing, at most half full: slot → index in `others` + 1 (0: empty).
  let capacity = 16;
  while (capacity < others.length * 2) capacity *= 2;
  const mask = capacity - 1;
  const slots = new Int32Array(capacity);
  for (let k = 0; k < others.length; k++) {
    let slot = (otherHashes[k] as number) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = k + 1;
  }
  /** The first listed value with the key `key`. */
  const keyed = (key: string): string | undefined => {
    let best = -1;
    const h = keyHashOf(key);
    if (h !== NOT_ASCII) {
      set.eachInRun(h, (id) => {
        if ((best < 0 || id < best) && valueHash(set, id) === h && sameKey(id, key)) best = id;
      });
    }
    if (others.length > 0) {
      const o = textHash(key);
      for (let slot = o & mask; ; slot = (slot + 1) & mask) {
        const k = (slots[slot] as number) - 1;
        if (k < 0) break;
        const id = others[k] as number;
        if (otherHashes[k] === o && (best < 0 || id < best) && sameKey(id, key)) best = id;
      }
    }
    return best < 0 ? undefined : valueAt(best);
  };

  let deletions: DeletionIndex | undefined;
  const keys: string[] = [];
  const originals: string[] = [];
  if (deletionBudget <= MAX_DELETIONS) {
    const index = new DeletionIndex(deletionBudget);
    deletions = index;
    const ids = new Set<string>();
    for (let v = 0; v < n; v++) {
      const value = valueAt(v);
      const key = normaliseForSuggestion(value);
      if (ids.has(key)) continue;
      ids.add(key);
      const id = keys.length;
      keys.push(key);
      originals.push(value);
      if (key.length < MIN_TYPO_LENGTH || key.length > MAX_TYPO_LENGTH) continue;
      eachDeletionHash(key, (h) => index.add(h, id));
    }
  }
  return {
    suggest(value) {
      const key = normaliseForSuggestion(value);
      const same = keyed(key);
      if (same !== undefined) return same === value ? undefined : same;
      if (
        deletions === undefined ||
        key.length < MIN_TYPO_LENGTH ||
        key.length > MAX_TYPO_LENGTH + MAX_DISTANCE
      )
        return undefined;
      const index = deletions;
      let best = -1;
      let bestDistance = MAX_DISTANCE + 1;
      eachDeletionHash(key, (h) => {
        index.each(h, (id) => {
          if (id === best) return;
          const distance = editDistance(key, keys[id] as string, bestDistance + 1);
          // Closest first; between equals, the one listed first.
          if (distance < bestDistance || (distance === bestDistance && id < best)) {
            best = id;
            bestDistance = distance;
          }
        });
      });
      return best < 0 ? undefined : originals[best];
    },
  };
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function finish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** The hash of a normalised key. */
function textHash(key: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), FNV_PRIME);
  return finish(h);
}

/** Multiplier of the polynomial hash of deletions (odd, so no information is lost mod 2^32). */
const BASE = 0x01000193;
const powers = [1];
const prefixes: number[] = [];
const suffixes: number[] = [];

/**
 * The hashes of the string itself and of every string made by deleting one or two of its
 * characters, without building them: a polynomial hash (mod 2^32) whose value for a deletion is
 * put together from prefix and suffix sums in constant time. Two strings within distance 2 share
 * one such string, so one such hash.
 */
function eachDeletionHash(key: string, use: (hash: number) => void): void {
  const n = key.length;
  while (powers.length <= n) powers.push(Math.imul(powers[powers.length - 1] as number, BASE));
  // prefixes[k]: key[0, k) by Horner; suffixes[k]: key[k, n) with each character weighted as at
  // the end of the whole key.
  prefixes[0] = 0;
  for (let k = 0; k < n; k++)
    prefixes[k + 1] = (Math.imul(prefixes[k] as number, BASE) + key.charCodeAt(k)) | 0;
  suffixes[n] = 0;
  suffixes[n + 1] = 0;
  for (let k = n - 1; k >= 0; k--)
    suffixes[k] =
      ((suffixes[k + 1] as number) + Math.imul(key.charCodeAt(k), powers[n - 1 - k] as number)) | 0;
  const pw = (k: number) => powers[k] as number;
  use(lengthMixed(prefixes[n] as number, n));
  for (let p = 0; p < n; p++) {
    const before = prefixes[p] as number;
    use(lengthMixed((Math.imul(before, pw(n - 1 - p)) + (suffixes[p + 1] as number)) | 0, n - 1));
    for (let q = p + 1; q < n; q++) {
      // key[0, p) + key(p, q) + key(q, n): each part weighted for its place in the n - 2 left.
      const middle =
        ((prefixes[q] as number) - Math.imul(prefixes[p + 1] as number, pw(q - 1 - p))) | 0;
      const h =
        (Math.imul(before, pw(n - 2 - p)) +
          Math.imul(middle, pw(n - 1 - q)) +
          (suffixes[q + 1] as number)) |
        0;
      use(lengthMixed(h, n - 2));
    }
  }
}

function lengthMixed(h: number, length: number): number {
  return finish(h ^ Math.imul(length + 1, 0x9e3779b1));
}

/**
 * Deletion hash → value numbers, in typed arrays (chained from a head per bucket). A hash shared
 * by different deletions only adds a candidate, which the edit distance then rules out.
 */
class DeletionIndex {
  private count = 0;
  private readonly hashes: Int32Array;
  private readonly ids: Int32Array;
  /** Entry + 1 of the next entry in the same bucket (0: none). */
  private readonly next: Int32Array;
  private readonly heads: Int32Array;

  constructor(entries: number) {
    this.hashes = new Int32Array(entries);
    this.ids = new Int32Array(entries);
    this.next = new Int32Array(entries);
    let buckets = 16;
    while (buckets < entries) buckets *= 2;
    this.heads = new Int32Array(buckets);
  }

  add(hash: number, id: number): void {
    const e = this.count++;
    const bucket = hash & (this.heads.length - 1);
    this.hashes[e] = hash;
    this.ids[e] = id;
    this.next[e] = this.heads[bucket] as number;
    this.heads[bucket] = e + 1;
  }

  each(hash: number, use: (id: number) => void): void {
    for (let e = (this.heads[hash & (this.heads.length - 1)] as number) - 1; e >= 0;) {
      if (this.hashes[e] === hash) use(this.ids[e] as number);
      e = (this.next[e] as number) - 1;
    }
  }
}

/**
 * Optimal-string-alignment distance (insertions, deletions, substitutions, adjacent swaps), or
 * `limit` (or more) as soon as it cannot be below `limit`.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + cost,
      );
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      )
        v = Math.min(v, (prev2[j - 2] as number) + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin >= limit) return limit;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[n] as number, limit);
}
