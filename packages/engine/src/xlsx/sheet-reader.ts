// One sheet as CSV text, so that its rows reach the validator exactly as a CSV file's rows do:
// the same header rules, checks, limits, reports and outputs, with no second code path to drift.
// Each CSV line is the sheet row of the same number (missing and empty rows become empty lines,
// which CSV numbers but does not treat as records), so row numbers are the sheet's own. Cells are
// written as Excel shows them; every error can then be pointed at its A1 cell.

import type { Issue, SchemaModel, Warning } from '../model.ts';
import { DEFAULT_DATE_FORMAT } from '../rules/date-format.ts';
import { columnName, sheetPrefix } from './cell-ref.ts';
import { DamageReport } from './damage.ts';
import { type DateKind, formatDateParts, isoText, isoToParts, serialToParts } from './dates.ts';
import { excelNumberText, isShortPlainDecimalAt, significantDigits } from './numbers.ts';
import { createSheetScanner } from './sheet-scanner.ts';
import type { SheetInfo, Workbook } from './workbook.ts';

/** CSV bytes are handed on in pieces of this many bytes (more when one row needs it). */
const PIECE_BYTES = 1 << 18;

/** Serials whose date text a column keeps (see dateText): 44 years of days. */
const DATE_CACHE = 1 << 14;

export interface SheetReading {
  /** The sheet as CSV (comma-separated, UTF-8, LF), in pieces. */
  readonly chunks: AsyncIterable<Uint8Array>;
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
  // their date kind), up to DATE_CACHE entries before it starts again. A whole serial is keyed by
  // its number (no string for the cell), any other by its text.
  let dateCaches: (Map<number | string, string | null> | undefined)[] = [];
  const dateText = (col: number, kind: DateKind, key: number | string, serial: number) => {
    const cache = (dateCaches[col] ??= new Map());
    let text = cache.get(key);
    if (text !== undefined) return text;
    const parts = serialToParts(serial, date1904);
    const fmt = dateFormats[col];
    text =
      parts === null
        ? null
        : fmt === undefined
          ? isoText(parts, kind)
          : formatDateParts(parts, fmt);
    if (cache.size >= DATE_CACHE) cache.clear();
    cache.set(key, text);
    return text;
  };

  // The current row: each cell's UTF-8 bytes in `cells`, column c at cells[from[c], to[c]) (empty
  // when equal: sparse rows leave gaps), and how far it reaches.
  let cells = new Uint8Array(1 << 16);
  let filled = 0;
  let from = new Int32Array(64);
  let to = new Int32Array(64);
  let reach = 0;
  let row = 0;
  let line = 0;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const room = (bytes: number) => {
    if (filled + bytes > cells.length) {
      const grown = new Uint8Array(Math.max(cells.length * 2, filled + bytes));
      grown.set(cells.subarray(0, filled));
      cells = grown;
    }
  };
  /** Column `col` of the row is cells[start, filled): the bytes just written (nothing if none). */
  const put = (col: number, start: number) => {
    if (filled === start) return;
    if (col >= from.length) {
      let size = from.length * 2;
      while (size <= col) size *= 2;
      const f = new Int32Array(size);
      f.set(from);
      from = f;
      const t = new Int32Array(size);
      t.set(to);
      to = t;
    }
    if (col >= reach) {
      // Out of order cells (col < reach) are not written by spreadsheets, but still read.
      for (; reach < col; reach++) from[reach] = to[reach] = 0;
      reach = col + 1;
    }
    from[col] = start;
    to[col] = filled;
  };
  const putText = (col: number, text: string) => {
    const n = text.length;
    // At most 3 bytes per UTF-16 unit.
    room(n * 3);
    const start = filled;
    const out = cells;
    let i = 0;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) break;
      out[start + i] = c;
    }
    filled = i === n ? start + n : start + encoder.encodeInto(text, out.subarray(start)).written;
    put(col, start);
  };
  const cellTextAt = (start: number, end: number) => decoder.decode(cells.subarray(start, end));

  // Each row is written as it ends, into the current piece of CSV.
  const ready: Uint8Array[] = [];
  let piece = new Uint8Array(PIECE_BYTES);
  let used = 0;
  const reserve = (bytes: number) => {
    if (used + bytes > piece.length) {
      if (used > 0) ready.push(piece.subarray(0, used));
      piece = new Uint8Array(Math.max(PIECE_BYTES, bytes));
      used = 0;
    }
  };
  let firstCell = true;
  /** Column `col`'s bytes as one CSV field (RFC 4180 quoting only where needed). */
  const writeCell = (col: number) => {
    const start = from[col]!;
    const end = to[col]!;
    // At most every byte a quote, doubled, and two quotes around.
    reserve((end - start) * 2 + 2);
    const out = piece;
    let at = used;
    let i = start;
    for (; i < end; i++) {
      const c = cells[i]!;
      if (c === 44 || c === 34 || c === 10 || c === 13) break;
      out[at++] = c;
    }
    if (i === end && !(firstCell && misreadFirst(cells, start, end))) {
      used = at;
      return;
    }
    at = used;
    out[at++] = 34;
    for (i = start; i < end; i++) {
      const c = cells[i]!;
      if (c === 34) out[at++] = 34;
      out[at++] = c;
    }
    out[at++] = 34;
    used = at;
  };

  /** A number cell's text as it was (no date), and its damage. */
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

  const scanner = createSheetScanner(
    {
      rowStart(r) {
        row = r;
        reach = 0;
        filled = 0;
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
            const date = dateText(col, kind, serial * 4 + kind, serial);
            if (date !== null) {
              if (header) damage.date(col, row, date);
              putText(col, date);
              return;
            }
          }
        }
        if (kind !== 0 || !isShortPlainDecimalAt(bytes, start, end)) {
          putText(col, numberText(col, style, decoder.decode(bytes.subarray(start, end)), false));
          return;
        }
        // Shown as stored: its bytes are its text.
        room(end - start);
        const at = filled;
        for (let i = start; i < end; i++) cells[filled++] = bytes[i]!;
        if (header) {
          damage.plainNumber(
            col,
            row,
            bytes[start] !== 45 && indexOf(bytes, 46, start, end) < 0,
            end - start,
            () => cellTextAt(at, at + end - start),
            dateFormats[col] !== undefined,
          );
        }
        put(col, at);
      },
      shared(col, _style, index) {
        const n = sharedStrings.byteLength(index);
        if (n === 0) return;
        room(n);
        const start = filled;
        filled = sharedStrings.copyInto(index, cells, start);
        // Only text that starts with a digit can be damage (leading zeros, exponents, dates).
        if (header && n >= 2 && cells[start]! >= 48 && cells[start]! <= 57)
          damage.text(col, row, cellTextAt(start, filled));
        put(col, start);
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
        if (text !== '') putText(col, text);
      },
      rowEnd() {
        if (reach === 0) return; // no value: an empty line, not a record
        if (header === undefined) {
          header = Array.from({ length: reach }, (_, col) => cellTextAt(from[col]!, to[col]!));
          headerRow = row;
          width = reach;
          header.forEach((name, col) => {
            if (!columnOfName.has(name)) columnOfName.set(name, col);
          });
          dateFormats = header.map((name) => dateFields.get(name));
          dateCaches = []; // the header's own cells were read without the columns' formats
        }
        const n = reach > width ? reach : width;
        for (; reach < n; reach++) from[reach] = to[reach] = 0;
        if (row > line + 1) {
          const gap = row - line - 1;
          reserve(gap);
          piece.fill(10, used, used + gap);
          used += gap;
        }
        for (let col = 0; col < n; col++) {
          if (col > 0) {
            reserve(1);
            piece[used++] = 44;
          }
          writeCell(col);
          firstCell = false;
        }
        reserve(1);
        piece[used++] = 10;
        line = row;
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
      while (ready.length > 0) yield ready.shift()!;
    }
    scanner.end();
    while (ready.length > 0) yield ready.shift()!;
    if (used > 0) yield piece.subarray(0, used);
    used = 0;
  }

  return {
    chunks: chunks(),
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

function indexOf(bytes: Uint8Array, byte: number, from: number, to: number): number {
  for (let i = from; i < to; i++) if (bytes[i] === byte) return i;
  return -1;
}
