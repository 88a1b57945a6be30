// The good rows back: while a file is validated, its rows are read a second time by the same
// reader and written to two outputs, the rows without errors as they were, and the rows with
// errors plus what is wrong with them. Both readers see the same bytes in the same pieces, so
// when this reader hands over row N the validator has already reported every issue of row N:
// only the issues of rows not yet written are held (push the validator first, then this).
//
// CSV (and a workbook's sheet, which arrives as CSV): a header row, then the rows in the file's
// delimiter; `invalid` adds an `errors` column ("email: Must be a valid email; ..."). A clean row
// whose bytes are already what that writes is copied as it lies (valid-bytes.ts), or, where the
// reader reads it as text, written as its text lies (validAsWritten). JSON: the
// input's form, an array or one record per line (NDJSON), records re-serialised from their values
// (numbers keep their digits); an invalid record is written as it was, without an added member.
// A record whose text, without its blanks, is already what re-serialising writes is written so,
// without being built (compactAsWritten).

import {
  createCsvReader,
  DEFAULT_MAX_FIELD_BYTES,
  type CsvReaderOptions,
  type QuickCsvRecord,
  type CsvSink,
} from '../csv/reader.ts';
import { createJsonReader, type QuickRecord } from '../json/reader.ts';
import { shortestNumberEnd } from '../json/numbers.ts';
import type { JsonNode } from '../validate/json-fields.ts';
import { createQuickRecord } from '../validate/json-quick.ts';
import { validRowsAsBytes, type BytePieces } from './valid-bytes.ts';
import { type FileType, type Issue, LosslessNumber } from '../model.ts';

/**
 * Where the rows go: whole rows as UTF-8, in pieces of about PIECE_BYTES (see flush()). A piece
 * is the receiver's: it is never written again (a worker can transfer its buffer).
 */
export interface SplitOutputs {
  valid(bytes: Uint8Array): void;
  invalid(bytes: Uint8Array): void;
}

/** Bytes gathered before an output is called: a call per row cost more than splitting it. */
const PIECE_BYTES = 64 * 1024;

/**
 * What the splitter reads of an issue: an Issue is one, and a validator on another thread can
 * send just these (the server's row outputs on a second worker).
 */
export type RowIssue = Pick<Issue, 'row' | 'field' | 'message' | 'path' | 'severity'>;

/** The part of `issue` the splitter reads, as a small object to send to another thread. */
export function rowIssueOf(issue: Issue): RowIssue {
  const r: RowIssue = { row: issue.row, field: issue.field, message: issue.message };
  if (issue.path !== undefined) r.path = issue.path;
  if (issue.severity !== undefined) r.severity = issue.severity;
  return r;
}

export interface RowSplitter {
  /** Every issue of the validation, in file order (pass it from onIssue). */
  issue(issue: RowIssue): void;
  /** The same chunk the validator was just given. */
  push(chunk: Uint8Array): void;
  /** Hands the outputs what is gathered (a caller that waits for its writes calls it first). */
  flush(): void;
  /** Ends reading and flushes. */
  end(): void;
  /** Rows written to each output. */
  readonly counts: { valid: number; invalid: number };
}

export interface SplitOptions {
  fileType: FileType;
  delimiter?: string;
  jsonShape?: 'array' | 'object' | 'ndjson';
}

export function createRowSplitter(outputs: SplitOutputs, options: SplitOptions): RowSplitter {
  const valid = inPieces((bytes) => outputs.valid(bytes));
  const invalid = inPieces((bytes) => outputs.invalid(bytes));
  const out: Outputs = { valid, invalid };
  const flush = () => {
    valid.flush();
    invalid.flush();
  };
  const problems = new Map<number, string[]>();
  // Issues come in file order, so the problems' rows mostly rise: the first one at or after a
  // row is then the first left in the map (rows before it are never asked for again).
  let risingRows = true;
  let lastRow = 0;
  const firstProblemRow = (row: number): number => {
    let first = Infinity;
    for (const problemRow of problems.keys()) {
      if (problemRow < row) problems.delete(problemRow);
      else if (problemRow < first) {
        first = problemRow;
        if (risingRows) break;
      }
    }
    return first;
  };
  const counts = { valid: 0, invalid: 0 };
  const take = (row: number): string[] | undefined => {
    const list = problems.get(row);
    if (list) problems.delete(row);
    return list;
  };
  const issue = (i: RowIssue) => {
    // Issues of the header (row 1 in CSV) belong to the file, not to a row; warnings never fail a row.
    if ((options.fileType === 'csv' && i.row <= 1) || i.row <= 0 || i.severity === 'warning')
      return;
    const text = i.field
      ? `${i.path && options.fileType === 'json' ? i.path : i.field}: ${i.message}`
      : i.message;
    if (i.row < lastRow) risingRows = false;
    lastRow = i.row;
    const list = problems.get(i.row);
    if (list) list.push(text);
    else problems.set(i.row, [text]);
  };
  const reader =
    options.fileType === 'csv'
      ? csvSplit(out, options, take, (row) => problems.has(row), firstProblemRow, counts)
      : jsonSplit(out, options, take, counts);
  return {
    issue,
    push: reader.push,
    flush,
    end() {
      reader.end();
      flush();
    },
    counts,
  };
}

/** The two outputs as the readers write them. */
interface Outputs {
  valid: BytePieces;
  invalid: BytePieces;
}

const encoder = new TextEncoder();

/** Rows for `write`, gathered as UTF-8 into pieces of about PIECE_BYTES (flush writes the rest). */
function inPieces(write: (bytes: Uint8Array) => void) {
  let piece = new Uint8Array(2 * PIECE_BYTES);
  let length = 0;
  const room = (bytes: number) => {
    if (length + bytes <= piece.length) return;
    const larger = new Uint8Array(Math.max(2 * piece.length, length + bytes));
    larger.set(piece.subarray(0, length));
    piece = larger;
  };
  const flush = () => {
    if (length === 0) return;
    write(piece.slice(0, length));
    length = 0;
  };
  return {
    text(text: string) {
      room(3 * text.length);
      length += encoder.encodeInto(text, piece.subarray(length)).written;
      if (length >= PIECE_BYTES) flush();
    },
    lines(bytes: Uint8Array, start: number, end: number, lineFeeds: Int32Array, count: number) {
      room(end - start + count);
      const base = length - start;
      piece.set(bytes.subarray(start, end), length);
      // From the last line feed back, each stretch moves right by the returns put before it.
      let tail = end;
      for (let k = count - 1; k >= 0; k--) {
        const lineFeed = lineFeeds[k] as number;
        piece.copyWithin(base + lineFeed + k + 1, base + lineFeed, base + tail);
        piece[base + lineFeed + k] = CR;
        tail = lineFeed;
      }
      length += end - start + count;
      if (length >= PIECE_BYTES) flush();
    },
    flush,
  };
}

function csvSplit(
  out: Outputs,
  options: SplitOptions,
  take: (row: number) => string[] | undefined,
  hasProblems: (row: number) => boolean,
  firstProblemRow: (row: number) => number,
  counts: { valid: number; invalid: number },
) {
  const readerOptions: CsvReaderOptions = {};
  if (options.delimiter !== undefined) readerOptions.delimiter = options.delimiter;
  let delimiter = ',';
  let width = 0;
  const line = (cells: readonly string[]) =>
    cells.map((c) => csvField(c, delimiter)).join(delimiter);
  const sink: CsvSink = {
    header(cells) {
      delimiter = reader.delimiter ?? ',';
      width = cells.length;
      out.valid.text(`${line(cells)}\r\n`);
      out.invalid.text(`${line([...cells, 'errors'])}\r\n`);
      sink.quickRecord = validAsWritten(out, hasProblems, counts, delimiter);
      const code = delimiter.charCodeAt(0);
      if (delimiter.length === 1 && code < 0x80) {
        sink.byteRecords = validRowsAsBytes(
          out.valid,
          firstProblemRow,
          (rows) => (counts.valid += rows),
          code,
          DEFAULT_MAX_FIELD_BYTES,
        );
      }
    },
    record(cells, row) {
      const errors = take(row);
      if (!errors) {
        counts.valid++;
        out.valid.text(`${line(cells)}\r\n`);
        return;
      }
      counts.invalid++;
      const padded =
        cells.length < width
          ? [...cells, ...new Array<string>(width - cells.length).fill('')]
          : cells;
      out.invalid.text(`${line([...padded, errors.join('; ')])}\r\n`);
    },
    issue(row, _code, message, value) {
      // A row the reader could not cut into cells: kept as its text, in the first column.
      if (row <= 1) return;
      counts.invalid++;
      const errors = take(row) ?? [message];
      const cells = [value ?? '', ...new Array<string>(Math.max(0, width - 1)).fill('')];
      out.invalid.text(`${line([...cells, errors.join('; ')])}\r\n`);
    },
    warning() {},
  };
  const reader = createCsvReader(sink, readerOptions);
  return { push: (chunk: Uint8Array) => reader.push(chunk), end: () => reader.end() };
}

/**
 * The reader's fast path for the valid output: a row without problems whose text is what
 * `line(cells)` would write is written as it lies, without cutting it into cells and joining them
 * again, which was most of the cost of the outputs. That is a row without a carriage return
 * (but the one of its CRLF) whose quoted cells are quoted as `csvField` quotes them: they hold a
 * quote (doubled), the delimiter or a line feed, and nothing follows their closing quote but the
 * delimiter or the line break. Any other row is read the normal way.
 */
function validAsWritten(
  out: Outputs,
  hasProblems: (row: number) => boolean,
  counts: { valid: number; invalid: number },
  delimiter: string,
): QuickCsvRecord {
  // The next quote and carriage return at or after where each was last searched in `text`: each
  // character is searched about once per text, not once per row.
  let text = '';
  let reached = 0;
  let nextQuote = -1;
  let nextCR = -1;
  const delim = delimiter.length === 1 ? delimiter.charCodeAt(0) : -1;
  return (piece, start, end, row) => {
    if (piece !== text || start < reached) {
      text = piece;
      nextQuote = nextCR = -1;
    }
    reached = start;
    const lineFeed = text.indexOf('\n', start);
    if (lineFeed < 0 || lineFeed >= end) return -1;
    let stop = lineFeed;
    if (stop > start && text.charCodeAt(stop - 1) === CR) stop--;
    if (nextQuote < start) nextQuote = found(text.indexOf('"', start));
    let next = lineFeed + 1;
    if (nextQuote < stop) {
      // quotedRowEnd gives up on any carriage return but the one of the row's CRLF.
      if (delim < 0) return -1;
      next = quotedRowEnd(text, start, end, delim);
      if (next < 0) return -1;
      stop = text.charCodeAt(next - 2) === CR ? next - 2 : next - 1;
    } else {
      // A carriage return inside the row: the normal way decides what it is.
      if (nextCR < start) nextCR = found(text.indexOf('\r', start));
      if (nextCR < stop) return -1;
    }
    // Its issues, if any, came from the validator first (push it the chunk first).
    if (hasProblems(row)) return -1;
    counts.valid++;
    out.valid.text(`${text.slice(start, stop)}\r\n`);
    return next;
  };
}

/**
 * Where the row starting at `start` ends (just after its line feed) when every quoted cell of it
 * is quoted as `csvField` would quote it and no cell holds a quote unquoted; -1 otherwise, or
 * when the row does not end before `end`.
 */
function quotedRowEnd(text: string, start: number, end: number, delim: number): number {
  let i = start;
  for (;;) {
    if (i >= end) return -1;
    if (text.charCodeAt(i) === QUOTE) {
      // A quoted cell: it must need its quotes, and end at a delimiter or the line break.
      let needsQuotes = false;
      let j = i + 1;
      for (;;) {
        if (j >= end) return -1;
        const c = text.charCodeAt(j);
        if (c === QUOTE) {
          if (j + 1 >= end) return -1;
          if (text.charCodeAt(j + 1) !== QUOTE) break;
          needsQuotes = true;
          j += 2;
          continue;
        }
        if (c === delim || c === LF) needsQuotes = true;
        else if (c === CR) return -1;
        j++;
      }
      if (!needsQuotes) return -1;
      i = j + 1;
      if (i >= end) return -1;
      const after = text.charCodeAt(i);
      if (after === delim) i++;
      else if (after === LF) return i + 1;
      else if (after === CR && i + 1 < end && text.charCodeAt(i + 1) === LF) return i + 2;
      else return -1;
    } else {
      for (;;) {
        if (i >= end) return -1;
        const c = text.charCodeAt(i);
        if (c === delim) {
          i++;
          break;
        }
        if (c === LF) return i + 1;
        if (c === CR) return i + 1 < end && text.charCodeAt(i + 1) === LF ? i + 2 : -1;
        if (c === QUOTE) return -1;
        i++;
      }
    }
  }
}

const CR = 13;
const LF = 10;
const QUOTE = 34;
const found = (at: number) => (at < 0 ? Number.MAX_SAFE_INTEGER : at);

function csvField(value: string, delimiter: string): string {
  return value.includes(delimiter) || /["\r\n]/.test(value)
    ? `"${value.replace(/"/g, '""')}"`
    : value;
}

function jsonSplit(
  out: Outputs,
  options: SplitOptions,
  take: (row: number) => string[] | undefined,
  counts: { valid: number; invalid: number },
) {
  let shape = options.jsonShape;
  let decided = shape !== undefined;
  const written = { valid: 0, invalid: 0 };
  const write = (which: 'valid' | 'invalid', text: string) => {
    const n = written[which]++;
    if (shape === 'ndjson') out[which].text(`${text}\n`);
    else if (shape === 'object') out[which].text(`${text}\n`);
    else out[which].text(`${n === 0 ? '[\n' : ',\n'}${text}`);
  };
  // The text fast path with no field to check finds where a well-formed object record ends, as
  // strictly as JSON.parse; compactAsWritten then says whether its text is the one to write.
  const wellFormed = createQuickRecord(ANY_OBJECT, () => true);
  const compactAsWritten = createCompactCheck();
  const quickRecord: QuickRecord = (text, start, end, row, line, controls) => {
    const after = wellFormed(text, start, end, row, line, controls);
    const compact = after < 0 ? null : compactAsWritten(text, start, after);
    if (compact === null) return -1;
    const which = take(row) ? 'invalid' : 'valid';
    counts[which]++;
    write(which, compact);
    return after;
  };
  const reader = createJsonReader(
    {
      quickRecord,
      record(value, row) {
        if (take(row)) {
          counts.invalid++;
          write('invalid', stringify(value));
        } else {
          counts.valid++;
          write('valid', stringify(value));
        }
      },
      issue(row) {
        // A record that could not be read is in neither output: it has no value to write.
        take(row);
        counts.invalid++;
      },
      warning() {},
    },
    shape ? { shape } : {},
  );
  return {
    push(chunk: Uint8Array) {
      if (!decided) {
        // The form to write back: an array when the text opens with `[`, else one per line.
        const text = new TextDecoder().decode(chunk.subarray(0, 64)).replace(/^\uFEFF?\s*/, '');
        if (text.length > 0) {
          shape = text[0] === '[' ? 'array' : 'ndjson';
          decided = true;
        }
      }
      reader.push(chunk);
    },
    end() {
      reader.end();
      if (shape !== 'ndjson' && shape !== 'object') {
        for (const which of ['valid', 'invalid'] as const)
          out[which].text(written[which] === 0 ? '[]\n' : '\n]\n');
      }
    },
  };
}

/** A record as the fast path walks it when no property is described: any object. */
const ANY_OBJECT: JsonNode = {
  key: '',
  name: '',
  relPath: '',
  field: undefined,
  children: [],
  childKeys: new Set(),
  requiredBelow: [],
  object: true,
  strict: false,
  inherited: false,
};

const BACKSLASH = 0x5c;
/** What follows a backslash where JSON.stringify writes the same escape: " \ b f n r t. */
const KEPT_ESCAPES = new Set([0x22, 0x5c, 0x62, 0x66, 0x6e, 0x72, 0x74]);
const isBlank = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * Whether the records of one text are already written as stringify() would write their values
 * (compactAsWritten). Called record after record on the same piece of text: where the next
 * backslash is in it is looked up once, not for every string.
 */
function createCompactCheck() {
  let piece = '';
  let nextBackslash = -1;
  /** The key hashes of the objects open at the position, the innermost's last. */
  const keys: number[] = [];
  /** Each open container: -1 for an array, else where its keys begin in `keys`. */
  const open: number[] = [];

  /**
   * The well-formed object record text[start, end) as stringify() writes its value, when that is
   * its text without the blanks between tokens; null otherwise. It is not when a string holds an
   * escape JSON.stringify writes otherwise (`\/`, any `\u`), when a number's literal is not the
   * number's shortest form (`1.50`, `1e2`, `-0`), or when an object repeats a key (JSON.parse
   * keeps the last value at the first key's place; a repeat is found by a hash of the keys, so a
   * rare collision only sends the record the long way).
   */
  return function compactAsWritten(text: string, start: number, end: number): string | null {
    // -1: no backslash after where it was last looked for; -2: not looked for yet.
    if (text !== piece) {
      piece = text;
      nextBackslash = -2;
    }
    keys.length = 0;
    open.length = 0;
    let out = '';
    let from = start;
    let keyNext = false;
    for (let i = start; i < end;) {
      const c = text.charCodeAt(i);
      if (isBlank(c)) {
        out += text.slice(from, i);
        while (i < end && isBlank(text.charCodeAt(i))) i++;
        from = i;
        continue;
      }
      if (c === 0x22) {
        const quote = text.indexOf('"', i + 1);
        if (nextBackslash < i + 1 && nextBackslash !== -1) {
          nextBackslash = text.indexOf('\\', i + 1);
        }
        let k = quote;
        if (nextBackslash !== -1 && nextBackslash < quote) {
          // Escapes: read character by character to the closing quote.
          for (k = i + 1; text.charCodeAt(k) !== 0x22; k++) {
            if (text.charCodeAt(k) === BACKSLASH && !KEPT_ESCAPES.has(text.charCodeAt(++k)))
              return null;
          }
        }
        if (keyNext) {
          let hash = k - i;
          for (let j = i + 1; j < k; j++) hash = (Math.imul(hash, 31) + text.charCodeAt(j)) | 0;
          for (let j = open[open.length - 1] as number; j < keys.length; j++)
            if (keys[j] === hash) return null;
          keys.push(hash);
          keyNext = false;
        }
        i = k + 1;
        continue;
      }
      if (c === 0x2d || isDigit(c)) {
        i = shortestNumberEnd(text, i);
        if (i < 0) return null;
        continue;
      }
      if (c === 0x7b) {
        open.push(keys.length);
        keyNext = true;
      } else if (c === 0x5b) {
        open.push(-1);
      } else if (c === 0x7d) {
        keys.length = open.pop() as number;
      } else if (c === 0x5d) {
        open.pop();
      } else if (c === 0x2c) {
        keyNext = (open[open.length - 1] as number) >= 0;
      }
      i++;
    }
    return from === start ? text.slice(start, end) : out + text.slice(from, end);
  };
}

/**
 * JSON text of a record, numbers a double cannot hold written with their own digits. Without such
 * a number, JSON.stringify writes the same text natively (the same key order, the same escapes),
 * in about two thirds of the time for the bench's records.
 */
function stringify(value: unknown): string {
  return holdsLosslessNumber(value) ? withRawNumbers(value) : JSON.stringify(value);
}

function holdsLosslessNumber(value: unknown): boolean {
  if (value instanceof LosslessNumber) return true;
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(holdsLosslessNumber);
  for (const key in value)
    if (holdsLosslessNumber((value as Record<string, unknown>)[key])) return true;
  return false;
}

function withRawNumbers(value: unknown): string {
  if (value instanceof LosslessNumber) return value.raw;
  if (Array.isArray(value)) return `[${value.map(withRawNumbers).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${withRawNumbers(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
