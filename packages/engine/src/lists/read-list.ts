// A reference list's values from a file's text (docs/decisions/200): one value a line, or one
// column of a CSV (RFC 4180, comma-separated, its first row the header). The server's list
// upload, the web's Profile page and the CLI's `--list NAME=FILE` read files the same way.
import { ValueSet } from './value-set.ts';

export interface ReadListOptions {
  /** Read the text as CSV (a .csv file, or a column was named). */
  csv: boolean;
  /** CSV: the column, by header name or 1-based position; the first column by default. */
  column?: string;
}

export type ReadListResult = { ok: true; values: ValueSet } | { ok: false; message: string };

/**
 * The distinct values in file order (ValueSet iterates them so): surrounding line ends and a
 * byte-order mark removed, empty lines and cells skipped, each value otherwise as written (lists
 * are compared as written). Given the file's bytes, a list of one value a line keeps them as its
 * storage: no string per value is ever made (a 1,000,000-value list then costs its file and the
 * set's tables); text is read as its UTF-8 bytes.
 */
export function readListValues(
  input: string | Uint8Array,
  options: ReadListOptions,
): ReadListResult {
  if (!options.csv) {
    // Bytes that are not UTF-8 read as the decoder reads them (U+FFFD), as text would.
    const bytes =
      typeof input === 'string'
        ? encoder.encode(input)
        : isUtf8(input)
          ? input
          : encoder.encode(decoder.decode(input));
    return { ok: true, values: linesOf(bytes) };
  }
  const text = typeof input === 'string' ? input : decoder.decode(input);
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const seen = new ValueSet();
  let index = -1;
  let failure: string | null = null;
  const ended = eachCsvRecord(body, (cells, first) => {
    if (first) {
      index = listColumnIndex(cells, options.column);
      if (index < 0) {
        failure =
          options.column === undefined
            ? 'The CSV file has no header row'
            : `The CSV file has no column '${options.column}'; its columns are: ${cells.join(', ')}`;
        return false;
      }
      return true;
    }
    const value = cells[index] ?? '';
    if (value !== '') seen.add(value);
    return true;
  });
  if (failure !== null) return { ok: false, message: failure };
  if (!ended) return { ok: false, message: 'The CSV file has a quote that is never closed' };
  if (index < 0) return { ok: false, message: 'The CSV file is empty' };
  return { ok: true, values: seen };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const LF = 10;
const CR = 13;

/** One value a line, as spans of `bytes` (counted first, so that the set is sized once). */
function linesOf(bytes: Uint8Array): ValueSet {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let lines = 1;
  for (let at = bytes.indexOf(LF, bom); at >= 0; at = bytes.indexOf(LF, at + 1)) lines++;
  const set = ValueSet.over(bytes, lines);
  for (let start = bom; start < bytes.length;) {
    let end = bytes.indexOf(LF, start);
    if (end < 0) end = bytes.length;
    const next = end + 1;
    if (end > start && bytes[end - 1] === CR) end--;
    if (end > start) set.addSpan(start, end);
    start = next;
  }
  return set;
}

/** Whether `bytes` are well-formed UTF-8 (the decoder would change nothing). */
function isUtf8(bytes: Uint8Array): boolean {
  const n = bytes.length;
  for (let i = 0; i < n;) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let more: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      more = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      more = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      more = 3;
      min = 0x10000;
    } else return false;
    let code = b & (0x3f >> more);
    for (let k = 1; k <= more; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return false;
      code = (code << 6) | (c & 0x3f);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    if (code < min || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return false;
    i += 1 + more;
  }
  return true;
}

/** The column a list is read from: by header name, else a 1-based position; the first by default. */
export function listColumnIndex(header: string[], column: string | undefined): number {
  if (column === undefined || column === '') return header.length > 0 ? 0 : -1;
  const byName = header.indexOf(column);
  if (byName >= 0) return byName;
  if (/^[1-9][0-9]{0,5}$/.test(column)) {
    const n = Number(column) - 1;
    return n < header.length ? n : -1;
  }
  return -1;
}

/**
 * Calls `record` with each record's cells (the first with `first`); stops when it answers
 * false. Returns false when a quoted cell is never closed.
 */
function eachCsvRecord(
  text: string,
  record: (cells: string[], first: boolean) => boolean,
): boolean {
  let cells: string[] = [];
  let cell = '';
  let first = true;
  let i = 0;
  const n = text.length;
  const endRecord = (): boolean => {
    cells.push(cell);
    cell = '';
    const blank = cells.length === 1 && cells[0] === '';
    const go = blank ? true : record(cells, first);
    if (!blank) first = false;
    cells = [];
    return go;
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */ && cell === '') {
      // A quoted cell: "" is a quote; it ends at the quote before a comma or line end.
      let j = i + 1;
      let out = '';
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) return false;
        out += text.slice(j, q);
        if (text.charCodeAt(q + 1) === 34) {
          out += '"';
          j = q + 2;
          continue;
        }
        j = q + 1;
        break;
      }
      cell = out;
      i = j;
      continue;
    }
    if (c === 44 /* , */) {
      cells.push(cell);
      cell = '';
      i++;
    } else if (c === 10 || c === 13) {
      if (!endRecord()) return true;
      i += c === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
    } else {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 44 || d === 10 || d === 13) break;
        j++;
      }
      cell += text.slice(i, j);
      i = j;
    }
  }
  if (cell !== '' || cells.length > 0) endRecord();
  return true;
}
