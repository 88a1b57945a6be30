import { MAX_ISSUE_VALUE_CHARS } from '../model.ts';

/** Offsets count UTF-16 code units of the decoded text, from the start of the file's text. */
export interface RecordHandler {
  /** A well-formed record; its text is [start, end). */
  record(cells: string[], row: number, start: number, end: number): void;
  /** A record that could not be read. `cells` is a best-effort reading, used for a broken header. */
  error(row: number, message: string, value: string | null, cells: string[]): void;
  /**
   * Offered each record first, at text[start] (`offset` in the file's text): where the next record
   * starts when it took this one whole, or -1 to have it read here (see QuickCsvRecord).
   */
  quick(text: string, start: number, end: number, row: number, offset: number): number;
}

export interface RecordParser {
  /** Parses `text`, which continues what came before; with `final` the file ends after it. */
  feed(text: string, final: boolean): void;
  /**
   * Chunked validation only (parallel/): counts `n` rows as already read, so that the next record
   * of a chunk gets its row number in the whole file.
   */
  addRows(n: number): void;
  /**
   * Chunked validation only: the row of the last line break read, and whether everything fed so
   * far ended exactly at a record boundary (no field, quote or CRLF half-read).
   */
  boundary(): { row: number; clean: boolean };
  /**
   * Counts `rows` rows and `chars` characters of text as read elsewhere (the byte core took their
   * records whole). Only where boundary() is clean.
   */
  skip(rows: number, chars: number): void;
}

const LF = 10;
const CR = 13;
const QUOTE = 34;

// Where parsing stands when a chunk runs out.
const RECORD_START = 0;
const FIELD_START = 1;
const UNQUOTED = 2;
const QUOTED = 3;
/** Discarding text up to the next line break, after a record that cannot be read. */
const SKIP_LINE = 4;

/** UTF-8 length of s[start, end). */
function utf8Length(s: string, start: number, end: number): number {
  let bytes = end - start;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) bytes += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

function firstLineBreak(s: string, from: number): number {
  let i = s.indexOf('\n', from);
  const j = s.indexOf('\r', from);
  if (i < 0) i = s.length;
  return j >= 0 && j < i ? j : i;
}

/**
 * The streaming core: cells are cut with indexOf, never character by character. Positions of the
 * next delimiter, LF and CR are cached and only searched again once passed, so each character is
 * looked at about once. Only the text of the field in progress is kept between chunks.
 */
export function createRecordParser(
  delimiter: string,
  maxFieldBytes: number,
  startOffset: number,
  out: RecordHandler,
): RecordParser {
  const delimCode = delimiter.charCodeAt(0);
  // A UTF-16 code unit is at most 3 UTF-8 bytes, so fields this short never need counting.
  const safeChars = Math.floor(maxFieldBytes / 3);
  // UTF-8 bytes of the field in progress up to countedEnd (-1: not counted yet), so that a long
  // field arriving in many chunks is counted once, not once per chunk.
  let counted = 0;
  let countedEnd = -1;
  function tooLong(s: string, start: number, end: number): boolean {
    if (end - start <= safeChars) return false;
    if (end - start > maxFieldBytes) return true;
    if (countedEnd < 0) {
      countedEnd = start;
      counted = 0;
    }
    counted += utf8Length(s, countedEnd, end);
    countedEnd = end;
    return counted > maxFieldBytes;
  }

  let buf = '';
  /** Offset of buf[0] in the file's text. */
  let base = startOffset;
  let pos = 0;
  let state = RECORD_START;
  let row = 0;
  let cells: string[] = [];
  let recordStart = 0;
  let fieldStart = 0;
  /** Inside a quoted field: where to look for the next quote. */
  let quoteScan = 0;
  let escaped = false;
  /** The last chunk ended with CR, so an LF starting the next one belongs to it. */
  let pendingLF = false;
  /** A problem found in the record so far that does not stop reading it. */
  let problem: string | null = null;
  let problemValue: string | null = null;
  /** The unquoted cell in progress carries that problem: it becomes the reported value. */
  let problemInCell = false;

  function capped(value: string): string {
    return value.length > MAX_ISSUE_VALUE_CHARS ? value.slice(0, MAX_ISSUE_VALUE_CHARS) : value;
  }

  function finishRecord(end: number): void {
    if (problem === null) out.record(cells, row, recordStart, base + end);
    else fail(problem, problemValue, cells);
  }

  function fail(message: string, value: string | null, bestEffort: string[]): void {
    out.error(row, problem ?? message, problem === null ? value : problemValue, bestEffort);
    problem = null;
    problemValue = null;
    problemInCell = false;
  }

  /**
   * The start of a field found too long. A chunk may end anywhere after its first safeChars + 1
   * characters, so no more is shown, or the value would depend on the chunks.
   */
  function longValue(b: string, start: number): string {
    return b.slice(start, start + Math.min(MAX_ISSUE_VALUE_CHARS, safeChars + 1));
  }

  function tooLongMessage(): string {
    return `Column ${cells.length + 1} is longer than ${maxFieldBytes} bytes, the limit for one value`;
  }

  /** Position after the line break at i; CRLF is one break even across chunks. */
  function breakEnd(b: string, i: number, final: boolean): number {
    if (b.charCodeAt(i) !== CR) return i + 1;
    if (i + 1 < b.length) return b.charCodeAt(i + 1) === LF ? i + 2 : i + 1;
    if (!final) pendingLF = true;
    return i + 1;
  }

  /**
   * A quoted field that cannot be right (never closed, too long, or text after its closing quote
   * although it ran over a line break) most likely has a stray quote: reading resumes on the line
   * after the one where the quote opened, so one bad quote costs one row.
   */
  function failQuoted(b: string, message: string, oversized: boolean, final: boolean): number {
    const lineEnd = firstLineBreak(b, fieldStart + 1);
    if (oversized) {
      fail(message, longValue(b, fieldStart), cells);
    } else {
      const rest = b.slice(fieldStart + 1, lineEnd);
      fail(message, capped(b.slice(fieldStart, lineEnd)), cells.concat(rest.split(delimiter)));
    }
    if (lineEnd < b.length) {
      state = RECORD_START;
      return breakEnd(b, lineEnd, final);
    }
    state = final ? RECORD_START : SKIP_LINE;
    return b.length;
  }

  function run(final: boolean): void {
    const b = buf;
    const n = b.length;
    let p = pos;
    // Next delimiter, LF and CR at or after the position they were searched from; n when none.
    let nextDelim = -1;
    let nextLF = -1;
    let nextCR = -1;
    for (;;) {
      if (state === RECORD_START) {
        if (p >= n) break;
        const c = b.charCodeAt(p);
        if (pendingLF) {
          pendingLF = false;
          if (c === LF) {
            p++;
            continue;
          }
        }
        if (c === LF || c === CR) {
          // An empty line is no record, but a spreadsheet still shows it as a row.
          row++;
          p = breakEnd(b, p, final);
          continue;
        }
        const after = out.quick(b, p, n, row + 1, base + p);
        if (after >= 0) {
          row++;
          p = after;
          continue;
        }
        row++;
        recordStart = base + p;
        cells = [];
        state = FIELD_START;
      }

      if (state === FIELD_START) {
        if (p >= n) {
          if (!final) break;
          cells.push('');
          finishRecord(n);
          state = RECORD_START;
          continue;
        }
        fieldStart = p;
        countedEnd = -1;
        if (b.charCodeAt(p) === QUOTE) {
          quoteScan = p + 1;
          escaped = false;
          state = QUOTED;
        } else {
          state = UNQUOTED;
        }
      }

      if (state === UNQUOTED) {
        if (nextDelim < p) {
          nextDelim = b.indexOf(delimiter, p);
          if (nextDelim < 0) nextDelim = n;
        }
        if (nextLF < p) {
          nextLF = b.indexOf('\n', p);
          if (nextLF < 0) nextLF = n;
        }
        if (nextCR < p) {
          nextCR = b.indexOf('\r', p);
          if (nextCR < 0) nextCR = n;
        }
        let e = nextDelim < nextLF ? nextDelim : nextLF;
        if (nextCR < e) e = nextCR;
        if (e === n && !final) {
          p = n;
          if (tooLong(b, fieldStart, n)) {
            fail(tooLongMessage(), longValue(b, fieldStart), cells);
            state = SKIP_LINE;
          }
          break;
        }
        if (e - fieldStart > safeChars && tooLong(b, fieldStart, e)) {
          fail(tooLongMessage(), longValue(b, fieldStart), cells);
          p = e;
          state = SKIP_LINE;
          continue;
        }
        const cell = b.slice(fieldStart, e);
        if (problemInCell) {
          problemInCell = false;
          problemValue = capped(cell);
        }
        cells.push(cell);
        if (e === nextDelim && e < n) {
          p = e + 1;
          state = FIELD_START;
          continue;
        }
        finishRecord(e);
        p = e < n ? breakEnd(b, e, final) : n;
        state = RECORD_START;
        continue;
      }

      if (state === QUOTED) {
        const q = b.indexOf('"', quoteScan);
        if (q < 0 || (q + 1 === n && !final)) {
          const scanned = q < 0 ? n : q;
          if (tooLong(b, fieldStart + 1, scanned)) {
            p = failQuoted(b, tooLongMessage(), true, final);
            continue;
          }
          if (!final) {
            quoteScan = scanned;
            p = n;
            break;
          }
          p = failQuoted(
            b,
            `Column ${cells.length + 1} opens a quote that is never closed`,
            false,
            final,
          );
          continue;
        }
        const c = q + 1 < n ? b.charCodeAt(q + 1) : -1;
        if (c === QUOTE) {
          escaped = true;
          quoteScan = q + 2;
          continue;
        }
        if (q - fieldStart > safeChars && tooLong(b, fieldStart + 1, q)) {
          p = failQuoted(b, tooLongMessage(), true, final);
          continue;
        }
        if (c === delimCode || c === LF || c === CR || c < 0) {
          const value = b.slice(fieldStart + 1, q);
          cells.push(escaped ? value.replaceAll('""', '"') : value);
          if (c === delimCode) {
            p = q + 2;
            state = FIELD_START;
            continue;
          }
          finishRecord(q + 1);
          p = c < 0 ? n : breakEnd(b, q + 1, final);
          state = RECORD_START;
          continue;
        }
        const stray = `Column ${cells.length + 1} has text after its closing quote`;
        if (firstLineBreak(b, fieldStart + 1) < q) {
          p = failQuoted(b, stray, false, final);
          continue;
        }
        // On one line `"ab"c` reads on like a spreadsheet would, so the record's other cells
        // stay aligned for the header; the row itself is reported, not checked.
        if (problem === null) {
          problem = stray;
          problemInCell = true;
        }
        // The cell now counts from its opening quote.
        countedEnd = -1;
        p = q + 1;
        state = UNQUOTED;
        continue;
      }

      // SKIP_LINE
      if (nextLF < p) {
        nextLF = b.indexOf('\n', p);
        if (nextLF < 0) nextLF = n;
      }
      if (nextCR < p) {
        nextCR = b.indexOf('\r', p);
        if (nextCR < 0) nextCR = n;
      }
      const e = nextLF < nextCR ? nextLF : nextCR;
      if (e >= n) {
        p = n;
        if (final) state = RECORD_START;
        break;
      }
      p = breakEnd(b, e, final);
      state = RECORD_START;
    }
    pos = p;
  }

  return {
    feed(text, final) {
      // Keep only the field in progress: earlier cells are already cut out.
      const keep = state === UNQUOTED || state === QUOTED ? fieldStart : pos;
      if (keep > 0) {
        buf = buf.slice(keep);
        base += keep;
        pos -= keep;
        fieldStart -= keep;
        quoteScan -= keep;
        if (countedEnd >= 0) countedEnd -= keep;
      }
      buf = buf.length === 0 ? text : buf + text;
      run(final);
    },
    addRows(n) {
      row += n;
    },
    boundary() {
      return { row, clean: state === RECORD_START && !pendingLF && pos >= buf.length };
    },
    skip(rows, chars) {
      row += rows;
      base += pos + chars;
      buf = '';
      pos = 0;
    },
  };
}
