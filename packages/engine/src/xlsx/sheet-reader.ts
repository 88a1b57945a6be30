// One sheet as CSV text, so that its rows reach the validator exactly as a CSV file's rows do:
// the same header rules, checks, limits, reports and outputs, with no second code path to drift.
// Each CSV line is the sheet row of the same number (missing and empty rows become empty lines,
// which CSV numbers but does not treat as records), so row numbers are the sheet's own. Cells are
// written as Excel shows them; every error can then be pointed at its A1 cell. A caller that
// wants no CSV bytes has the cells handed to the validator instead (cellsTo, decision 244), read
// exactly as their CSV would be.

import type { Issue, SchemaModel, Warning } from '../model.ts';
import type { CellRows } from '../validate/csv-records.ts';
import { DEFAULT_DATE_FORMAT } from '../rules/date-format.ts';
import { columnName, sheetPrefix } from './cell-ref.ts';
import { DamageReport } from './damage.ts';
import { type DateKind, formatDateParts, isoText, isoToParts, serialToParts } from './dates.ts';
import { excelNumberText, isShortPlainDecimalAt, significantDigits } from './numbers.ts';
import { createSheetScanner } from './sheet-scanner.ts';
import type { SheetInfo, Workbook } from './workbook.ts';

/** CSV bytes are handed on in pieces of this many bytes (more when one row needs it). */
const PIECE_BYTES = 1 << 18;

/**
 * Cells handed over directly are decoded and validated once this many bytes of them wait: a text
 * the validator still holds when the collector runs is copied, and small ones keep the young
 * generation from growing (100 KB texts took the peak RSS from 114 to 130 MiB).
 */
const BATCH_BYTES = 1 << 14;

/** Serials whose date text a column keeps (see dateText): 44 years of days. */
const DATE_CACHE = 1 << 14;

/**
 * A column keeps the text of this many whole date serials, each in the slot of its serial modulo
 * this: 44 years of days without two sharing a slot, in 128 KiB that stay in the caches.
 */
const DATE_SLOTS = 1 << 14;

/** A column's date texts by whole serial: texts[slot], for the serial and kind keys[slot] holds. */
interface DateSlots {
  /** serial * 4 + kind + 1 (0: empty). */
  keys: Int32Array;
  texts: (string | null)[];
}

export interface SheetReading {
  /** The sheet as CSV (comma-separated, UTF-8, LF), in pieces; with cellsTo, only what it says. */
  readonly chunks: AsyncIterable<Uint8Array>;
  /**
   * Hands the rows to `rows` as cells instead of writing them to `chunks` (decision 244): from a
   * row with a cell longer than rows.maxCellChars on (none in a real sheet), they are written as
   * CSV after all, after rows.continueAsCsv. Reading stops once `rows` is stopped. Before `chunks`
   * is read.
   */
  cellsTo(rows: CellRows): void;
  /** `Sheet1!D14` for an issue on a cell, `Sheet1!14:14` for a whole row; undefined for the file. */
  cellOf(issue: Issue): string | undefined;
  /** Excel-damage warnings, complete once `chunks` is exhausted. */
  warnings(): Warning[];
  readonly sheet: SheetInfo;
}

export function readSheet(
  workbook: Workbook,
  sheet: SheetInfo,
  schema: SchemaModel | undefined,
): SheetReading {
  const prefix = sheetPrefix(sheet.name);
  const ref = (col: number, row: number) => `${prefix}${columnName(col)}${row}`;
  const damage = new DamageReport(ref);
  const { styles, sharedStrings, date1904 } = workbook;
  const dateFields = new Map<string, string>();
  for (const field of schema?.fields ?? []) {
    if (field.type === 'date' && !dateFields.has(field.name))
      dateFields.set(field.name, field.rules.format ?? DEFAULT_DATE_FORMAT);
  }

  // The header is the first row with a value; its width is the table's width.
  let header: string[] | undefined;
  let headerRow = 0;
  let width = 0;
  const columnOfName = new Map<string, number>();
  let dateFormats: (string | undefined)[] = [];

  // A date column repeats its days: each column keeps the text of the serials it has seen (with
  // their date kind). A whole serial's text is kept in its slot (no hashing, no string for the
  // cell); any other serial's in a map keyed by its text, up to DATE_CACHE entries before it
  // starts again.
  let dateCaches: (Map<string, string | null> | undefined)[] = [];
  let dateSlots: (DateSlots | undefined)[] = [];
  const dateTextOf = (col: number, kind: DateKind, serial: number) => {
    const parts = serialToParts(serial, date1904);
    const fmt = dateFormats[col];
    return parts === null
      ? null
      : fmt === undefined
        ? isoText(parts, kind)
        : formatDateParts(parts, fmt);
  };
  const dateText = (col: number, kind: DateKind, key: string, serial: number) => {
    const cache = (dateCaches[col] ??= new Map());
    let text = cache.get(key);
    if (text !== undefined) return text;
    text = dateTextOf(col, kind, serial);
    if (cache.size >= DATE_CACHE) cache.clear();
    cache.set(key, text);
    return text;
  };
  /** The text of whole serial `serial` (at most 9 digits) as a date of `kind`, or null. */
  const wholeDateText = (col: number, kind: DateKind, serial: number) => {
    // Keys fit 31 bits below 2^28 (no date has such a serial, but the cell may hold one).
    if (serial >= 1 << 28) return dateText(col, kind, `${serial} ${kind}`, serial);
    const key = serial * 4 + kind + 1;
    const slots = (dateSlots[col] ??= {
      keys: new Int32Array(DATE_SLOTS),
      texts: new Array<string | null>(DATE_SLOTS).fill(null),
    });
    const slot = serial & (DATE_SLOTS - 1);
    if (slots.keys[slot] === key) return slots.texts[slot]!;
    const text = dateTextOf(col, kind, serial);
    slots.keys[slot] = key;
    slots.texts[slot] = text;
    return text;
  };

  // Each row is written straight into the current piece of CSV as its cells come (ASCII and the
  // table's UTF-8 copied byte by byte): the row's text starts at rowAt, column c's field lies at
  // piece[from[c], to[c]) (quoted[c] when written in quotes), and the row reaches column
  // reach - 1. Pieces that are full are handed on; a row begun moves to the next piece whole.
  const ready: Uint8Array[] = [];
  let piece = new Uint8Array(PIECE_BYTES);
  let used = 0;
  let rowAt = 0;
  let begun = false;
  let from = new Int32Array(64);
  let to = new Int32Array(64);
  let quoted = new Uint8Array(64);
  let reach = 0;
  let row = 0;
  let line = 0;
  let firstField = true;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  // Cells handed over directly (cellsTo). Rows wait, each as wide as its CSV line (padded as CSV
  // pads), from waiting index 0 on: cell k is waitTexts[k][waitStarts[k], waitEnds[k]), where a
  // null text is the text of `batch`, into which ASCII shared strings and plain numbers are
  // copied (as they were into the CSV), so that offsets in it are byte offsets and V8 keeps it one
  // byte a character; a shared string past ASCII is decoded on its own. Once BATCH_BYTES wait, or
  // the piece of the sheet is read, the batch is decoded in one call and the rows go to `rows`:
  // waitRows holds each one's row number as CSV counts rows, and its width. The current row's
  // cells start at rowBase; csvRows counts the CSV's rows so far (records and empty lines).
  let rows: CellRows | undefined;
  let maxChars = 0;
  let tooLong = false;
  let csvRows = 0;
  let batch = new Uint8Array(1 << 16);
  let batchUsed = 0;
  const waitTexts: (string | null)[] = [];
  let waitStarts = new Int32Array(1 << 12);
  let waitEnds = new Int32Array(1 << 12);
  let rowBase = 0;
  const waitRows: number[] = [];

  const emptyCell = (k: number) => {
    if (k >= waitStarts.length) {
      waitStarts = withRoom(waitStarts, k);
      waitEnds = withRoom(waitEnds, k);
    }
    waitTexts[k] = '';
    waitStarts[k] = waitEnds[k] = 0;
  };

  /**
   * Empty cells in the current row before column `col`. One loop for the cells and the padding of
   * a short row: a loop of its own for the padding first ran in optimized code at the first short
   * row, without type feedback, and threw that code away.
   */
  const padTo = (col: number) => {
    for (; reach < col; reach++) emptyCell(rowBase + reach);
  };

  /** Column `col`'s cell is text[start, end), or the batch's (null): none when empty. */
  const putSpan = (col: number, text: string | null, start: number, end: number) => {
    if (start === end) return;
    padTo(col + 1);
    const k = rowBase + col;
    waitTexts[k] = text;
    waitStarts[k] = start;
    waitEnds[k] = end;
    if (end - start > maxChars) tooLong = true;
  };

  /** Text for column `col`: a cell of its own, or written as CSV. */
  const putString = (col: number, text: string) =>
    rows === undefined ? putText(col, text) : putSpan(col, text, 0, text.length);

  /** Room for `bytes` more in the batch. */
  const reserveBatch = (bytes: number) => {
    if (batchUsed + bytes <= batch.length) return;
    const grown = new Uint8Array(Math.max(batch.length * 2, batchUsed + bytes));
    grown.set(batch.subarray(0, batchUsed));
    batch = grown;
  };

  /** The text of the current row's column c, before the batch is decoded. */
  const cellText = (c: number) => {
    const text = waitTexts[rowBase + c];
    if (text !== null) return text!.slice(waitStarts[rowBase + c], waitEnds[rowBase + c]);
    return cellDecoder
      .decode(batch.subarray(0, batchUsed))
      .slice(waitStarts[rowBase + c], waitEnds[rowBase + c]);
  };

  /** The waiting rows go to `to`, their batch cells as spans of the batch's text. */
  const flush = (to: CellRows) => {
    const count = rowBase;
    if (count > 0) {
      const text = cellDecoder.decode(batch.subarray(0, batchUsed));
      for (let k = 0; k < count; k++) if (waitTexts[k] === null) waitTexts[k] = text;
      const texts = waitTexts as string[];
      for (let i = 0, from = 0; i < waitRows.length; i += 2) {
        const width = waitRows[i + 1]!;
        to.row(texts, waitStarts, waitEnds, from, width, waitRows[i]!);
        from += width;
      }
      // Not kept past its piece: a text still referenced when the collector runs is copied and
      // kept, and the young generation grows for it.
      waitTexts.fill(null, 0, count);
    }
    waitRows.length = 0;
    rowBase = 0;
    batchUsed = 0;
  };

  /** Room for `bytes` more in the piece. */
  const reserve = (bytes: number) => {
    if (used + bytes <= piece.length) return;
    if (rowAt > 0) ready.push(piece.subarray(0, rowAt));
    const next = new Uint8Array(Math.max(PIECE_BYTES, used - rowAt + bytes));
    next.set(piece.subarray(rowAt, used));
    for (let c = 0; c < reach; c++) {
      from[c] = from[c]! - rowAt;
      to[c] = to[c]! - rowAt;
    }
    used -= rowAt;
    rowAt = 0;
    piece = next;
  };

  /**
   * Makes room for a field of up to `bytes` bytes in column `col` (at or past reach) and writes
   * what comes before it: the empty lines of missing rows before the row's first value, and the
   * commas of the empty columns before this one.
   */
  const startField = (col: number, bytes: number) => {
    if (col >= from.length) {
      from = withRoom(from, col);
      to = withRoom(to, col);
      quoted = withRoom(quoted, col);
    }
    const commas = reach === 0 ? col : col - reach + 1;
    if (!begun) {
      const gap = row - line - 1;
      reserve(gap + commas + bytes);
      if (gap > 0) {
        piece.fill(10, used, used + gap);
        used += gap;
      }
      rowAt = used;
      begun = true;
    } else reserve(commas + bytes);
    for (; reach < col; reach++) {
      from[reach] = to[reach] = used;
      quoted[reach] = 0;
    }
    // Usually one comma: a loop, as fill() is a call.
    for (let k = 0; k < commas; k++) piece[used++] = 44;
  };

  /**
   * Column `col`'s value is piece[start, used), written raw: it is quoted in place when it holds
   * a comma, quote or line break (`special`), or is the file's first field and would be misread.
   * startField reserved twice its length and two more bytes, enough for any quoting.
   */
  const endField = (col: number, start: number, special: boolean) => {
    let end = used;
    if (special || (firstField && col === 0 && misreadFirst(piece, start, end))) {
      let quotes = 0;
      for (let i = start; i < end; i++) if (piece[i] === 34) quotes++;
      // Moved right from the end: each quote doubled, a quote on either side.
      let at = end + quotes + 2;
      piece[--at] = 34;
      for (let i = end - 1; i >= start; i--) {
        const c = piece[i]!;
        piece[--at] = c;
        if (c === 34) piece[--at] = 34;
      }
      piece[start] = 34;
      end += quotes + 2;
      used = end;
      quoted[col] = 1;
    } else quoted[col] = 0;
    from[col] = start;
    to[col] = end;
    reach = col + 1;
  };

  /** Column c's value as written (its quotes taken off), as bytes. */
  const fieldBytes = (c: number): Uint8Array => {
    if (!quoted[c]) return piece.slice(from[c], to[c]);
    const out: number[] = [];
    for (let i = from[c]! + 1; i < to[c]! - 1; i++) {
      out.push(piece[i]!);
      if (piece[i] === 34) i++;
    }
    return Uint8Array.from(out);
  };

  /** Bytes for column `col`: in order, or (not written by spreadsheets) over an earlier one. */
  const putBytes = (col: number, bytes: Uint8Array, start: number, end: number) => {
    if (start === end) return;
    if (col < reach) return rewrite(col, bytes.slice(start, end));
    startField(col, (end - start) * 2 + 2);
    const at = used;
    let special = false;
    for (let i = start; i < end; i++) {
      const c = bytes[i]!;
      if (c === 44 || c === 34 || c === 10 || c === 13) special = true;
      piece[used++] = c;
    }
    endField(col, at, special);
  };

  /** The row written again with column `col` replaced. */
  const rewrite = (col: number, bytes: Uint8Array) => {
    const fields = Array.from({ length: reach }, (_, c) => fieldBytes(c));
    fields[col] = bytes;
    used = rowAt;
    reach = 0;
    fields.forEach((field, c) => putBytes(c, field, 0, field.length));
  };

  /** Text for column `col`, written as UTF-8 straight into the piece (ASCII by a loop). */
  const putText = (col: number, text: string) => {
    const n = text.length;
    if (n === 0) return;
    if (col < reach) return rewrite(col, encoder.encode(text));
    // At most 3 UTF-8 bytes a UTF-16 unit, then twice that for quoting.
    startField(col, n * 6 + 2);
    const at = used;
    let special = false;
    let i = 0;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) break;
      if (c === 44 || c === 34 || c === 10 || c === 13) special = true;
      piece[used++] = c;
    }
    if (i < n) {
      // encodeInto is a call into the runtime: only for text that is not ASCII.
      used = at + encoder.encodeInto(text, piece.subarray(at)).written;
      for (let k = at; k < used; k++) {
        const c = piece[k]!;
        if (c === 44 || c === 34 || c === 10 || c === 13) special = true;
      }
    }
    endField(col, at, special);
  };

  /** A number cell's text as Excel shows it (a date by its format), and its damage. */
  const numberText = (col: number, style: number, v: string, formula: boolean) => {
    if (v === '') {
      if (formula) damage.formulaWithoutValue(col, row);
      return '';
    }
    const kind = (styles[style] ?? 0) as DateKind;
    const date = kind === 0 ? null : dateText(col, kind, `${v} ${kind}`, Number(v));
    if (date !== null) {
      if (header) damage.date(col, row, date);
      return date;
    }
    const text = excelNumberText(v);
    if (header) {
      const digits = v.length > 15 ? significantDigits(v) : 0;
      damage.number(col, row, v, text, digits, dateFormats[col] !== undefined);
    }
    return text;
  };

  /** The header row's names, as the CSV's header fields decode one by one (U+FEFF dropped). */
  const setHeader = (fields: (Uint8Array | string)[]) => {
    const names = fields.map((f) => (typeof f === 'string' ? dropBom(f) : decoder.decode(f)));
    header = names;
    headerRow = row;
    width = reach;
    names.forEach((name, col) => {
      if (!columnOfName.has(name)) columnOfName.set(name, col);
    });
    dateFormats = names.map((name) => dateFields.get(name));
    // The header's own cells were read without the columns' formats.
    dateCaches = [];
    dateSlots = [];
  };

  /** The row's cells held: the header goes to `to` at once (nothing waits before it). */
  const holdRow = (to: CellRows) => {
    const gap = row - line - 1;
    csvRows += (gap > 0 ? gap : 0) + 1;
    line = row;
    firstField = false;
    if (header === undefined) {
      const names = Array.from({ length: reach }, (_, c) => cellText(c));
      setHeader(names);
      to.header(names);
      batchUsed = 0;
      return;
    }
    padTo(width);
    waitRows.push(csvRows, reach);
    rowBase += reach;
    if (batchUsed >= BATCH_BYTES) flush(to);
  };

  /** A cell too long to hand over: this row and every one after it are written as CSV. */
  const writeHeldRow = (to: CellRows) => {
    const held = Array.from({ length: reach }, (_, c) => cellText(c));
    flush(to);
    to.continueAsCsv(csvRows);
    rows = undefined;
    reach = 0;
    held.forEach((text, c) => putText(c, text));
  };

  const scanner = createSheetScanner(
    {
      rowStart(r) {
        row = r;
        reach = 0;
        tooLong = false;
        begun = false;
        rowAt = used;
      },
      number(col, style, bytes, start, end) {
        if (start === end) return;
        const kind = (styles[style] ?? 0) as DateKind;
        if (kind !== 0) {
          // A whole serial (a date without a time): keyed by its number.
          let serial = 0;
          let i = start;
          for (; i < end && end - start <= 9; i++) {
            const d = bytes[i]! - 48;
            if (d < 0 || d > 9) break;
            serial = serial * 10 + d;
          }
          if (i === end && end - start <= 9) {
            const date = wholeDateText(col, kind, serial);
            if (date !== null) {
              if (header) damage.date(col, row, date);
              putString(col, date);
              return;
            }
          }
        }
        if (kind !== 0 || !isShortPlainDecimalAt(bytes, start, end)) {
          putString(col, numberText(col, style, decoder.decode(bytes.subarray(start, end)), false));
          return;
        }
        // Shown as stored: its bytes are its text.
        if (header) {
          damage.plainNumber(
            col,
            row,
            bytes[start] !== 45 && indexOf(bytes, 46, start, end) < 0,
            bytes,
            start,
            end,
            dateFormats[col] !== undefined,
          );
        }
        if (rows !== undefined) {
          reserveBatch(end - start);
          const at = batchUsed;
          for (let i = start; i < end; i++) batch[batchUsed++] = bytes[i]!;
          return putSpan(col, null, at, batchUsed);
        }
        if (col < reach) return rewrite(col, bytes.slice(start, end));
        startField(col, end - start);
        const at = used;
        for (let i = start; i < end; i++) piece[used++] = bytes[i]!;
        endField(col, at, false);
      },
      shared(col, _style, index) {
        const n = sharedStrings.byteLength(index);
        if (n === 0) return;
        if (rows !== undefined) {
          reserveBatch(n);
          const at = batchUsed;
          batchUsed = sharedStrings.copyInto(index, batch, at);
          if (header && n >= 2 && mayBeDamage(batch, at, batchUsed))
            damage.text(col, row, sharedStrings.get(index));
          if (sharedStrings.isAscii(index)) return putSpan(col, null, at, batchUsed);
          const text = cellDecoder.decode(batch.subarray(at, batchUsed));
          batchUsed = at;
          return putSpan(col, text, 0, text.length);
        }
        if (col < reach) {
          const bytes = new Uint8Array(n);
          sharedStrings.copyInto(index, bytes, 0);
          rewrite(col, bytes);
        } else {
          startField(col, n * 2 + 2);
          const at = used;
          used = sharedStrings.copyInto(index, piece, at);
          endField(col, at, sharedStrings.needsQuotes(index));
        }
        if (header && n >= 2 && mayBeDamage(piece, from[col]! + quoted[col]!, to[col]!))
          damage.text(col, row, sharedStrings.get(index));
      },
      cell(col, type, style, v, formula) {
        let text: string;
        if (type === 's') {
          text = v === null ? '' : sharedStrings.get(Number(v));
          if (text !== '' && header) damage.text(col, row, text);
        } else if (type === '') {
          text = numberText(col, style, v ?? '', formula);
        } else if (type === 'inlineStr' || type === 'str') {
          text = v ?? '';
          if (v === null && formula) damage.formulaWithoutValue(col, row);
          else if (text !== '' && header) damage.text(col, row, text);
        } else if (type === 'b') {
          text = v === null ? '' : v === '1' || v === 'true' ? 'TRUE' : 'FALSE';
        } else if (type === 'e') {
          text = v ?? '';
          if (text !== '') damage.errorValue(col, row, text);
        } else if (type === 'd') {
          const parts = v === null ? null : isoToParts(v);
          const fmt = dateFormats[col];
          text =
            parts === null
              ? (v ?? '')
              : fmt !== undefined
                ? formatDateParts(parts, fmt)
                : isoText(parts, v!.length > 10 ? 2 : 1);
          if (parts && header) damage.date(col, row, text);
        } else {
          text = v ?? '';
        }
        if (text === '') return;
        // As its CSV would read: UTF-8 has no lone surrogate (one from a character reference).
        if (rows !== undefined && type !== '' && type !== 'b') text = wellFormed(text);
        putString(col, text);
      },
      rowEnd() {
        if (reach === 0) return; // no value: an empty line, not a record
        if (rows !== undefined && tooLong) writeHeldRow(rows);
        if (rows !== undefined) return holdRow(rows);
        if (header === undefined) setHeader(Array.from({ length: reach }, (_, c) => fieldBytes(c)));
        const commas = width > reach ? width - reach : 0;
        reserve(commas + 1);
        piece.fill(44, used, used + commas);
        used += commas;
        piece[used++] = 10;
        line = row;
        firstField = false;
        rowAt = used;
      },
      merge(range) {
        damage.mergedRange(range, prefix);
      },
    },
    `sheet ${sheet.name}`,
  );

  async function* chunks(): AsyncIterable<Uint8Array> {
    const entry = workbook.zip.find(sheet.path)!;
    for await (const bytes of workbook.zip.open(entry, `sheet ${sheet.name}`)) {
      scanner.push(bytes);
      if (rows !== undefined) {
        flush(rows);
        if (rows.stopped) return;
      }
      while (ready.length > 0) yield ready.shift()!;
    }
    scanner.end();
    if (rows !== undefined) flush(rows);
    while (ready.length > 0) yield ready.shift()!;
    if (used > 0) yield piece.subarray(0, used);
    used = 0;
  }

  return {
    chunks: chunks(),
    cellsTo(to) {
      rows = to;
      maxChars = to.maxCellChars;
    },
    sheet,
    cellOf(issue) {
      // CSV's row 1 is the header, wherever the sheet has it.
      const r = issue.row <= 1 ? headerRow : issue.row;
      if (r === 0) return undefined;
      if (issue.field === '') return issue.row <= 1 ? undefined : `${prefix}${r}:${r}`;
      const col = columnOfName.get(issue.field);
      if (col === undefined) return undefined;
      return ref(col, r);
    },
    warnings: () => damage.warnings(header ?? []),
  };
}

/**
 * Whether the file's first cell, unquoted, would be taken by a CSV reader for something else: a
 * `sep=` line or a byte-order mark.
 */
function misreadFirst(bytes: Uint8Array, from: number, to: number): boolean {
  const starts = (prefix: number[]) =>
    to - from >= prefix.length && prefix.every((b, k) => bytes[from + k] === b);
  return starts([115, 101, 112, 61]) || starts([0xef, 0xbb, 0xbf]);
}

/**
 * Whether text bytes[from, to) may be Excel damage (DamageReport.text): it must start with a
 * digit. Text of digits with at most one point and no leading zero (a price kept as text) is
 * none of leading zeros, an exponent or a date, so it is passed over without being decoded.
 */
function mayBeDamage(bytes: Uint8Array, from: number, to: number): boolean {
  const first = bytes[from]!;
  if (first < 48 || first > 57) return false;
  if (first === 48) return true;
  let points = 0;
  for (let i = from + 1; i < to; i++) {
    const c = bytes[i]!;
    if (c === 46) {
      if (++points > 1) return true;
    } else if (c < 48 || c > 57) return true;
  }
  return false;
}

/** Cells as a CSV reader reads them: a leading U+FEFF is part of the text. */
const cellDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
const LONE_SURROGATE = /[\uD800-\uDFFF]/;
const utf8Encoder = new TextEncoder();

/** `text` as it reads back from UTF-8: a lone surrogate becomes U+FFFD. */
function wellFormed(text: string): string {
  return LONE_SURROGATE.test(text) ? cellDecoder.decode(utf8Encoder.encode(text)) : text;
}

const dropBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** `array`, or a copy of it doubled until `index` fits. */
function withRoom<A extends Int32Array | Uint8Array>(array: A, index: number): A {
  if (index < array.length) return array;
  let size = array.length * 2;
  while (size <= index) size *= 2;
  const grown = (array instanceof Int32Array ? new Int32Array(size) : new Uint8Array(size)) as A;
  grown.set(array);
  return grown;
}

function indexOf(bytes: Uint8Array, byte: number, from: number, to: number): number {
  for (let i = from; i < to; i++) if (bytes[i] === byte) return i;
  return -1;
}
