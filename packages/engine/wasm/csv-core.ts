// The CSV byte core (AssemblyScript, compiled by scripts/build-wasm.js; decisions 248, 249).
//
// It reads the bytes of whole CSV records and answers one thing: how many records in a row are
// well-formed and clean, and where the next one starts. It never reports an issue. Whatever it
// does not handle, or would have to report (malformed UTF-8, text after a closing quote, a quote
// left open, a lone CR, a cell count other than the header's, a value that fails or that it
// cannot decide, a cross-field rule it cannot prove holds), stops it at that record, which the
// JavaScript reader then reads the usual way. So its only
// duty is never to call clean a record that the JavaScript checks would not; tests hold it to
// that (packages/engine/src/bytecore).
//
// Memory is laid out by the caller (src/bytecore/csv-program.ts writes the program): a header,
// a column table, and per column a list of checks ("ops") that must all pass. Columns marked JS
// are not checked here: the offsets of their cells go to `out` for the caller to check; columns
// marked OFFSETS are checked here and their offsets go to `out` too (the caller's rules read them).
// Then the rules (src/bytecore/rule-ops.ts), each a condition on the record's cells that proves a
// cross-field rule holds, or a uniqueTogether key looked up and recorded in its table of seen
// keys, which lives here too (see "key tables" below).

const LF: u8 = 10;
const CR: u8 = 13;
const QUOTE: u8 = 34;

// Program header, in i32 words: column count, delimiter byte, longest cell in bytes, columns
// marked JS or OFFSETS, the rules' offset, their count, a word not used, the offset of a scratch
// area (CELL_BYTES a column) where the rules find the record's cells.
const HEADER_BYTES = 32;
const COLUMN_BYTES = 16;
const OP_BYTES = 32;
const RULE_BYTES = 32;
const ITEM_BYTES = 16;
// A cell for the rules: start, end, doubled quotes, UTF-8 continuation bytes, then what its
// column's check read: the date key (i64; -1: none), the number (i64) and its op (0: none).
const CELL_BYTES = 48;

// Rule kinds (each 32 bytes: kind, items' offset, item count, then two parameters). A rule in the
// core is a condition that proves the JavaScript rule holds for the record; where it cannot
// prove it, the record stops the scan and the JavaScript reads it.
const RULE_ANY = 1; // one of the items (alternatives) holds
const RULE_COUNT = 2; // between parameters 1 and 2 of the items' columns are not empty
const RULE_KEY = 3; // the items' cells hashed as uniqueTogether does, parameter 1's table (below)
const RULE_ORDER = 4; // item 1's value against item 2's: parameter 1 says which orders hold

// How a RULE_ORDER item reads its value (item: column, kind, ops' offset, op count).
const VALUE_NUMBER = 0; // a decimal of at most 9 + 9 digits, exactly
const VALUE_DATE = 1; // the key of a date in the op's format
const VALUE_TEXT = 2; // its bytes (in order only when ASCII)
// Orders, as parameter 1's bits.
const LESS = 1;
const EQUAL = 2;
const GREATER = 4;

// How an alternative of RULE_ANY reads its column (item: column, mode, ops' offset, op count).
const ALT_EMPTY = 0;
const ALT_NOT_EMPTY = 1;
const ALT_PASS = 2; // not empty, and every op passes
const ALT_NOT_IN = 3; // not empty, and certainly not in the set of its one op

// How a RULE_KEY part is hashed (item: column, part, ops' offset, 0), as validate/cross-field.ts
// hashInto takes it in; anything else stops the scan.
const PART_TEXT = 0; // ASCII, no doubled quotes: its characters
const PART_INTEGER = 1; // a canonical integer of at most 15 digits: its characters
const PART_DAY = 2; // YYYY-MM-DD (op: the date's): the number yyyymmdd
const PART_DATE_KEY = 3; // another plain date format (op: the date's): yyyymmddhhmmss
const PART_BOOLEAN = 4; // ops: the true spellings' set, then the false ones': 1 or 0

// Column flags.
const REQUIRED = 1;
const JS = 2;
const OFFSETS = 4;
const RULE_CELL = 512; // a rule reads the cell: it goes to the scratch area (CSV)

// Op codes; their parameters are the op's next seven i32 words (see each check).
const OP_INTEGER = 1;
const OP_DECIMAL = 2;
const OP_SET = 3;
const OP_LENGTH = 4;
const OP_DATE = 5;
const OP_EMAIL = 6;
const OP_URL = 7;
const OP_PATTERN = 8;
const OP_CHARS = 9;

let resultEnd: i32 = 0;
let resultRows: i32 = 0;
let resultLastRow: i32 = 0;
let resultUnits: i32 = 0;
let resultSplit = false;

/**
 * Grows the memory to hold `bytes` after the module's own data; returns where they start. The
 * key tables' arena, above them, moves up when they grow into it.
 */
export function reserve(bytes: i32): i32 {
  const base = (<i32>__heap_base + 15) & ~15;
  const needed = <i64>base + <i64>bytes + 64;
  if (needed > MAX_ADDRESS) return -1;
  const end = (<i32>needed + 15) & ~15;
  if (arenaEnd > arenaStart && end > arenaStart) {
    const shift = end - arenaStart;
    if (!memoryTo(<i64>arenaEnd + shift)) return -1;
    memory.copy(arenaStart + shift, arenaStart, arenaEnd - arenaStart);
    for (let t = 0; t < keyTableCount; t++) {
      const h = keyTableHeaders + t * KEY_TABLE_BYTES;
      store<i32>(h, load<i32>(h, 8) + shift, 8);
      store<i32>(h, load<i32>(h, 12) + shift, 12);
      store<i32>(h, load<i32>(h, 16) + shift, 16);
    }
    arenaStart += shift;
    arenaEnd += shift;
  } else if (!memoryTo(end)) {
    return -1;
  }
  if (end > scanEnd) scanEnd = end;
  return base;
}

/** Addresses stay below 2 GiB: the core computes them in i32. */
const MAX_ADDRESS: i64 = 0x7fff0000;

/** Grows the memory to at least `end` bytes; false when it cannot. */
function memoryTo(end: i64): bool {
  if (end > MAX_ADDRESS) return false;
  const pages = <i32>((end + 0xffff) >> 16);
  const have = memory.size();
  return pages <= have || memory.grow(pages - have) >= 0;
}

// ---- key tables: uniqueTogether's seen keys (decision 256) ----
//
// The combinations a uniqueTogether rule has seen live here, so that a record's key is looked up
// and recorded where it is hashed, with nothing handed to JavaScript per record; JavaScript reads
// and fills the same tables through the exports below (bytecore/key-tables.ts). A table is open
// addressing over the first hash: a 16-bit tag per slot from the second hash (0: empty), and the
// entries in the order they came (first hash, second hash, row, slot: 16 bytes). A new key, the
// usual case, reads tags until an empty one, writes it, and appends its entry: the tags are 4
// bytes a key, which mostly stay in the cache and the TLB, where the tables of hashes and rows
// that the key would also touch are a trip to memory each on a file of a million keys (measured:
// decision 256). Which entry a slot holds (a word per slot) is written only when a tag matches
// and the entry must be compared, for all the entries since the last time, in one loop.
//
// Header words: slot count (a power of 2), entries, tags' address, slots' address, entries'
// address, room for entries, closed (1: the table could not grow, and JavaScript holds the keys
// from then on), entries whose slot is written.
//
// They lie in an arena above what reserve() hands out; a table that grows takes new space at its
// end (the old space is not reused: with keyExpect() a table grows at most a few times). Memory
// past the arena's end has never been written, so what it takes is zero.
const MAX_KEY_TABLES = 64;
const KEY_TABLE_BYTES = 32;
const KEY_ENTRY_BYTES = 16;
const INITIAL_SLOTS = 1024;
/** keyExpect() makes a table at most this many slots at once; past it, it doubles as it fills. */
const MAX_EXPECTED_SLOTS = 1 << 22;
const keyTableHeaders = <i32>memory.data(MAX_KEY_TABLES * KEY_TABLE_BYTES, 16);
let keyTableCount = 0;
let scanEnd = 0;
let arenaStart = 0;
let arenaEnd = 0;

/** `bytes` of the arena, 16-aligned; -1 when the memory cannot grow. */
function arenaTake(bytes: i64): i32 {
  if (arenaEnd == 0) {
    arenaStart = max(scanEnd, (<i32>__heap_base + 15) & ~15);
    arenaEnd = arenaStart;
  }
  const end = (<i64>arenaEnd + bytes + 15) & ~15;
  if (!memoryTo(end)) return -1;
  const at = arenaEnd;
  arenaEnd = <i32>end;
  return at;
}

/** A new, empty table; its number, or -1 when there is no room for it. */
export function keyTable(): i32 {
  if (keyTableCount == MAX_KEY_TABLES) return -1;
  const h = keyTableHeaders + keyTableCount * KEY_TABLE_BYTES;
  memory.fill(h, 0, KEY_TABLE_BYTES);
  if (!keySlots(h, INITIAL_SLOTS) || !keyEntries(h, INITIAL_SLOTS / 2)) return -1;
  return keyTableCount++;
}

/** The table's entries (keyEntriesAt: where they lie, KEY_ENTRY_BYTES each). */
export function keyCount(t: i32): i32 {
  return load<i32>(keyTableHeaders + t * KEY_TABLE_BYTES, 4);
}

export function keyEntriesAt(t: i32): i32 {
  return load<i32>(keyTableHeaders + t * KEY_TABLE_BYTES, 16);
}

/** From now on every lookup of table t answers -1 (JavaScript keeps its keys). */
export function keyClose(t: i32): void {
  store<i32>(keyTableHeaders + t * KEY_TABLE_BYTES, 1, 24);
}

/** Makes room for about `values` keys at once (a hint: it may not grow). */
export function keyExpect(t: i32, values: i32): void {
  const h = keyTableHeaders + t * KEY_TABLE_BYTES;
  let slots = load<i32>(h);
  while (<i64>slots < <i64>values * 2 && slots < MAX_EXPECTED_SLOTS) slots <<= 1;
  if (slots > load<i32>(h) && keySlots(h, slots)) keyEntries(h, slots / 2);
}

/**
 * Records the key (a, b) at `row` and returns 0, or returns the row that first had it; -1 when
 * the table is closed or cannot grow.
 */
export function keyFirstRow(t: i32, a: u32, b: u32, row: i32): i32 {
  const h = keyTableHeaders + t * KEY_TABLE_BYTES;
  if (load<i32>(h, 24) != 0) return -1;
  const size = load<i32>(h, 4);
  let capacity = load<i32>(h);
  if ((size + 1) * 2 > capacity) {
    if (!keySlots(h, capacity * 2)) return -1;
    capacity *= 2;
  }
  if (size == load<i32>(h, 20) && !keyEntries(h, size * 2)) return -1;
  const mask = <u32>(capacity - 1);
  const tags = load<i32>(h, 8);
  const entries = load<i32>(h, 16);
  const tag = <u16>(b >> 16 == 0 ? 1 : b >> 16);
  for (let slot = a & mask; ; slot = (slot + 1) & mask) {
    const found = load<u16>(tags + (slot << 1));
    if (found == 0) {
      store<u16>(tags + (slot << 1), tag);
      const e = entries + size * KEY_ENTRY_BYTES;
      store<u32>(e, a);
      store<u32>(e, b, 4);
      store<i32>(e, row, 8);
      store<u32>(e, slot, 12);
      store<i32>(h, size + 1, 4);
      return 0;
    }
    if (found == tag) {
      keyPlace(h);
      const e = entries + load<i32>(load<i32>(h, 12) + (slot << 2)) * KEY_ENTRY_BYTES;
      if (load<u32>(e) == a && load<u32>(e, 4) == b) return load<i32>(e, 8);
    }
  }
  return -1;
}

/** Writes the slots of the entries that came since the last time. */
function keyPlace(h: i32): void {
  const size = load<i32>(h, 4);
  const slots = load<i32>(h, 12);
  let e = load<i32>(h, 16) + load<i32>(h, 28) * KEY_ENTRY_BYTES;
  for (let i = load<i32>(h, 28); i < size; i++, e += KEY_ENTRY_BYTES)
    store<i32>(slots + (load<i32>(e, 12) << 2), i);
  store<i32>(h, size, 28);
}

/** New tags and slots, `capacity` of them, the entries' tags placed (their slots not yet). */
function keySlots(h: i32, capacity: i32): bool {
  const tags = arenaTake(<i64>capacity * 6);
  if (tags < 0) return false;
  const mask = <u32>(capacity - 1);
  const size = load<i32>(h, 4);
  let e = load<i32>(h, 16);
  for (let i = 0; i < size; i++, e += KEY_ENTRY_BYTES) {
    let slot = load<u32>(e) & mask;
    while (load<u16>(tags + (slot << 1)) != 0) slot = (slot + 1) & mask;
    const b = load<u32>(e, 4);
    store<u16>(tags + (slot << 1), <u16>(b >> 16 == 0 ? 1 : b >> 16));
    store<u32>(e, slot, 12);
  }
  store<i32>(h, capacity);
  store<i32>(h, tags, 8);
  store<i32>(h, tags + (capacity << 1), 12);
  store<i32>(h, 0, 28);
  return true;
}

/** Room for `room` entries, the table's copied over. */
function keyEntries(h: i32, room: i32): bool {
  const size = load<i32>(h, 4);
  if (room <= load<i32>(h, 20)) return true;
  const entries = arenaTake(<i64>room * KEY_ENTRY_BYTES);
  if (entries < 0) return false;
  if (size > 0) memory.copy(entries, load<i32>(h, 16), size * KEY_ENTRY_BYTES);
  store<i32>(h, entries, 16);
  store<i32>(h, room, 20);
  return true;
}

/** Offset, from `input`, where the last scan stopped: after its last clean record. */
export function scannedEnd(): i32 {
  return resultEnd;
}

/** Rows read by the last scan up to scannedEnd: its records and empty lines (spreadsheet rows). */
export function scannedRows(): i32 {
  return resultRows;
}

/** The text of the last scan's bytes up to scannedEnd, in UTF-16 code units. */
export function scannedUnits(): i32 {
  return resultUnits;
}

/**
 * The last scan ended early on purpose, not at a record it stops on: with columns whose offsets
 * go out, a record with non-ASCII text is scanned on its own, so that the caller decodes the
 * others as one-byte text (V8 keeps a string with any other character two bytes a character).
 */
export function scannedSplit(): bool {
  return resultSplit;
}

/** The row, counted from input's first (0), of the last scan's last clean record. */
export function scannedLastRow(): i32 {
  return resultLastRow;
}

/**
 * Reads clean records from input[0, len), at most maxRecords of them, and returns how many. The
 * 16 bytes after the input must be readable (their content does not matter). Unless `ascii` (a
 * file in another encoding than UTF-8), cells may hold UTF-8 characters (well-formed, as the
 * decoder would read them). With columns marked JS or OFFSETS, each clean record writes to `out`:
 * its start (a byte offset), its row (0 for the first), the UTF-16 units before it less its
 * start, then the start and end of each such column's cell in UTF-16 units of the decoded text.
 * `firstRow`: the row of the input's first line, for the keys' tables.
 */
export function scan(
  prog: i32,
  input: i32,
  len: i32,
  out: i32,
  maxRecords: i32,
  ascii: bool,
  firstRow: i32,
): i32 {
  const columns = load<i32>(prog);
  const delim = <u8>load<i32>(prog, 4);
  const maxCell = load<i32>(prog, 8);
  const outColumns = load<i32>(prog, 12);
  const ruleCount = load<i32>(prog, 20);
  const cells = prog + load<i32>(prog, 28);
  const recordOut = outColumns > 0;
  const vDelim = i8x16.splat(<i8>delim);
  const vLF = i8x16.splat(<i8>LF);
  const vCR = i8x16.splat(<i8>CR);
  const vZero = i8x16.splat(0);
  let p = 0;
  let rows = 0;
  let records = 0;
  let outAt = out;
  let end = 0;
  let endRows = 0;
  let lastRow = 0;
  // Bytes that are not UTF-16 units of their own: all but one of a character's (two of four).
  let extra = 0;
  let endExtra = 0;
  const asciiOnly = ascii;
  let split = false;
  keyStopped = false;
  // No columns (a header read as none): no record is clean, and none would move p.
  while (records < maxRecords && p < len && columns > 0) {
    let c = load<u8>(input + p);
    if (c == LF) {
      p++;
      rows++;
      end = p;
      endRows = rows;
      endExtra = extra;
      continue;
    }
    if (c == CR) {
      if (p + 1 < len && load<u8>(input + p + 1) == LF) {
        p += 2;
        rows++;
        end = p;
        endRows = rows;
        endExtra = extra;
        continue;
      }
      break;
    }
    let at = outAt;
    if (recordOut) {
      store<i32>(at, p);
      store<i32>(at, rows, 4);
      store<i32>(at, -extra, 8);
      at += 12;
    }
    let ok = true;
    for (let col = 0; col < columns; col++) {
      let cellStart = p;
      let cellEnd = p;
      const extraBefore = extra;
      // Quotes written twice inside a quoted cell: each stands for one.
      let escapes = 0;
      // UTF-8 continuation bytes in the cell: it has that many fewer characters than bytes.
      let continuations = 0;
      if (p < len && load<u8>(input + p) == QUOTE) {
        // Quoted: line breaks inside are the cell's (the record is still one row), as is
        // well-formed UTF-8.
        cellStart = p + 1;
        let q = cellStart;
        while (q < len) {
          const b = load<u8>(input + q);
          if (b == QUOTE) {
            if (q + 1 < len && load<u8>(input + q + 1) == QUOTE) {
              escapes++;
              q += 2;
              continue;
            }
            break;
          }
          if (b >= 0x80) {
            const n = asciiOnly ? 0 : utf8Length(input + q, input + len);
            if (n == 0) {
              ok = false;
              break;
            }
            continuations += n - 1;
            extra += n == 4 ? 2 : n - 1;
            q += n;
            continue;
          }
          q++;
        }
        if (!ok || q >= len) {
          ok = false;
          break;
        }
        cellEnd = q;
        p = q + 1;
      } else {
        let more = true;
        while (more) {
          // Sixteen bytes at a time to the first delimiter, line break or non-ASCII byte. The
          // caller leaves 16 bytes of room after the input, so the last load may read past
          // `len`: what it finds there is cut back to `len`.
          for (;;) {
            const v = v128.load(input + p);
            const hit = v128.or(
              v128.or(i8x16.eq(v, vDelim), i8x16.eq(v, vLF)),
              v128.or(i8x16.eq(v, vCR), i8x16.lt_s(v, vZero)),
            );
            const bits = i8x16.bitmask(hit);
            if (bits != 0) {
              p += ctz(bits);
              break;
            }
            p += 16;
            if (p >= len) break;
          }
          if (p > len) p = len;
          more = p < len && load<u8>(input + p) >= 0x80;
          if (more) {
            const n = asciiOnly ? 0 : utf8Length(input + p, input + len);
            if (n == 0) {
              ok = false;
              break;
            }
            continuations += n - 1;
            extra += n == 4 ? 2 : n - 1;
            p += n;
          }
        }
        if (!ok) break;
        cellEnd = p;
      }
      if (p >= len || cellEnd - cellStart > maxCell) {
        ok = false;
        break;
      }
      const column = prog + HEADER_BYTES + col * COLUMN_BYTES;
      const flags = load<i32>(column);
      const cell = cells + col * CELL_BYTES;
      const ruleCell = (flags & RULE_CELL) != 0;
      if (ruleCell) {
        store<i32>(cell, cellStart);
        store<i32>(cell, cellEnd, 4);
        store<i32>(cell, escapes, 8);
        store<i32>(cell, continuations, 12);
        heldDateKey = -1;
        heldNumberOp = 0;
      }
      if (cellEnd == cellStart) {
        if ((flags & REQUIRED) != 0) {
          ok = false;
          break;
        }
      } else if ((flags & JS) == 0) {
        if (!checkCell(prog, column, input + cellStart, input + cellEnd, escapes, continuations)) {
          ok = false;
          break;
        }
      }
      if (ruleCell) {
        store<i64>(cell, heldDateKey, 16);
        store<i64>(cell, heldNumber, 24);
        store<i32>(cell, heldNumberOp, 32);
      }
      if ((flags & (JS | OFFSETS)) != 0) {
        // JavaScript reads a cell where it lies: it would see both quotes.
        if (escapes != 0) {
          ok = false;
          break;
        }
        store<i32>(at, cellStart - extraBefore);
        store<i32>(at, cellEnd - extra, 4);
        at += 8;
      }
      const b = load<u8>(input + p);
      if (col < columns - 1) {
        if (b != delim) {
          ok = false;
          break;
        }
        p++;
      } else if (b == LF) {
        p++;
      } else if (b == CR && p + 1 < len && load<u8>(input + p + 1) == LF) {
        p += 2;
      } else {
        ok = false;
        break;
      }
    }
    if (!ok) break;
    if (ruleCount > 0) {
      // Where the scan ends if a key of this record turns out to be seen before (keysResolve).
      store<i32>(keyState, end);
      store<i32>(keyState, endRows, 4);
      store<i32>(keyState, endExtra, 8);
      store<i32>(keyState, records, 12);
      store<i32>(keyState, lastRow, 16);
      if (!rulesHold(prog, input, cells, firstRow + rows)) break;
    }
    if (outColumns > 0 && extra != endExtra) {
      // Non-ASCII: on its own in a scan. Not this one if it took records; the next, then.
      split = true;
      if (records > 0) break;
    }
    records++;
    lastRow = rows;
    rows++;
    end = p;
    endRows = rows;
    endExtra = extra;
    outAt = at;
    if (split) break;
    if (keysPending >= KEY_BATCH && !keysResolve()) break;
  }
  if (keysPending > 0) keysResolve();
  if (keyStopped) {
    end = load<i32>(keyState);
    endRows = load<i32>(keyState, 4);
    endExtra = load<i32>(keyState, 8);
    records = load<i32>(keyState, 12);
    lastRow = load<i32>(keyState, 16);
    split = false;
  }
  resultEnd = end;
  resultRows = endRows;
  resultLastRow = lastRow;
  resultUnits = end - endExtra;
  resultSplit = split;
  return records;
}

/**
 * Every op of the column passes on the non-empty cell [from, to), in which `escapes` quotes are
 * written twice and `continuations` bytes continue UTF-8 characters: only the length and the
 * characters are read past escapes, and only the length and exact set membership past UTF-8.
 */
function checkCell(
  prog: i32,
  column: i32,
  from: i32,
  to: i32,
  escapes: i32,
  continuations: i32,
): bool {
  let op = prog + load<i32>(column, 4);
  const count = load<i32>(column, 8);
  const length = to - from - escapes - continuations;
  for (let k = 0; k < count; k++, op += OP_BYTES) {
    const code = load<i32>(op);
    if (escapes != 0 && code != OP_LENGTH && code != OP_CHARS) return false;
    if (
      continuations != 0 &&
      code != OP_LENGTH &&
      !(code == OP_SET && escapes == 0 && load<i32>(op, 12) == 0)
    )
      return false;
    let ok = false;
    switch (code) {
      case OP_INTEGER:
        ok = isInteger(op, from, to);
        break;
      case OP_DECIMAL:
        ok = isDecimal(op, from, to);
        break;
      case OP_SET:
        ok = inSet(prog, op, from, to);
        break;
      case OP_LENGTH:
        ok = length >= load<i32>(op, 4) && length <= load<i32>(op, 8);
        break;
      case OP_DATE:
        ok = isDate(prog, op, from, to);
        break;
      case OP_EMAIL:
        ok = isEmail(from, to);
        break;
      case OP_URL:
        ok = isPlainUrl(from, to);
        break;
      case OP_PATTERN:
        ok = matchesItems(prog, op, from, to);
        break;
      case OP_CHARS:
        ok = allInBitmap(prog + load<i32>(op, 4), from, to);
        break;
    }
    if (!ok) return false;
  }
  return true;
}

/**
 * Every rule of the program provably holds for the record whose cells the scratch area holds,
 * the record at `row`: its keys are each new to their table (and recorded there at `row`) or
 * first seen at `row`. False stops the scan.
 */
function rulesHold(prog: i32, input: i32, cells: i32, row: i32): bool {
  let rule = prog + load<i32>(prog, 16);
  const count = load<i32>(prog, 20);
  for (let r = 0; r < count; r++, rule += RULE_BYTES) {
    const kind = load<i32>(rule);
    let item = prog + load<i32>(rule, 4);
    const items = load<i32>(rule, 8);
    if (kind == RULE_ANY) {
      let holds = false;
      for (let k = 0; k < items && !holds; k++, item += ITEM_BYTES)
        holds = alternativeHolds(prog, input, cells, item);
      if (!holds) return false;
    } else if (kind == RULE_COUNT) {
      let filled = 0;
      for (let k = 0; k < items; k++, item += ITEM_BYTES) {
        const cell = cells + load<i32>(item) * CELL_BYTES;
        if (load<i32>(cell, 4) != load<i32>(cell)) filled++;
      }
      if (filled < load<i32>(rule, 12) || filled > load<i32>(rule, 16)) return false;
    } else if (kind == RULE_ORDER) {
      if (!orderHolds(prog, input, cells, item, load<i32>(rule, 12))) return false;
    } else if (!keyHolds(prog, input, cells, item, items, load<i32>(rule, 12), row)) {
      return false;
    }
  }
  return true;
}

/**
 * Compare of two fields: either cell empty (the rule then holds), or both values read and in an
 * order among `orders`. A value it cannot read stops the scan.
 */
function orderHolds(prog: i32, input: i32, cells: i32, item: i32, orders: i32): bool {
  const left = cells + load<i32>(item) * CELL_BYTES;
  const right = cells + load<i32>(item + ITEM_BYTES) * CELL_BYTES;
  const a = input + load<i32>(left);
  const aEnd = input + load<i32>(left, 4);
  const b = input + load<i32>(right);
  const bEnd = input + load<i32>(right, 4);
  if (a == aEnd || b == bEnd) return true;
  if (load<i32>(left, 8) != 0 || load<i32>(right, 8) != 0) return false;
  const kind = load<i32>(item, 4);
  let order = 0;
  if (kind == VALUE_TEXT) {
    const ascii = load<i32>(left, 12) == 0 && load<i32>(right, 12) == 0;
    if (!ascii && orders != EQUAL && orders != (LESS | GREATER)) return false;
    order = compareBytes(a, aEnd, b, bEnd);
  } else {
    let x: i64 = 0;
    let y: i64 = 0;
    if (kind == VALUE_NUMBER) {
      x = decimalOf(a, aEnd, 9);
      if (!decimalRead) return false;
      y = decimalOf(b, bEnd, 9);
      if (!decimalRead) return false;
    } else {
      if (load<i32>(left, 12) != 0 || load<i32>(right, 12) != 0) return false;
      x = load<i64>(left, 16);
      if (x < 0) x = dateKey(prog, prog + load<i32>(item, 8), a, aEnd);
      y = load<i64>(right, 16);
      if (y < 0) y = dateKey(prog, prog + load<i32>(item + ITEM_BYTES, 8), b, bEnd);
      if (x < 0 || y < 0) return false;
    }
    order = x < y ? -1 : x > y ? 1 : 0;
  }
  const bit = order < 0 ? LESS : order > 0 ? GREATER : EQUAL;
  return (orders & bit) != 0;
}

/** Byte order of two strings: negative, zero or positive. */
function compareBytes(a: i32, aEnd: i32, b: i32, bEnd: i32): i32 {
  const n = min(aEnd - a, bEnd - b);
  for (let k = 0; k < n; k++) {
    const d = <i32>load<u8>(a + k) - <i32>load<u8>(b + k);
    if (d != 0) return d;
  }
  return aEnd - a - (bEnd - b);
}

let decimalRead = false;

/**
 * `[+-]?[0-9]{0,9}(\.[0-9]{0,places})?` with a digit (places ≤ 9), in billionths; decimalRead
 * says whether it was one (a negative zero is left to JavaScript).
 */
function decimalOf(from: i32, to: i32, places: i32): i64 {
  decimalRead = false;
  let i = from;
  let negative = false;
  const sign = load<u8>(i);
  if (sign == 45 || sign == 43) {
    negative = sign == 45;
    i++;
  }
  let value: i64 = 0;
  const intStart = i;
  while (i < to && isDigit(load<u8>(i))) {
    value = value * 10 + <i64>(load<u8>(i) - 48);
    i++;
  }
  const intDigits = i - intStart;
  if (intDigits > 9) return 0;
  let fracDigits = 0;
  if (i < to && load<u8>(i) == 46) {
    i++;
    while (i < to && isDigit(load<u8>(i))) {
      value = value * 10 + <i64>(load<u8>(i) - 48);
      fracDigits++;
      i++;
    }
  }
  if (i != to || intDigits + fracDigits == 0 || fracDigits > places) return 0;
  for (let k = fracDigits; k < 9; k++) value *= 10;
  if (negative) {
    if (value == 0) return 0;
    value = -value;
  }
  decimalRead = true;
  return value;
}

function alternativeHolds(prog: i32, input: i32, cells: i32, item: i32): bool {
  const cell = cells + load<i32>(item) * CELL_BYTES;
  const from = input + load<i32>(cell);
  const to = input + load<i32>(cell, 4);
  const mode = load<i32>(item, 4);
  if (mode == ALT_EMPTY) return from == to;
  if (from == to) return false;
  if (mode == ALT_NOT_EMPTY) return true;
  const escapes = load<i32>(cell, 8);
  const continuations = load<i32>(cell, 12);
  const ops = prog + load<i32>(item, 8);
  if (mode == ALT_PASS) {
    // A bound on a value the column's check read already: compared without reading it again.
    if (load<i32>(item, 12) == 1) {
      const code = load<i32>(ops);
      if (code == OP_DATE) {
        const key = load<i64>(cell, 16);
        if (key >= 0) {
          const day = <i32>(key / 1_000_000);
          return day >= load<i32>(ops, 12) && day <= load<i32>(ops, 16);
        }
      } else if (code == load<i32>(cell, 32)) {
        const value = load<i64>(cell, 24);
        const bounds = code == OP_INTEGER ? 4 : 8;
        return value >= load<i64>(ops + bounds) && value <= load<i64>(ops + bounds + 8);
      }
    }
    // checkCell reads a column's ops' offset and count at its words 1 and 2: the item's 2 and 3.
    return checkCell(prog, item + 4, from, to, escapes, continuations);
  }
  // ALT_NOT_IN: compared on its bytes as written, so not past doubled quotes, nor past UTF-8
  // where ASCII letters are folded.
  if (escapes != 0 || (continuations != 0 && load<i32>(ops, 12) != 0)) return false;
  return !inSet(prog, ops, from, to);
}

// KeyHash of validate/rules/unique.ts: two 32-bit murmur-style lanes, then each mixed.
let laneA: u32 = 0;
let laneB: u32 = 0;

function unit(c: u32): void {
  let k = c * 0xcc9e2d51;
  k = rotl<u32>(k, 15);
  let a = laneA ^ (k * 0x1b873593);
  a = rotl<u32>(a, 13);
  laneA = a * 5 + 0xe6546b64;
  const b = laneB + c * 0xc2b2ae3d;
  laneB = rotl<u32>(b, 17) * 0x27d4eb2f;
}

/** KeyHash.span of ASCII text: its length, then its characters two to a unit. */
function unitBytes(from: i32, to: i32): void {
  unit(<u32>(to - from));
  let i = from;
  for (; i + 1 < to; i += 2) unit((<u32>load<u8>(i)) | ((<u32>load<u8>(i + 1)) << 16));
  if (i < to) unit(<u32>load<u8>(i));
}

function unitNumber(n: i64): void {
  unit(<u32>n);
  unit(<u32>(n >> 32));
}

function mix(h: u32): u32 {
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  return h ^ (h >> 16);
}

/**
 * The key's parts hashed and looked up in table `table`: true when a part is empty (the
 * combination is not compared) or the key is new or first seen at `row`; false when it was seen
 * before, or a part is one the core does not hash.
 */
function keyHolds(
  prog: i32,
  input: i32,
  cells: i32,
  item: i32,
  items: i32,
  table: i32,
  row: i32,
): bool {
  laneA = 0x9747b28c;
  laneB = 0x165667b1;
  for (let k = 0; k < items; k++, item += ITEM_BYTES) {
    const cell = cells + load<i32>(item) * CELL_BYTES;
    const from = input + load<i32>(cell);
    const to = input + load<i32>(cell, 4);
    if (from == to) return true;
    if (load<i32>(cell, 8) != 0 || load<i32>(cell, 12) != 0) return false;
    const part = load<i32>(item, 4);
    const ops = prog + load<i32>(item, 8);
    if (part == PART_TEXT) {
      unitBytes(from, to);
    } else if (part == PART_INTEGER) {
      if (!isCanonicalInteger(from, to)) return false;
      unitBytes(from, to);
    } else if (part == PART_BOOLEAN) {
      if (inSet(prog, ops, from, to)) unitNumber(1);
      else if (inSet(prog, ops + OP_BYTES, from, to)) unitNumber(0);
      else return false;
    } else {
      let key = load<i64>(cell, 16);
      if (key < 0) key = dateKey(prog, ops, from, to);
      if (key < 0) return false;
      unitNumber(part == PART_DAY ? key / 1_000_000 : key);
    }
  }
  const at = pendingKeys + keysPending * PENDING_BYTES;
  store<i32>(at, table);
  store<u32>(at, mix(laneA), 4);
  store<u32>(at, mix(laneB ^ 0x85ebca77), 8);
  store<i32>(at, row, 12);
  // Three words at a time: memory.copy is a call out of the module, too dear once a record.
  store<i64>(at, load<i64>(keyState), 16);
  store<i64>(at, load<i64>(keyState, 8), 24);
  store<i64>(at, load<i64>(keyState, 16), 32);
  keysPending++;
  return true;
}

// A scan defers its keys' lookups and makes them KEY_BATCH at a time (keysResolve): a lookup is
// a trip to memory on a large table, and a loop that makes only lookups lets the processor make
// many of those trips at once, where one per record makes them one after another (measured:
// decision 256). Each key waits with the scan's state before its record (keyState: the words
// that scan keeps of where it ends), to which the scan goes back when the key was seen before;
// the keys after it are not recorded.
const KEY_BATCH = 64;
const KEY_STATE_BYTES = 24;
const PENDING_BYTES = 16 + KEY_STATE_BYTES;
/** Room for a batch, and the keys of one more record (at most MAX_KEY_TABLES). */
const pendingKeys = <i32>memory.data((KEY_BATCH + MAX_KEY_TABLES) * PENDING_BYTES, 16);
let keysPending = 0;
const keyState = <i32>memory.data(KEY_STATE_BYTES, 16);
/** The last keysResolve() found a key seen before; keyState then holds the state before it. */
let keyStopped = false;
/** Read by nothing: keeps the loads of keysResolve's first loop from being dropped. */
let touched: u32 = 0;

/**
 * The pending keys looked up and recorded in order: true when each is new or first seen in its
 * own row; else false, with the scan's state before the first that is not in keyState.
 */
function keysResolve(): bool {
  const count = keysPending;
  keysPending = 0;
  keyStopped = false;
  // First only the loads of the tags the lookups start at, which do not wait for each other.
  let sum: u32 = 0;
  for (let i = 0, at = pendingKeys; i < count; i++, at += PENDING_BYTES) {
    const h = keyTableHeaders + load<i32>(at) * KEY_TABLE_BYTES;
    const slot = load<u32>(at, 4) & (<u32>(load<i32>(h) - 1));
    sum += load<u16>(load<i32>(h, 8) + (slot << 1));
  }
  touched = sum;
  for (let i = 0, at = pendingKeys; i < count; i++, at += PENDING_BYTES) {
    const row = load<i32>(at, 12);
    const first = keyFirstRow(load<i32>(at), load<u32>(at, 4), load<u32>(at, 8), row);
    if (first == 0 || first == row) continue;
    memory.copy(keyState, at + 16, KEY_STATE_BYTES);
    keyStopped = true;
    return false;
  }
  return true;
}

/** `0`, or `-?[1-9][0-9]*` of at most 15 digits: canonicalDecimal's spelling of an integer. */
function isCanonicalInteger(from: i32, to: i32): bool {
  let i = from;
  if (load<u8>(i) == 45) i++;
  const digits = to - i;
  if (digits < 1 || digits > 15) return false;
  if (load<u8>(i) == 48) return to - from == 1;
  for (; i < to; i++) if (!isDigit(load<u8>(i))) return false;
  return true;
}

function isDigit(b: u32): bool {
  return b - 48 < 10;
}

/** `[+-]?[0-9]{1,18}` within [min, max] (i64 at words 1-2 and 3-4). */
function isInteger(op: i32, from: i32, to: i32): bool {
  let i = from;
  let negative = false;
  const sign = load<u8>(i);
  if (sign == 45 || sign == 43) {
    negative = sign == 45;
    i++;
  }
  if (i == to || to - i > 18) return false;
  let value: i64 = 0;
  for (; i < to; i++) {
    const d = <u32>load<u8>(i) - 48;
    if (d >= 10) return false;
    value = value * 10 + <i64>d;
  }
  if (negative) value = -value;
  heldNumber = value;
  heldNumberOp = OP_INTEGER;
  return value >= load<i64>(op, 4) && value <= load<i64>(op, 12);
}

// What a column's integer or decimal op last read (the rules read it again from the cell).
let heldNumber: i64 = 0;
let heldNumberOp = 0;

/**
 * A decimal (decimalOf) within [min, max]: the bounds in billionths (i64 at words 2-3 and 4-5).
 * Word 1 is the most decimal places allowed (≤ 9).
 */
function isDecimal(op: i32, from: i32, to: i32): bool {
  const value = decimalOf(from, to, load<i32>(op, 4));
  if (!decimalRead) return false;
  heldNumber = value;
  heldNumberOp = OP_DECIMAL;
  return value >= load<i64>(op, 8) && value <= load<i64>(op, 16);
}

/**
 * Membership in a hash set of byte strings (FNV-1a, open addressing): word 1 is the table's
 * offset in the program, word 2 its slot mask, word 3 1 to compare ASCII letters in lower case.
 * A slot holds the offset of an entry (length, then bytes), or 0.
 */
function inSet(prog: i32, op: i32, from: i32, to: i32): bool {
  const table = prog + load<i32>(op, 4);
  const mask = <u32>load<i32>(op, 8);
  const fold = load<i32>(op, 12) != 0;
  let hash: u32 = 0x811c9dc5;
  for (let i = from; i < to; i++) {
    hash = (hash ^ (<u32>lower(load<u8>(i), fold))) * 16777619;
  }
  const length = to - from;
  let slot = hash & mask;
  for (;;) {
    const entry = load<i32>(table + ((<i32>slot) << 2));
    if (entry == 0) return false;
    const at = prog + entry;
    if (load<i32>(at) == length && sameBytes(at + 4, from, length, fold)) return true;
    slot = (slot + 1) & mask;
  }
  return false;
}

function lower(b: u8, fold: bool): u8 {
  return fold && <u32>b - 65 < 26 ? b + 32 : b;
}

function sameBytes(entry: i32, from: i32, length: i32, fold: bool): bool {
  for (let k = 0; k < length; k++) {
    if (load<u8>(entry + k) != lower(load<u8>(from + k), fold)) return false;
  }
  return true;
}

/** The key of the date a column's check last read (rules read it again from the cell). */
let heldDateKey: i64 = -1;

/**
 * A date in a format of literals and digit fields (word 1: the segments' offset, two bytes each,
 * kind then character; word 2: their count), a real calendar day and time (no leap second), its
 * day key yyyymmdd within [word 3, word 4].
 */
function isDate(prog: i32, op: i32, from: i32, to: i32): bool {
  const key = dateKey(prog, op, from, to);
  if (key < 0) return false;
  heldDateKey = key;
  const day = <i32>(key / 1_000_000);
  return day >= load<i32>(op, 12) && day <= load<i32>(op, 16);
}

/** The date's key yyyymmddhhmmss (rules/date-format.ts dateKey), or -1 when it is not one. */
function dateKey(prog: i32, op: i32, from: i32, to: i32): i64 {
  const segments = prog + load<i32>(op, 4);
  const count = load<i32>(op, 8);
  let year = 2000;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let i = from;
  for (let s = 0; s < count; s++) {
    const kind = load<u8>(segments + s * 2);
    if (kind == 0) {
      const code = load<u8>(segments + s * 2 + 1);
      if (i >= to) return -1;
      const b = load<u8>(i);
      if (b != code && !(code == 84 && b == 116)) return -1;
      i++;
      continue;
    }
    const width = kind == 1 ? 4 : 2;
    if (i + width > to) return -1;
    let v = 0;
    for (let k = 0; k < width; k++) {
      const d = <u32>load<u8>(i + k) - 48;
      if (d >= 10) return -1;
      v = v * 10 + <i32>d;
    }
    i += width;
    if (kind == 1) year = v;
    else if (kind == 2) month = v;
    else if (kind == 3) day = v;
    else if (kind == 4) hour = v;
    else if (kind == 5) minute = v;
    else second = v;
  }
  if (i != to) return -1;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return -1;
  if (hour > 23 || minute > 59 || second > 59) return -1;
  const date = <i64>((year * 100 + month) * 100 + day);
  return date * 1_000_000 + <i64>((hour * 100 + minute) * 100 + second);
}

function daysInMonth(year: i32, month: i32): i32 {
  if (month == 2) return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28;
  return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
}

// What each byte may be in e-mail addresses and URLs, as bits (one table look-up a byte).
const LABEL: u8 = 1; // a letter, digit or hyphen: a DNS label's
const LOCAL: u8 = 2; // an e-mail local part's
const PATH: u8 = 4; // printable ASCII but a backslash: a URL path's
const LETTER: u8 = 8;
const CLASSES = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  6, 4, 6, 6, 6, 6, 6, 4, 4, 6, 6, 4, 7, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 4, 4, 4, 6, 4, 6, 4,
  15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
  15, 15, 4, 0, 4, 6, 6, 6, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
  15, 15, 15, 15, 15, 15, 15, 15, 6, 6, 6, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
]);

function is(b: u8, bits: u8): bool {
  return (load<u8>(CLASSES + <usize>b) & bits) != 0;
}

/** The WHATWG e-mail expression of src/validate/rules/email.ts, on bytes. */
function isEmail(from: i32, to: i32): bool {
  let i = from;
  while (i < to && is(load<u8>(i), LOCAL)) i++;
  if (i == from || i >= to || load<u8>(i) != 64) return false;
  i++;
  // Labels of 1-63 letters, digits and hyphens, not starting or ending with a hyphen.
  for (;;) {
    const start = i;
    while (i < to && is(load<u8>(i), LABEL)) i++;
    const length = i - start;
    if (length < 1 || length > 63) return false;
    if (load<u8>(start) == 45 || load<u8>(i - 1) == 45) return false;
    if (i == to) return true;
    if (load<u8>(i) != 46) return false;
    i++;
  }
  return false;
}

/**
 * The plain URLs that src/validate/rules/url.ts accepts without its parser: http(s)://, DNS
 * labels (none starting with xn--, the last with a letter and not 0x…), then nothing or a path,
 * query or fragment of printable ASCII without a backslash. A port, or anything else, is left to
 * the JavaScript check.
 */
function isPlainUrl(from: i32, to: i32): bool {
  if (to - from < 8) return false;
  if (
    (load<u8>(from) | 32) != 104 ||
    (load<u8>(from + 1) | 32) != 116 ||
    (load<u8>(from + 2) | 32) != 116 ||
    (load<u8>(from + 3) | 32) != 112
  )
    return false;
  let i = from + 4;
  if ((load<u8>(i) | 32) == 115) i++;
  if (i + 3 > to || load<u8>(i) != 58 || load<u8>(i + 1) != 47 || load<u8>(i + 2) != 47)
    return false;
  i += 3;
  let lastStart = i;
  let more = true;
  while (more) {
    const start = i;
    while (i < to && is(load<u8>(i), LABEL)) i++;
    if (i == start) return false;
    if (
      i - start >= 4 &&
      (load<u8>(start) | 32) == 120 &&
      (load<u8>(start + 1) | 32) == 110 &&
      load<u8>(start + 2) == 45 &&
      load<u8>(start + 3) == 45
    )
      return false;
    lastStart = start;
    more = i < to && load<u8>(i) == 46;
    if (more) i++;
  }
  // The last label: a letter somewhere, and not a hexadecimal number (0x…).
  let letter = false;
  for (let k = lastStart; k < i; k++) if (is(load<u8>(k), LETTER)) letter = true;
  if (!letter || load<u8>(lastStart) == 48) return false;
  if (i == to) return true;
  const b = load<u8>(i);
  if (b != 47 && b != 63 && b != 35) return false;
  for (i++; i < to; i++) if (!is(load<u8>(i), PATH)) return false;
  return true;
}

/**
 * A whole-value pattern as items (word 1: their offset, 24 bytes each: a 128-bit bitmap of the
 * ASCII characters it takes, then the least and most repeats, -1 for no limit; word 2: their
 * count), matched greedily: the caller only sends patterns in which no item that may repeat a
 * varying number of times shares a character with what may follow it, so that greed never
 * takes a character that a later item needed (src/rules/native-regex.ts).
 */
function matchesItems(prog: i32, op: i32, from: i32, to: i32): bool {
  let item = prog + load<i32>(op, 4);
  const count = load<i32>(op, 8);
  let i = from;
  for (let k = 0; k < count; k++, item += 24) {
    const least = load<i32>(item, 16);
    const most = <u32>load<i32>(item, 20);
    let n: u32 = 0;
    while (n < most && i < to && inBitmap(item, load<u8>(i))) {
      i++;
      n++;
    }
    if (n < <u32>least) return false;
  }
  return i == to;
}

function inBitmap(bitmap: i32, b: u8): bool {
  return ((load<u8>(bitmap + (b >> 3)) >> (b & 7)) & 1) != 0;
}

function allInBitmap(bitmap: i32, from: i32, to: i32): bool {
  for (let i = from; i < to; i++) if (!inBitmap(bitmap, load<u8>(i))) return false;
  return true;
}

/**
 * The length of the well-formed UTF-8 character at `at` (2-4), or 0 for bytes a decoder would
 * replace (overlong forms, surrogates, past U+10FFFF, cut short by `end`).
 */
function utf8Length(at: i32, end: i32): i32 {
  const b0 = <u32>load<u8>(at);
  let n = 0;
  let lo: u32 = 0x80;
  let hi: u32 = 0xbf;
  if (b0 >= 0xc2 && b0 <= 0xdf) n = 2;
  else if (b0 >= 0xe0 && b0 <= 0xef) {
    n = 3;
    if (b0 == 0xe0) lo = 0xa0;
    else if (b0 == 0xed) hi = 0x9f;
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    n = 4;
    if (b0 == 0xf0) lo = 0x90;
    else if (b0 == 0xf4) hi = 0x8f;
  } else return 0;
  if (at + n > end) return 0;
  const b1 = <u32>load<u8>(at + 1);
  if (b1 < lo || b1 > hi) return 0;
  for (let k = 2; k < n; k++) {
    const b = <u32>load<u8>(at + k);
    if (b < 0x80 || b > 0xbf) return 0;
  }
  return n;
}

// ---- JSON array boundaries (decision 251) ----
//
// The cut of a top-level JSON array into ranges for several threads (src/parallel/json-plan.ts
// jsArrayStructure, which this mirrors byte for byte: its JavaScript loop stays for runtimes
// without WebAssembly). Sixteen bytes at a time find the bytes that can matter (quotes,
// backslashes, brackets, braces, commas) and the line feeds; a small state machine then visits
// only the bytes that can matter, in order.

const JSON_BACKSLASH: u8 = 0x5c;
const JSON_COMMA: u8 = 0x2c;
const JSON_OPEN_BRACKET: u8 = 0x5b;
const JSON_CLOSE_BRACKET: u8 = 0x5d;
const JSON_OPEN_BRACE: u8 = 0x7b;
const JSON_CLOSE_BRACE: u8 = 0x7d;

/**
 * Scans input[0, len) of a JSON array's body, continuing the state at `state` (i32 words:
 * elements begun, inside a string (0/1), just after a backslash in a string (0/1), depth) and
 * leaving it there with, in word 4, the bytes it read, in word 5 the line feeds among them and in
 * word 6 the offset after the last of those (-1: none). It stops after the closing bracket that
 * brings the depth to 0, or, with `firstCut`, after the first comma at depth 1; returns that
 * comma's end offset, or -1. The 16 bytes after the input must be readable.
 */
export function jsonArrayScan(state: i32, input: i32, len: i32, firstCut: bool): i32 {
  let records = load<i32>(state);
  let inString = load<i32>(state, 4) != 0;
  // The position of the byte a backslash escapes (only in strings; -1: none pending).
  let escapedAt = load<i32>(state, 8) != 0 ? 0 : -1;
  let depth = load<i32>(state, 12);
  let found = -1;
  // Nothing is read once the array has closed.
  let end = depth > 0 ? len : 0;
  const vQuote = i8x16.splat(<i8>QUOTE);
  const vBackslash = i8x16.splat(<i8>JSON_BACKSLASH);
  const vComma = i8x16.splat(<i8>JSON_COMMA);
  // [ and { differ only in bit 0x20, as do ] and }.
  const vCase = i8x16.splat(0x20);
  const vOpen = i8x16.splat(<i8>JSON_OPEN_BRACE);
  const vClose = i8x16.splat(<i8>JSON_CLOSE_BRACE);
  const vLF = i8x16.splat(<i8>LF);
  let lineFeeds = 0;
  let afterLineFeed = -1;
  for (let block = 0; block < end; block += 16) {
    const v = v128.load(input + block);
    const folded = v128.or(v, vCase);
    const hit = v128.or(
      v128.or(i8x16.eq(v, vQuote), i8x16.eq(v, vBackslash)),
      v128.or(i8x16.eq(v, vComma), v128.or(i8x16.eq(folded, vOpen), i8x16.eq(folded, vClose))),
    );
    let bits = i8x16.bitmask(hit);
    let lineBits = i8x16.bitmask(i8x16.eq(v, vLF));
    // Past the input: bytes that are not the file's.
    if (len - block < 16) {
      bits &= (1 << (len - block)) - 1;
      lineBits &= (1 << (len - block)) - 1;
    }
    while (bits != 0) {
      const p = block + ctz(bits);
      bits &= bits - 1;
      if (p == escapedAt) continue;
      const b = load<u8>(input + p);
      if (inString) {
        if (b == QUOTE) inString = false;
        else if (b == JSON_BACKSLASH) escapedAt = p + 1;
        continue;
      }
      if (b == QUOTE) inString = true;
      else if (b == JSON_OPEN_BRACKET || b == JSON_OPEN_BRACE) depth++;
      else if (b == JSON_CLOSE_BRACKET || b == JSON_CLOSE_BRACE) {
        if (--depth == 0) {
          end = p + 1;
          break;
        }
      } else if (b == JSON_COMMA && depth == 1) {
        records++;
        if (firstCut) {
          found = p + 1;
          end = found;
          break;
        }
      }
    }
    // Line feeds up to where it stopped (every one counts: a raw one in a string too, as the
    // reader's lines do).
    if (end - block < 16) lineBits &= (1 << (end - block)) - 1;
    if (lineBits != 0) {
      lineFeeds += popcnt(lineBits);
      afterLineFeed = block + 32 - clz(lineBits);
    }
  }
  store<i32>(state, lineFeeds, 20);
  store<i32>(state, afterLineFeed, 24);
  store<i32>(state, records);
  store<i32>(state, inString ? 1 : 0, 4);
  // Still pending only when the escaped byte is the next input's first.
  store<i32>(state, inString && escapedAt == end ? 1 : 0, 8);
  store<i32>(state, depth, 12);
  store<i32>(state, end, 16);
  return found;
}

// ---- JSON records (decision 252) ----
//
// Clean records of a JSON array (one element after another) or of NDJSON (one a line), taken on
// their bytes as scan() takes CSV records: the program's columns are the schema's properties
// (the record's first, then those of each nested object the schema describes), each with its key
// (word 3: the offset of its length and bytes) and the kinds of JSON value its ops read, or for a
// nested object where its own columns are. A record is taken only when it is an object whose
// keys are plain ASCII, each property of the schema at most once per object, every value of a
// kind its column reads passing its ops (a string read as a CSV cell is, with simple escapes only
// where the ops just count characters; a number without exponent of at most 15 digits, read as
// its literal; true or false), a nested object's value an object read the same way (at most as
// deep as the text fast path follows), null only where nothing is required, every required
// property there, and, unless the object is strict, other properties with any well-formed values.
// Anything else stops the scan at that record, which JavaScript then reads.

const JSON_STRINGS = 8;
const JSON_NUMBERS = 16;
const JSON_BOOLEANS = 32;
// Strings with simple escapes (not \u) may be read: the column's only ops count characters.
const JSON_ESCAPES = 64;
// A nested object the schema describes: its value must be an object (or null where nothing below
// it is required), read with its own columns (word 1: the first one's index, word 2: how many),
// strict (properties it does not describe stop the scan) when OBJECT_STRICT is set too.
const OBJECT = 128;
const OBJECT_STRICT = 256;
// A column whose value a cross-field rule reads has its slot's number plus one in the flags' top
// 16 bits: each record taken gets a row of slots in jsonRecords' `out`, 12 bytes a slot (start and
// end in UTF-16 units, as the text decodes, then the kind of value; SLOT_ABSENT where the record
// has none or null). The values' bytes are copied one after another to `values`, each number
// followed by a space, so that JavaScript decodes those bytes alone (scannedValueBytes()), not
// the records'.
const SLOT_SHIFT = 16;
const SLOT_BYTES = 12;
const SLOT_ABSENT = 0;
const SLOT_STRING = 1; // its characters, without the quotes (never empty, never escaped)
const SLOT_WORD = 2; // true or false
const SLOT_NUMBER = 3; // a literal of at most 15 digits without exponent
const JSON_COLON: u8 = 0x3a;
const JSON_MINUS: u8 = 0x2d;

let jsonLineFeedsRead = 0;
let jsonColumnsAfter = 0;
// The scan's position and end (addresses), and what it has counted so far.
let jp = 0;
let jEnd = 0;
let jLinesInside = true;
let jContinuations = 0;
let jLineFeeds = 0;
let jAfterLineFeed = -1;
let jContinuationsAtLineFeed = 0;
// The last string's continuation bytes; the last number's digits and whether it had an exponent.
let jStringContinuations = 0;
// Its escapes: the simple ones (two bytes for one character), and whether any was a \u.
let jStringEscapes = 0;
let jStringUnicode = false;
let jDigits = 0;
let jExponent = false;
// Stamps of the properties seen in the object being read (the record or one nested in it).
let jVisit = 0;
// The record's cells for the rules the core proves (0: none), and where the scan's input starts
// (cells are offsets from it).
let jCells = 0;
let jInput = 0;
// The record's row of rule slots (0: none are kept); where the next value's bytes go, where they
// started, and the UTF-16 units fewer than bytes among those copied (continuation bytes, less one
// for each four-byte character, which is two units).
let jSlots = 0;
let jValues = 0;
let jValuesStart = 0;
let jValuesBehind = 0;
// The same count within the last string read.
let jStringUnitsBehind = 0;

/** Bytes of the rule slots' values the last jsonRecords copied. */
export function scannedValueBytes(): i32 {
  return jValues - jValuesStart;
}

/** Line feeds in the bytes the last jsonRecords took. */
export function scannedLineFeeds(): i32 {
  return jsonLineFeedsRead;
}

/** Code points after the last of those line feeds (after the start when there is none). */
export function scannedColumns(): i32 {
  return jsonColumnsAfter;
}

/**
 * Reads clean records from input[0, len), at most maxRecords, and returns how many; scannedEnd()
 * is then the offset after the last one: after its comma (an array) or its line feed (NDJSON).
 * `seen` is a word per column, kept by the caller between calls. The 16 bytes after the input
 * must be readable. With `out`, each record taken fills its row there: `slots` rule slots, whose
 * values are copied to `values` (room for twice `len` bytes). With rules in the program,
 * `cellColumns` cells (all the columns) are the record's, for them to be proved on; the first
 * record is at row `firstRow` (for the keys' tables).
 */
export function jsonRecords(
  prog: i32,
  input: i32,
  len: i32,
  maxRecords: i32,
  ndjson: bool,
  seen: i32,
  out: i32,
  slots: i32,
  values: i32,
  cellColumns: i32,
  firstRow: i32,
): i32 {
  keyStopped = false;
  const columns = load<i32>(prog);
  const strict = load<i32>(prog, 4) != 0;
  // The rules the core proves (as for CSV records: rulesHold), on cells the values fill.
  const ruleCount = load<i32>(prog, 20);
  const rowBytes = slots * SLOT_BYTES;
  jCells = ruleCount > 0 ? prog + load<i32>(prog, 28) : 0;
  jInput = input;
  jSlots = 0;
  jValues = values;
  jValuesStart = values;
  jValuesBehind = 0;
  jp = input;
  jEnd = input + len;
  jContinuations = 0;
  jLineFeeds = 0;
  jAfterLineFeed = -1;
  jContinuationsAtLineFeed = 0;
  let records = 0;
  let end = input;
  let endLineFeeds = 0;
  let endAfterLineFeed = -1;
  let endContinuationsAtLineFeed = 0;
  let endContinuations = 0;
  while (records < maxRecords) {
    // Blank lines before an NDJSON record are no record; a record stays on its line.
    jLinesInside = true;
    jsonSpace();
    jLinesInside = !ndjson;
    if (jp >= jEnd || load<u8>(jp) != JSON_OPEN_BRACE) break;
    jp++;
    if (out != 0) {
      jSlots = out + records * rowBytes;
      for (let k = 0; k < slots; k++) store<i32>(jSlots + k * SLOT_BYTES, SLOT_ABSENT, 8);
    }
    // Every column's cell empty (absent) until the record gives it a value.
    for (let c = 0; c < cellColumns && jCells != 0; c++) store<i64>(jCells + c * CELL_BYTES, 0);
    if (!jsonObject(prog, 0, columns, strict, seen, 1)) break;
    if (ruleCount > 0) {
      // Where the scan ends if a key of this record turns out to be seen before (keysResolve).
      store<i32>(keyState, end);
      store<i32>(keyState, endLineFeeds, 4);
      store<i32>(keyState, endAfterLineFeed, 8);
      store<i32>(keyState, endContinuationsAtLineFeed, 12);
      store<i32>(keyState, endContinuations, 16);
      store<i32>(keyState, records, 20);
      if (!rulesHold(prog, input, jCells, firstRow + records)) break;
    }
    if (ndjson) {
      while (jp < jEnd) {
        const b = load<u8>(jp);
        if (b != 32 && b != 9 && b != CR) break;
        jp++;
      }
      if (jp >= jEnd || load<u8>(jp) != LF) break;
      jp++;
      jLineFeeds++;
      jAfterLineFeed = jp;
      jContinuationsAtLineFeed = jContinuations;
    } else {
      jLinesInside = true;
      jsonSpace();
      if (jp >= jEnd || load<u8>(jp) != JSON_COMMA) break;
      jp++;
    }
    records++;
    end = jp;
    endLineFeeds = jLineFeeds;
    endAfterLineFeed = jAfterLineFeed;
    endContinuationsAtLineFeed = jContinuationsAtLineFeed;
    endContinuations = jContinuations;
    if (keysPending >= KEY_BATCH && !keysResolve()) break;
  }
  if (keysPending > 0) keysResolve();
  if (keyStopped) {
    end = load<i32>(keyState);
    endLineFeeds = load<i32>(keyState, 4);
    endAfterLineFeed = load<i32>(keyState, 8);
    endContinuationsAtLineFeed = load<i32>(keyState, 12);
    endContinuations = load<i32>(keyState, 16);
    records = load<i32>(keyState, 20);
  }
  resultEnd = end - input;
  jsonLineFeedsRead = endLineFeeds;
  jsonColumnsAfter =
    endAfterLineFeed < 0
      ? end - input - endContinuations
      : end - endAfterLineFeed - (endContinuations - endContinuationsAtLineFeed);
  return records;
}

/** Skips JSON whitespace (line feeds only while jLinesInside), counting line feeds. */
function jsonSpace(): void {
  while (jp < jEnd) {
    const b = load<u8>(jp);
    if (b == 32 || b == 9 || b == CR) {
      jp++;
    } else if (b == LF && jLinesInside) {
      jp++;
      jLineFeeds++;
      jAfterLineFeed = jp;
      jContinuationsAtLineFeed = jContinuations;
    } else {
      return;
    }
  }
}

/**
 * The object's members after its `{`, through its `}`, read with the `count` columns from index
 * `first` (the record's: from 0); false where the scan stops. `depth`: the object's nesting, the
 * record's 1 (as validate/json-quick.ts counts it).
 */
function jsonObject(prog: i32, first: i32, count: i32, strict: bool, seen: i32, depth: i32): bool {
  const visit = ++jVisit;
  const table = prog + HEADER_BYTES + first * COLUMN_BYTES;
  jsonSpace();
  if (jp < jEnd && load<u8>(jp) == JSON_CLOSE_BRACE) {
    jp++;
    return requiredSeen(table, count, seen + first * 4, visit);
  }
  let hint = 0;
  for (;;) {
    if (jp >= jEnd || load<u8>(jp) != QUOTE) return false;
    const keyStart = jp + 1;
    // Usually the key is the next column's, written as it is: its bytes, then the quote.
    let col = -1;
    if (hint < count) {
      const key = prog + load<i32>(table + hint * COLUMN_BYTES, 12);
      const length = load<i32>(key);
      const quote = keyStart + length;
      // A key JSON would escape has length -1 (bytecore/csv-program.ts jsonKey): never here.
      if (
        length >= 0 &&
        quote < jEnd &&
        load<u8>(quote) == QUOTE &&
        sameKey(key + 4, keyStart, length)
      ) {
        col = hint;
        jp = quote + 1;
      }
    }
    if (col < 0) {
      jp = keyStart;
      const keyEnd = jsonString(false);
      // A key with other than ASCII would have to be compared as the reader decodes it.
      if (keyEnd < 0 || jStringContinuations != 0) return false;
      jp = keyEnd + 1;
      col = jsonColumn(prog, table, count, keyStart, keyEnd, hint);
    }
    jsonSpace();
    if (jp >= jEnd || load<u8>(jp) != JSON_COLON) return false;
    jp++;
    jsonSpace();
    if (jp >= jEnd) return false;
    if (col < 0) {
      if (strict || !jsonSkipValue(depth + 1)) return false;
    } else {
      hint = col + 1;
      const stamp = seen + (first + col) * 4;
      // A duplicate key: the last value wins, at the first key's position; JavaScript decides.
      if (load<i32>(stamp) == visit) return false;
      store<i32>(stamp, visit);
      if (!jsonFieldValue(prog, table + col * COLUMN_BYTES, seen, depth)) return false;
    }
    jsonSpace();
    if (jp >= jEnd) return false;
    const b = load<u8>(jp);
    jp++;
    if (b == JSON_CLOSE_BRACE) return requiredSeen(table, count, seen + first * 4, visit);
    if (b != JSON_COMMA) return false;
    jsonSpace();
  }
  return false;
}

/** Every required column of the `count` at `table` has its stamp (at `stamps`) from `visit`. */
function requiredSeen(table: i32, count: i32, stamps: i32, visit: i32): bool {
  for (let col = 0; col < count; col++) {
    if (
      (load<i32>(table + col * COLUMN_BYTES) & REQUIRED) != 0 &&
      load<i32>(stamps + col * 4) != visit
    )
      return false;
  }
  return true;
}

/** The column of the `count` at `table` whose key is input[from, to), trying `hint` first; or -1. */
function jsonColumn(prog: i32, table: i32, count: i32, from: i32, to: i32, hint: i32): i32 {
  const length = to - from;
  for (let k = 0; k < count; k++) {
    let col = hint + k;
    if (col >= count) col -= count;
    const key = prog + load<i32>(table + col * COLUMN_BYTES, 12);
    if (load<i32>(key) == length && sameKey(key + 4, from, length)) return col;
  }
  return -1;
}

/** The `length` bytes at `a` and `b` are the same. */
function sameKey(a: i32, b: i32, length: i32): bool {
  let k = 0;
  for (; k + 8 <= length; k += 8) if (load<u64>(a + k) != load<u64>(b + k)) return false;
  for (; k < length; k++) if (load<u8>(a + k) != load<u8>(b + k)) return false;
  return true;
}

/**
 * The value of a schema property at jp, in an object at `depth`, checked by its column; false
 * where the scan stops.
 */
function jsonFieldValue(prog: i32, column: i32, seen: i32, depth: i32): bool {
  const flags = load<i32>(column);
  const b = load<u8>(jp);
  if (b == 0x6e) return jsonWord(0x6c6c756e, 4) && (flags & REQUIRED) == 0;
  if ((flags & OBJECT) != 0) {
    // Anything else where an object is expected is a type error, and so is nesting too deep for
    // the text fast path: JavaScript reports them.
    if (b != JSON_OPEN_BRACE || depth >= JSON_MAX_DEPTH) return false;
    jp++;
    const first = load<i32>(column, 4);
    const count = load<i32>(column, 8);
    return jsonObject(prog, first, count, (flags & OBJECT_STRICT) != 0, seen, depth + 1);
  }
  if ((flags & JS) != 0) return false;
  const from = jp;
  if (b == QUOTE) {
    if ((flags & JSON_STRINGS) == 0) return false;
    jp++;
    const to = jsonString(true);
    if (to < 0) return false;
    jp = to + 1;
    const escapes = jStringEscapes;
    if (jStringUnicode || (escapes != 0 && (flags & JSON_ESCAPES) == 0)) return false;
    // "" is a value in JSON, not a missing cell: JavaScript checks it.
    if (to == from + 1) return false;
    const continuations = jStringContinuations;
    heldDateKey = -1;
    heldNumberOp = 0;
    if (!checkCell(prog, column, from + 1, to, escapes, continuations)) return false;
    jsonCell(prog, column, from + 1, to, escapes, continuations);
    jsonSlot(flags, from + 1, to, SLOT_STRING, jStringUnitsBehind);
    return true;
  }
  heldDateKey = -1;
  heldNumberOp = 0;
  if (b == 0x74 || b == 0x66) {
    if ((flags & JSON_BOOLEANS) == 0) return false;
    if (!(b == 0x74 ? jsonWord(0x65757274, 4) : jsonWord(0x736c6166, 5))) return false;
    if (!checkCell(prog, column, from, jp, 0, 0)) return false;
    jsonCell(prog, column, from, jp, 0, 0);
    jsonSlot(flags, from, jp, SLOT_WORD, 0);
    return true;
  }
  if ((flags & JSON_NUMBERS) == 0) return false;
  const to = jsonNumber();
  if (to < 0 || jExponent || jDigits > 15) return false;
  jp = to;
  if (!checkCell(prog, column, from, to, 0, 0)) return false;
  jsonCell(prog, column, from, to, 0, 0);
  jsonSlot(flags, from, to, SLOT_NUMBER, 0);
  return true;
}

/**
 * The column's cell for the rules: input[from, to) with what its check read (as scan() keeps a
 * CSV cell). A string's escapes count as a CSV cell's doubled quotes: its bytes are not its value.
 */
function jsonCell(
  prog: i32,
  column: i32,
  from: i32,
  to: i32,
  escapes: i32,
  continuations: i32,
): void {
  if (jCells == 0) return;
  const cell = jCells + ((column - prog - HEADER_BYTES) / COLUMN_BYTES) * CELL_BYTES;
  store<i32>(cell, from - jInput);
  store<i32>(cell, to - jInput, 4);
  store<i32>(cell, escapes, 8);
  store<i32>(cell, continuations, 12);
  store<i64>(cell, heldDateKey, 16);
  store<i64>(cell, heldNumber, 24);
  store<i32>(cell, heldNumberOp, 32);
}

/**
 * A rule slot's value input[from, to), where the column has a slot and the record a row of them;
 * `inside`: the UTF-16 units fewer than bytes within it.
 */
function jsonSlot(flags: i32, from: i32, to: i32, kind: i32, inside: i32): void {
  const slot = flags >>> SLOT_SHIFT;
  if (slot == 0 || jSlots == 0) return;
  const at = jSlots + (slot - 1) * SLOT_BYTES;
  const start = jValues - jValuesStart - jValuesBehind;
  memory.copy(jValues, from, to - from);
  jValues += to - from;
  jValuesBehind += inside;
  store<i32>(at, start);
  store<i32>(at, jValues - jValuesStart - jValuesBehind, 4);
  store<i32>(at, kind, 8);
  // A space after a number ends its literal for JavaScript's reading.
  if (kind == SLOT_NUMBER) store<u8>(jValues++, 32);
}

/** true, false or null at jp (its first four bytes `word`, false's fifth an e); moves past it. */
function jsonWord(word: u32, length: i32): bool {
  if (jp + length > jEnd || load<u32>(jp) != word) return false;
  if (length == 5 && load<u8>(jp + 4) != 0x65) return false;
  jp += length;
  return true;
}

// The nesting the scan follows: the reader offers it records only where it allows as much
// (json/reader.ts QUICK_RECORD_MAX_DEPTH; the record itself is depth 1).
const JSON_MAX_DEPTH = 16;

/**
 * Any well-formed value at jp, which is at `depth` if it is an object or array; moves past it.
 * False where the scan stops (also for nesting deeper than JSON_MAX_DEPTH).
 */
function jsonSkipValue(depth: i32): bool {
  const b = load<u8>(jp);
  if (b != JSON_OPEN_BRACE && b != JSON_OPEN_BRACKET) return jsonSkipScalar();
  if (depth > JSON_MAX_DEPTH) return false;
  const object = b == JSON_OPEN_BRACE;
  // ] and } are [ and { plus two.
  const close = b + 2;
  jp++;
  jsonSpace();
  if (jp >= jEnd) return false;
  if (load<u8>(jp) == close) {
    jp++;
    return true;
  }
  for (;;) {
    if (object) {
      if (load<u8>(jp) != QUOTE) return false;
      jp++;
      const keyEnd = jsonString(true);
      if (keyEnd < 0) return false;
      jp = keyEnd + 1;
      jsonSpace();
      if (jp >= jEnd || load<u8>(jp) != JSON_COLON) return false;
      jp++;
      jsonSpace();
      if (jp >= jEnd) return false;
    }
    if (!jsonSkipValue(depth + 1)) return false;
    jsonSpace();
    if (jp >= jEnd) return false;
    const c = load<u8>(jp);
    jp++;
    if (c == close) return true;
    if (c != JSON_COMMA) return false;
    jsonSpace();
    if (jp >= jEnd) return false;
  }
  return false;
}

/** A scalar at jp, any well-formed one; false for containers and where the scan stops. */
function jsonSkipScalar(): bool {
  const b = load<u8>(jp);
  if (b == QUOTE) {
    jp++;
    const to = jsonString(true);
    if (to < 0) return false;
    jp = to + 1;
    return true;
  }
  if (b == 0x74) return jsonWord(0x65757274, 4);
  if (b == 0x66) return jsonWord(0x736c6166, 5);
  if (b == 0x6e) return jsonWord(0x6c6c756e, 4);
  const to = jsonNumber();
  if (to < 0) return false;
  jp = to;
  return true;
}

/**
 * The string from jp (after its opening quote): the address of its closing quote, or -1 at a raw
 * control character, malformed UTF-8, a malformed escape, the input's end, or (unless `escapes`)
 * a backslash. Counts its UTF-8 continuation bytes and its escapes.
 */
function jsonString(escapes: bool): i32 {
  let q = jp;
  let continuations = 0;
  let astral = 0;
  let simple = 0;
  let unicode = false;
  const vQuote = i8x16.splat(<i8>QUOTE);
  const vBackslash = i8x16.splat(<i8>JSON_BACKSLASH);
  const vControl = i8x16.splat(0x20);
  for (;;) {
    for (;;) {
      if (q >= jEnd) return -1;
      const v = v128.load(q);
      const hit = v128.or(
        v128.or(i8x16.eq(v, vQuote), i8x16.eq(v, vBackslash)),
        i8x16.lt_u(v, vControl),
      );
      const bits = i8x16.bitmask(v128.or(hit, i8x16.lt_s(v, i8x16.splat(0))));
      if (bits != 0) {
        q += ctz(bits);
        break;
      }
      q += 16;
    }
    if (q >= jEnd) return -1;
    const b = load<u8>(q);
    if (b == QUOTE) {
      jStringContinuations = continuations;
      jStringEscapes = simple;
      jStringUnicode = unicode;
      jContinuations += continuations;
      jStringUnitsBehind = continuations - astral;
      return q;
    }
    if (b < 0x20) return -1;
    if (b == JSON_BACKSLASH) {
      if (!escapes || q + 1 >= jEnd) return -1;
      const e = load<u8>(q + 1);
      if (e == 0x75) {
        if (q + 6 > jEnd) return -1;
        for (let k = q + 2; k < q + 6; k++) {
          const h = (<u32>load<u8>(k)) | 0x20;
          if (!(h - 48 < 10 || h - 0x61 < 6)) return -1;
        }
        q += 6;
        unicode = true;
      } else if (
        e == QUOTE ||
        e == JSON_BACKSLASH ||
        e == 0x2f ||
        e == 0x62 ||
        e == 0x66 ||
        e == 0x6e ||
        e == 0x72 ||
        e == 0x74
      ) {
        q += 2;
        simple++;
      } else {
        return -1;
      }
      continue;
    }
    const n = utf8Length(q, jEnd);
    if (n == 0) return -1;
    continuations += n - 1;
    if (n == 4) astral++;
    q += n;
  }
  return -1;
}

/**
 * A number literal at jp, as JSON writes one: where it ends, or -1 (not one, or it reaches the
 * input's end, where it may go on). Sets jDigits and jExponent.
 */
function jsonNumber(): i32 {
  let q = jp;
  if (load<u8>(q) == JSON_MINUS) q++;
  if (q >= jEnd) return -1;
  const first = <u32>load<u8>(q);
  let digits = 0;
  if (first == 48) {
    q++;
    digits = 1;
  } else if (first - 49 < 9) {
    while (q < jEnd && isDigit(load<u8>(q))) {
      q++;
      digits++;
    }
  } else {
    return -1;
  }
  jExponent = false;
  if (q < jEnd && load<u8>(q) == 0x2e) {
    q++;
    const fraction = q;
    while (q < jEnd && isDigit(load<u8>(q))) q++;
    if (q == fraction) return -1;
    digits += q - fraction;
  }
  if (q < jEnd && (load<u8>(q) | 0x20) == 0x65) {
    jExponent = true;
    q++;
    if (q < jEnd && (load<u8>(q) == 0x2b || load<u8>(q) == JSON_MINUS)) q++;
    const exponent = q;
    while (q < jEnd && isDigit(load<u8>(q))) q++;
    if (q == exponent) return -1;
  }
  if (q >= jEnd) return -1;
  jDigits = digits;
  return q;
}
