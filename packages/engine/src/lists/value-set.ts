// A reference list as a set of strings: a hash table of value numbers in typed arrays beside the
// values themselves, rather than a Set. A 1,000,000-value list then costs its strings and about
// 12 MB, with no per-entry objects for the collector to trace, and reading it (lists/read-list.ts)
// and loading it into a validator (validate/validator.ts) take one pass each.

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export class ValueSet implements ReadonlySet<string> {
  /** The distinct values, in the order first added. */
  readonly list: string[] = [];
  private hashes: Int32Array;
  /** Value number + 1 per slot (0: empty); linear probing, at most half full. */
  private slots: Int32Array;

  constructor(values?: Iterable<string>) {
    // Sized for an array's length at once, so that loading a list never grows the table.
    let capacity = 1024;
    if (Array.isArray(values)) while (capacity < values.length) capacity *= 2;
    this.hashes = new Int32Array(capacity);
    this.slots = new Int32Array(capacity * 2);
    if (values !== undefined) for (const value of values) this.add(value);
  }

  get size(): number {
    return this.list.length;
  }

  add(value: string): void {
    const h = hashOf(value);
    const slot = this.find(value, h);
    if (this.slots[slot] !== 0) return;
    const n = this.list.length;
    this.list.push(value);
    if (n === this.hashes.length) {
      const hashes = new Int32Array(n * 2);
      hashes.set(this.hashes);
      this.hashes = hashes;
    }
    this.hashes[n] = h;
    this.slots[slot] = n + 1;
    if ((n + 1) * 2 > this.slots.length) this.grow();
  }

  has(value: string): boolean {
    return this.slots[this.find(value, hashOf(value))] !== 0;
  }

  forEach(
    callback: (value: string, key: string, set: ReadonlySet<string>) => void,
    thisArg?: unknown,
  ): void {
    for (const value of this.list) callback.call(thisArg, value, value, this);
  }

  keys() {
    return this.list.values();
  }

  values() {
    return this.list.values();
  }

  entries() {
    return this.list.map((value): [string, string] => [value, value]).values();
  }

  [Symbol.iterator]() {
    return this.list.values();
  }

  /** The slot holding `value`, or the empty slot where it would go. */
  private find(value: string, h: number): number {
    const mask = this.slots.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const id = (this.slots[slot] as number) - 1;
      if (id < 0 || (this.hashes[id] === h && this.list[id] === value)) return slot;
    }
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.list.length; id++) {
      let slot = (this.hashes[id] as number) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    this.slots = slots;
  }
}

function hashOf(value: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < value.length; i++) h = Math.imul(h ^ value.charCodeAt(i), FNV_PRIME);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}
