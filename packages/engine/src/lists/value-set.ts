// A reference list as a set of strings, kept as UTF-8 bytes: each value is a span of one byte
// array, found through a hash table of value numbers in typed arrays. A list read from a file
// (lists/read-list.ts) keeps the file's own bytes and adds no copy of its values at all: a
// 1,000,000-value list costs its file and about 16 MB, with no per-value strings for the
// collector to trace. A value becomes a string only when asked for (valueAt, iteration).
// Values are compared as written, byte for byte of their UTF-8 form; an ASCII value is hashed by
// its "did you mean" key (lower case, runs of white space as one space, none at either end), so
// that values differing only so share a probe run and the suggester (validate/suggest.ts) finds
// them through this table instead of a table of its own (8 MB for a million values).

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

const encoder = new TextEncoder();
// ignoreBOM: a value that starts with U+FEFF is that value, not a file's first bytes.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

export class ValueSet implements ReadonlySet<string> {
  /** The values' bytes: [0, used) is taken. */
  private bytes: Uint8Array;
  private used: number;
  private count = 0;
  /** By value number, in the order first added: its span of `bytes`. */
  private starts: Int32Array;
  private ends: Int32Array;
  /**
   * Value number + 1 per slot (0: empty); linear probing, at most half full. No hashes are kept
   * (4 MB for a million values): a slot's value is told apart by its length, then its bytes.
   */
  private slots: Int32Array;
  /** A non-ASCII string being looked up or added, as UTF-8. */
  private scratch = new Uint8Array(256);

  constructor(values?: Iterable<string>) {
    this.bytes = new Uint8Array(1024);
    this.used = 0;
    // Sized for an array's length at once, so that loading a list never grows the table.
    const expected = Array.isArray(values) ? values.length : 0;
    this.starts = new Int32Array(Math.max(expected, 64));
    this.ends = new Int32Array(this.starts.length);
    this.slots = new Int32Array(tableSize(expected));
    if (values !== undefined) for (const value of values) this.add(value);
  }

  /**
   * A set whose values will be spans of `bytes` (UTF-8), added with addSpan: the bytes are kept,
   * not copied. `expected` sizes the tables (a count of lines, say); more values still fit.
   */
  static over(bytes: Uint8Array, expected: number): ValueSet {
    const set = new ValueSet();
    set.bytes = bytes;
    set.used = bytes.length;
    set.starts = new Int32Array(Math.max(expected, 64));
    set.ends = new Int32Array(set.starts.length);
    set.slots = new Int32Array(tableSize(expected));
    return set;
  }

  get size(): number {
    return this.count;
  }

  /** Adds the value bytes[start, end) of the array given to `over`. */
  addSpan(start: number, end: number): void {
    const bytes = this.bytes;
    const h = hashBytes(bytes, start, end);
    const slot = this.findBytes(bytes, start, end, h);
    if (this.slots[slot] === 0) this.insert(slot, start, end);
  }

  add(value: string): void {
    const length = this.encode(value);
    const scratch = this.scratch;
    const h = hashBytes(scratch, 0, length);
    const slot = this.findBytes(scratch, 0, length, h);
    if (this.slots[slot] !== 0) return;
    if (this.used + length > this.bytes.length) {
      let size = this.bytes.length * 2;
      while (size < this.used + length) size *= 2;
      const bytes = new Uint8Array(size);
      bytes.set(this.bytes.subarray(0, this.used));
      this.bytes = bytes;
    }
    this.bytes.set(scratch.subarray(0, length), this.used);
    this.insert(slot, this.used, this.used + length);
    this.used += length;
  }

  has(value: string): boolean {
    const n = value.length;
    const h = stringHash(value);
    if (h === NOT_ASCII) {
      const length = this.encode(value);
      const scratch = this.scratch;
      return this.slots[this.findBytes(scratch, 0, length, hashBytes(scratch, 0, length))] !== 0;
    }
    // ASCII, the usual case, is compared as it is: its characters are its bytes.
    const { slots, starts, ends, bytes } = this;
    const mask = slots.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const id = (slots[slot] as number) - 1;
      if (id < 0) return false;
      const start = starts[id] as number;
      if ((ends[id] as number) - start !== n) continue;
      let i = 0;
      while (i < n && bytes[start + i] === value.charCodeAt(i)) i++;
      if (i === n) return true;
    }
  }

  /**
   * Calls `visit` with each value number in the probe run of hash `h`: every value whose hash is
   * `h` and some others (suggest.ts looks up "did you mean" keys so; see keyHashOf).
   */
  eachInRun(h: number, visit: (id: number) => void): void {
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const id = (slots[slot] as number) - 1;
      if (id < 0) return;
      visit(id);
    }
  }

  /** The value numbered `id` (0 to size - 1, in the order first added). */
  valueAt(id: number): string {
    return decoder.decode(this.bytes.subarray(this.starts[id], this.ends[id]));
  }

  /** The UTF-8 bytes of value `id` are bytesOf()[startOf(id), endOf(id)) (suggest.ts reads them). */
  bytesOf(): Uint8Array {
    return this.bytes;
  }

  startOf(id: number): number {
    return this.starts[id] as number;
  }

  endOf(id: number): number {
    return this.ends[id] as number;
  }

  forEach(
    callback: (value: string, key: string, set: ReadonlySet<string>) => void,
    thisArg?: unknown,
  ): void {
    for (const value of this) callback.call(thisArg, value, value, this);
  }

  keys() {
    return this.values();
  }

  *values(): SetIterator<string> {
    for (let id = 0; id < this.count; id++) yield this.valueAt(id);
  }

  *entries(): SetIterator<[string, string]> {
    for (const value of this) yield [value, value];
  }

  [Symbol.iterator]() {
    return this.values();
  }

  /** value as UTF-8 in scratch; returns its length. */
  private encode(value: string): number {
    if (this.scratch.length < value.length * 3) this.scratch = new Uint8Array(value.length * 3);
    return encoder.encodeInto(value, this.scratch).written;
  }

  /** The slot holding the value src[start, end), or the empty slot where it would go. */
  private findBytes(src: Uint8Array, start: number, end: number, h: number): number {
    const { slots, starts, ends, bytes } = this;
    const mask = slots.length - 1;
    const n = end - start;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const id = (slots[slot] as number) - 1;
      if (id < 0) return slot;
      const at = starts[id] as number;
      if ((ends[id] as number) - at !== n) continue;
      let i = 0;
      while (i < n && bytes[at + i] === src[start + i]) i++;
      if (i === n) return slot;
    }
  }

  private insert(slot: number, start: number, end: number): void {
    const id = this.count++;
    if (id === this.starts.length) {
      const grown = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.starts = grown(this.starts);
      this.ends = grown(this.ends);
    }
    this.starts[id] = start;
    this.ends[id] = end;
    this.slots[slot] = id + 1;
    if (this.count * 2 > this.slots.length) this.grow();
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.count; id++) {
      let slot = hashBytes(this.bytes, this.starts[id] as number, this.ends[id] as number) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    this.slots = slots;
  }
}

/** A power of two at least twice `expected` (and at least 1024). */
function tableSize(expected: number): number {
  let size = 1024;
  while (size < expected * 2) size *= 2;
  return size;
}

/** stringHash's answer for a string that is not ASCII (never a hash: hashes are finished). */
const NOT_ASCII = 0x7fffffff + 1;

/** The hash of value bytes[start, end): keyHashOf for ASCII, of the bytes as they are otherwise. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = FNV_OFFSET;
  let length = 0;
  let space = false;
  for (let i = start; i < end; i++) {
    let c = bytes[i] as number;
    if (c > 127) return rawHash(bytes, start, end);
    if (c === 32 || (c >= 9 && c <= 13)) {
      if (length > 0) space = true;
      continue;
    }
    if (space) {
      h = Math.imul(h ^ 32, FNV_PRIME);
      length++;
      space = false;
    }
    if (c >= 65 && c <= 90) c += 32;
    h = Math.imul(h ^ c, FNV_PRIME);
    length++;
  }
  keyLength = length;
  return finish(h);
}

/** hashBytes of an ASCII string's bytes, or NOT_ASCII. */
function stringHash(value: string): number {
  let h = FNV_OFFSET;
  let length = 0;
  let space = false;
  for (let i = 0; i < value.length; i++) {
    let c = value.charCodeAt(i);
    if (c > 127) return NOT_ASCII;
    if (c === 32 || (c >= 9 && c <= 13)) {
      if (length > 0) space = true;
      continue;
    }
    if (space) {
      h = Math.imul(h ^ 32, FNV_PRIME);
      length++;
      space = false;
    }
    if (c >= 65 && c <= 90) c += 32;
    h = Math.imul(h ^ c, FNV_PRIME);
    length++;
  }
  keyLength = length;
  return finish(h);
}

function rawHash(bytes: Uint8Array, start: number, end: number): number {
  let h = FNV_OFFSET ^ 0x5bd1e995;
  for (let i = start; i < end; i++) h = Math.imul(h ^ (bytes[i] as number), FNV_PRIME);
  keyLength = -1;
  return finish(h);
}

/** The length of the key the last hash read (-1: the value was not ASCII). */
let keyLength = 0;

/**
 * For an ASCII "did you mean" key (validate/suggest.ts normaliseForSuggestion): the hash under
 * which a ValueSet files every ASCII value with that key. For any other string: NOT_ASCII.
 */
export function keyHashOf(key: string): number {
  return stringHash(key);
}

/** The hash value `id` is filed under (keyHashOf its key when it is ASCII). */
export function valueHash(set: ValueSet, id: number): number {
  return hashBytes(set.bytesOf(), set.startOf(id), set.endOf(id));
}

/** The length of value `id`'s key when it is ASCII, else -1 (the suggester sizes its typo index by it). */
export function keyLengthOf(set: ValueSet, id: number): number {
  hashBytes(set.bytesOf(), set.startOf(id), set.endOf(id));
  return keyLength;
}

export { NOT_ASCII };

function finish(h: number): number {
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  // Never NOT_ASCII: a finished hash is an int32.
  return h ^ (h >>> 12);
}
