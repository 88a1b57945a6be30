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
import { excelNumberText, significantDigits } from './numbers.ts';
import { partText } from './parts.ts';
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
  // their date kind), up to DATE_CACHE entries before it starts again.
  let dateCaches: (Map<string, string | null> | undefined)[] = [];
  const dateText = (col: number, kind: DateKind, v: string): string | null => {
    const cache = (dateCaches[col] ??= new Map());
    const key = kind === 1 ? v : `${v} ${kind}`;
    let text = cache.get(key);
    if (text !== undefined) return text;
    const parts = serialToParts(Number(v), date1904);
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

  // The current row: values by column (sparse rows leave gaps), and how far it reaches.
  const values: string[] = [];
  let reach = 0;
  let row = 0;
  let line = 0;
  // Each row is written as it is made, into the current piece: ASCII cells (most) byte by byte,
  // the others encoded one by one (encoding a long concatenation would first flatten it).
  const encoder = new TextEncoder();
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
  const writeCell = (value: string, first: boolean) => {
    const n = value.length;
    // At most 3 bytes per UTF-16 unit, and two quotes.
    reserve(n * 3 + 2);
    const out = piece;
    let i = 0;
    for (; i < n; i++) {
      const c = value.charCodeAt(i);
      if (c >= 0x80 || c === 44 || c === 34 || c === 10 || c === 13) break;
      out[used + i] = c;
    }
    if (i === n && !(first && needsQuotes(value, true))) {
      used += n;
      return;
    }
    const text = needsQuotes(value, first) ? `"${value.replace(/"/g, '""')}"` : value;
    used += encoder.encodeInto(text, out.subarray(used)).written;
  };
  let firstCell = true;

  const scanner = createSheetScanner(
    {
      rowStart(r) {
        row = r;
        reach = 0;
      },
      cell(col, type, style, v, formula) {
        let text: string;
        if (type === 's') {
          text = v === null ? '' : sharedStrings.get(Number(v));
          if (text !== '' && header) damage.text(col, row, text);
        } else if (type === '') {
          if (v === null || v === '') {
            if (formula) damage.formulaWithoutValue(col, row);
            text = '';
          } else {
            const kind = (styles[style] ?? 0) as DateKind;
            const date = kind === 0 ? null : dateText(col, kind, v);
            if (date !== null) {
              text = date;
              if (header) damage.date(col, row, text);
            } else {
              text = excelNumberText(v);
              if (header) {
                const digits = v.length > 15 ? significantDigits(v) : 0;
                damage.number(col, row, v, text, digits, dateFormats[col] !== undefined);
              }
            }
          }
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
        if (col < reach) {
          values[col] = text; // out of order: not written by spreadsheets, still read
          return;
        }
        while (reach < col) values[reach++] = '';
        values[col] = text;
        reach = col + 1;
      },
      rowEnd() {
        if (reach === 0) return; // no value: an empty line, not a record
        if (header === undefined) {
          header = values.slice(0, reach);
          headerRow = row;
          width = reach;
          header.forEach((name, col) => {
            if (!columnOfName.has(name)) columnOfName.set(name, col);
          });
          dateFormats = header.map((name) => dateFields.get(name));
          dateCaches = []; // the header's own cells were read without the columns' formats
        }
        const n = reach > width ? reach : width;
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
          writeCell(col < reach ? (values[col] as string) : '', firstCell);
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
    for await (const text of partText(workbook.zip, entry, `sheet ${sheet.name}`)) {
      scanner.push(text);
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
 * RFC 4180 quoting, plus the first cell of the file when a CSV reader would take it for
 * something else: a `sep=` line or a byte-order mark.
 */
function needsQuotes(value: string, first: boolean): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 44 || c === 34 || c === 10 || c === 13) return true;
  }
  return first && (value.startsWith('sep=') || value.charCodeAt(0) === 0xfeff);
}
