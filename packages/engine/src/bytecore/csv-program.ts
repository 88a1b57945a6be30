// The byte core's program: the header's columns and their ops, laid out as wasm/csv-core.ts
// reads them (all offsets from the program's start, little-endian):
//   header   columns (JSON: the record's, the first ones), delimiter, longest cell in bytes,
//            columns whose offsets go out, the rules' offset, their count, a word not used,
//            the cells' scratch area (i32 each)
//   columns  16 bytes each: flags (1 required, 2 checked in JS, 4 offsets out, 512 read by a
//            rule; for JSON, the kinds of value its ops read: 8 strings, 16 numbers, 32
//            booleans, 64 strings with simple escapes; 128 a nested object, 256 a strict one),
//            ops' offset and op count
//            (a nested object: its first column's index and its column count), and for JSON the
//            offset of its key (length, then UTF-8 bytes; -1 for a key that never matches);
//            for JSON, a rule slot's number plus one in the flags' top 16 bits
//   ops      32 bytes each: code, then seven words of parameters
//   data     hash tables, date segments, pattern items and bitmaps the ops point to; the rules
//            (32 bytes each: kind, items' offset, item count, two parameters) and their items
//            (16 bytes each: column, mode or part, ops' offset, op count); 48 bytes a column
//            where the core keeps the record's cells for the rules

import type { ByteOp } from './field-ops.ts';

type SetOp = Extract<ByteOp, { kind: 'set' }>;

/** One way a rule is shown to hold: a column's cell is empty, is not, passes ops, is not in a set. */
export type CoreAlternative =
  | { mode: 'empty' | 'notEmpty'; column: number }
  | { mode: 'pass'; column: number; ops: readonly ByteOp[] }
  | { mode: 'notIn'; column: number; set: SetOp };

/** A part of a uniqueTogether key, hashed as validate/cross-field.ts hashInto takes it in. */
export interface CoreKeyPart {
  column: number;
  part: 'text' | 'integer' | 'day' | 'dateKey' | 'boolean';
  /** day and dateKey: the field's date op; boolean: the true spellings' set, then the false. */
  ops: readonly ByteOp[];
}

/** A value compare reads: a decimal, a date in its field's format (op), or text. */
export interface CoreValue {
  column: number;
  kind: 'number' | 'date' | 'text';
  /** date: the field's date op. */
  ops: readonly ByteOp[];
}

/** A cross-field rule as the core proves it holds (bytecore/rule-ops.ts). */
export type CoreRule =
  | { kind: 'any'; alternatives: readonly CoreAlternative[] }
  | { kind: 'count'; columns: readonly number[]; min: number; max: number }
  /** `table`: the core's table of seen keys (bytecore/key-tables.ts); -1 until it has one. */
  | { kind: 'key'; parts: readonly CoreKeyPart[]; table: number }
  /** `left` against `right` holds in one of `orders` (less, equal, greater). */
  | { kind: 'order'; left: CoreValue; right: CoreValue; orders: readonly ('<' | '=' | '>')[] };

export interface CoreColumn {
  required: boolean;
  /** Its cells' offsets go to JavaScript, which checks them; the core does not. */
  js: boolean;
  /** Checked by the core, and its cells' offsets go to JavaScript too (for the rules). */
  offsets: boolean;
  ops: readonly ByteOp[];
  /** JSON: the property's key, and the kinds of value its ops read (JSON_KINDS' bits). */
  key?: string;
  jsonKinds?: number;
  /**
   * JSON: the property is an object the schema describes, read with the `count` columns from
   * index `first` (after the record's); `strict`: properties it does not describe stop the scan.
   */
  object?: { first: number; count: number; strict: boolean };
  /** JSON: the row of rule slots where each record's value of it goes (its index there). */
  slot?: number;
}

/** The kinds of JSON value a column's ops read (wasm/csv-core.ts jsonRecords). */
export const JSON_KINDS = { strings: 8, numbers: 16, booleans: 32, escapes: 64 } as const;

const HEADER_BYTES = 32;
const COLUMN_BYTES = 16;
const OP_BYTES = 32;
const RULE_BYTES = 32;
const ITEM_BYTES = 16;
const CELL_BYTES = 48;
const RULE_KINDS = { any: 1, count: 2, key: 3, order: 4 } as const;
const VALUE_KINDS = { number: 0, date: 1, text: 2 } as const;
const ORDER_BITS = { '<': 1, '=': 2, '>': 4 } as const;
const ALTERNATIVE_MODES = { empty: 0, notEmpty: 1, pass: 2, notIn: 3 } as const;
const KEY_PARTS = { text: 0, integer: 1, day: 2, dateKey: 3, boolean: 4 } as const;
const REQUIRED = 1;
const JS = 2;
const OFFSETS = 4;
const OBJECT = 128;
const OBJECT_STRICT = 256;
const RULE_CELL = 512;
const SLOT_SHIFT = 16;
const OP_CODES: Record<ByteOp['kind'], number> = {
  integer: 1,
  decimal: 2,
  set: 3,
  length: 4,
  date: 5,
  email: 6,
  url: 7,
  pattern: 8,
  chars: 9,
};

/**
 * `delimiter`: the CSV delimiter's code; for JSON, 1 when properties not described stop the scan.
 * `recordColumns`: JSON, the columns of the record's own properties (the first ones).
 */
export function encodeProgram(
  columns: readonly CoreColumn[],
  delimiter: number,
  maxCellBytes: number,
  rules: readonly CoreRule[] = [],
  recordColumns = columns.length,
): Uint8Array {
  const opCount = columns.reduce((n, c) => n + (c.js ? 0 : c.ops.length), 0);
  const data = new DataArea(HEADER_BYTES + columns.length * COLUMN_BYTES + opCount * OP_BYTES);
  const head = data.view;
  head.setInt32(0, recordColumns, true);
  head.setInt32(4, delimiter, true);
  head.setInt32(8, maxCellBytes, true);
  head.setInt32(12, columns.filter((c) => c.js || c.offsets).length, true);
  let op = HEADER_BYTES + columns.length * COLUMN_BYTES;
  const ruleColumns = new Set(rules.flatMap(columnsOf));
  columns.forEach((column, k) => {
    const at = HEADER_BYTES + k * COLUMN_BYTES;
    const ops = column.js ? [] : column.ops;
    const object = column.object;
    const flags =
      (column.required ? REQUIRED : 0) |
      (column.js ? JS : 0) |
      (column.offsets ? OFFSETS : 0) |
      (ruleColumns.has(k) ? RULE_CELL : 0) |
      (column.jsonKinds ?? 0) |
      (object === undefined ? 0 : OBJECT | (object.strict ? OBJECT_STRICT : 0)) |
      (column.slot === undefined ? 0 : (column.slot + 1) << SLOT_SHIFT);
    data.view.setInt32(at, flags, true);
    data.view.setInt32(at + 4, object === undefined ? op : object.first, true);
    data.view.setInt32(at + 8, object === undefined ? ops.length : object.count, true);
    if (column.key !== undefined)
      data.view.setInt32(at + 12, data.append(jsonKey(column.key)), true);
    for (const o of ops) {
      writeOp(data, op, o);
      op += OP_BYTES;
    }
  });
  if (rules.length > 0) {
    // Keys last: a key is recorded only once the record's other rules hold.
    const keys = rules.filter((r) => r.kind === 'key');
    const ordered = [...rules.filter((r) => r.kind !== 'key'), ...keys];
    const table = data.append(new Uint8Array(rules.length * RULE_BYTES));
    const cells = data.append(new Uint8Array(columns.length * CELL_BYTES));
    data.view.setInt32(16, table, true);
    data.view.setInt32(20, rules.length, true);
    data.view.setInt32(28, cells, true);
    ordered.forEach((rule, k) => writeRule(data, table + k * RULE_BYTES, rule));
  }
  return data.bytes();
}

/** The columns whose cells the rule reads. */
function columnsOf(rule: CoreRule): number[] {
  switch (rule.kind) {
    case 'any':
      return rule.alternatives.map((a) => a.column);
    case 'count':
      return [...rule.columns];
    case 'order':
      return [rule.left.column, rule.right.column];
    case 'key':
      return rule.parts.map((p) => p.column);
  }
}

function writeRule(data: DataArea, at: number, rule: CoreRule): void {
  const word = (k: number, v: number) => data.view.setInt32(at + 4 * k, v, true);
  const items: { column: number; mode: number; ops: readonly ByteOp[] }[] =
    rule.kind === 'any'
      ? rule.alternatives.map((a) => ({
          column: a.column,
          mode: ALTERNATIVE_MODES[a.mode],
          ops: a.mode === 'pass' ? a.ops : a.mode === 'notIn' ? [a.set] : [],
        }))
      : rule.kind === 'count'
        ? rule.columns.map((column) => ({ column, mode: 0, ops: [] }))
        : rule.kind === 'order'
          ? [rule.left, rule.right].map((v) => ({ ...v, mode: VALUE_KINDS[v.kind] }))
          : rule.parts.map((p) => ({ column: p.column, mode: KEY_PARTS[p.part], ops: p.ops }));
  const table = data.append(new Uint8Array(items.length * ITEM_BYTES));
  word(0, RULE_KINDS[rule.kind]);
  word(1, table);
  word(2, items.length);
  if (rule.kind === 'count') {
    word(3, rule.min);
    word(4, Math.min(rule.max, 0x7fffffff));
  }
  if (rule.kind === 'key') {
    if (rule.table < 0) throw new Error('a key rule without its table');
    word(3, rule.table);
  }
  if (rule.kind === 'order')
    word(
      3,
      rule.orders.reduce((bits, o) => bits | ORDER_BITS[o], 0),
    );
  items.forEach((item, k) => {
    const ops = data.append(new Uint8Array(item.ops.length * OP_BYTES));
    item.ops.forEach((o, j) => writeOp(data, ops + j * OP_BYTES, o));
    const itemAt = table + k * ITEM_BYTES;
    data.view.setInt32(itemAt, item.column, true);
    data.view.setInt32(itemAt + 4, item.mode, true);
    data.view.setInt32(itemAt + 8, ops, true);
    data.view.setInt32(itemAt + 12, item.ops.length, true);
  });
}

function writeOp(data: DataArea, at: number, op: ByteOp): void {
  const word = (k: number, v: number) => data.view.setInt32(at + 4 * k, v, true);
  const wide = (k: number, v: bigint) => data.view.setBigInt64(at + 4 * k, v, true);
  word(0, OP_CODES[op.kind]);
  switch (op.kind) {
    case 'integer':
      wide(1, op.min);
      wide(3, op.max);
      break;
    case 'decimal':
      word(1, op.places);
      wide(2, op.min);
      wide(4, op.max);
      break;
    case 'set': {
      const table = hashTable(data, op.values, op.fold);
      word(1, table.offset);
      word(2, table.mask);
      word(3, op.fold ? 1 : 0);
      break;
    }
    case 'length':
      word(1, op.min);
      word(2, op.max);
      break;
    case 'date': {
      const segments = new Uint8Array(op.segments.length * 2);
      op.segments.forEach((s, k) => {
        segments[2 * k] = s.kind;
        segments[2 * k + 1] = s.code;
      });
      word(1, data.append(segments));
      word(2, op.segments.length);
      word(3, op.min);
      word(4, op.max);
      break;
    }
    case 'pattern': {
      const items = new Uint8Array(op.items.length * 24);
      const view = new DataView(items.buffer);
      op.items.forEach((item, k) => {
        items.set(item.ascii, 24 * k);
        view.setInt32(24 * k + 16, item.min, true);
        view.setInt32(24 * k + 20, item.max, true);
      });
      word(1, data.append(items));
      word(2, op.items.length);
      break;
    }
    case 'chars':
      word(1, data.append(op.ascii));
      break;
    case 'email':
    case 'url':
      break;
  }
}

const encoder = new TextEncoder();

/** FNV-1a over the bytes, ASCII letters in lower case with `fold` (as the core hashes a cell). */
export function fnv1a(bytes: Uint8Array, fold: boolean): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) {
    let b = bytes[i] as number;
    if (fold && b >= 65 && b <= 90) b += 32;
    hash = Math.imul(hash ^ b, 16777619) >>> 0;
  }
  return hash;
}

/**
 * A JSON key as the core compares it with a key's bytes in the file; a key JSON writes with
 * escapes, or with other than printable ASCII, has length -1: it never matches (a record that
 * holds it is left to JavaScript).
 */
function jsonKey(key: string): Uint8Array {
  if (/^[\x20\x21\x23-\x5b\x5d-\x7e]*$/.test(key)) return lengthPrefixed(encoder.encode(key));
  const entry = lengthPrefixed(new Uint8Array(0));
  new DataView(entry.buffer).setInt32(0, -1, true);
  return entry;
}

/** A set's value or a JSON key: its length, then its bytes. */
function lengthPrefixed(bytes: Uint8Array): Uint8Array {
  const entry = new Uint8Array(4 + bytes.length);
  new DataView(entry.buffer).setInt32(0, bytes.length, true);
  entry.set(bytes, 4);
  return entry;
}

/** Open addressing, at most half full; a slot holds an entry's offset (length, bytes) or 0. */
function hashTable(
  data: DataArea,
  values: readonly string[],
  fold: boolean,
): { offset: number; mask: number } {
  const distinct = [...new Set(values)];
  let size = 2;
  while (size < distinct.length * 2) size *= 2;
  const slots = new Int32Array(size);
  for (const value of distinct) {
    const bytes = encoder.encode(value);
    let slot = fnv1a(bytes, fold) & (size - 1);
    while (slots[slot] !== 0) slot = (slot + 1) & (size - 1);
    slots[slot] = data.append(lengthPrefixed(bytes));
  }
  const table = new Uint8Array(slots.buffer);
  return { offset: data.append(table), mask: size - 1 };
}

/** A growing byte area whose first `fixed` bytes are the header, columns and ops. */
class DataArea {
  private buffer: Uint8Array;
  private length: number;
  view: DataView;

  constructor(fixed: number) {
    this.buffer = new Uint8Array(Math.max(256, fixed * 2));
    this.length = fixed;
    this.view = new DataView(this.buffer.buffer);
  }

  /** Copies `bytes` in, 4-byte aligned; returns their offset. */
  append(bytes: Uint8Array): number {
    const at = (this.length + 3) & ~3;
    if (at + bytes.length > this.buffer.length) {
      const grown = new Uint8Array(Math.max(this.buffer.length * 2, at + bytes.length));
      grown.set(this.buffer);
      this.buffer = grown;
      this.view = new DataView(grown.buffer);
    }
    this.buffer.set(bytes, at);
    this.length = at + bytes.length;
    return at;
  }

  bytes(): Uint8Array {
    return this.buffer.subarray(0, (this.length + 3) & ~3);
  }
}
