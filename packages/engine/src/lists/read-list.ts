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

export type ReadListResult = { ok: true; values: string[] } | { ok: false; message: string };

/**
 * The distinct values in file order: surrounding line ends and a byte-order mark removed, empty
 * lines and cells skipped, each value otherwise as written (lists are compared as written).
 */
export function readListValues(text: string, options: ReadListOptions): ReadListResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const seen = new ValueSet();
  const add = (value: string) => {
    if (value !== '') seen.add(value);
  };
  if (!options.csv) {
    for (let start = 0; start < body.length;) {
      let end = body.indexOf('\n', start);
      if (end < 0) end = body.length;
      const next = end + 1;
      if (end > start && body.charCodeAt(end - 1) === 13) end--;
      if (end > start) seen.add(body.slice(start, end));
      start = next;
    }
    return { ok: true, values: seen.list };
  }
  let index = -1;
  let failure: string | null = null;
  const ended = eachCsvRecord(body, (cells, first) => {
    if (first) {
      index = columnIndex(cells, options.column);
      if (index < 0) {
        failure =
          options.column === undefined
            ? 'The CSV file has no header row'
            : `The CSV file has no column '${options.column}'; its columns are: ${cells.join(', ')}`;
        return false;
      }
      return true;
    }
    add(cells[index] ?? '');
    return true;
  });
  if (failure !== null) return { ok: false, message: failure };
  if (!ended) return { ok: false, message: 'The CSV file has a quote that is never closed' };
  if (index < 0) return { ok: false, message: 'The CSV file is empty' };
  return { ok: true, values: seen.list };
}

function columnIndex(header: string[], column: string | undefined): number {
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
