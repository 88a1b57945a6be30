// The boundary pass of chunked CSV validation: where a file can be cut into chunks that each start
// with a record, and how many line breaks (spreadsheet rows) lie before each cut.
//
// On bytes, with quote parity: a line feed is a record boundary when an even number of quotes
// came before it. Parity is associative (a range's quote count decides how the next range starts),
// which is what lets a scan like this run in pieces. It is exact for files quoted as RFC 4180
// says; a file it misreads (a quote inside an unquoted cell, `a"b`, which the reader keeps
// literally) is caught afterwards: each chunk's reader must end at a record boundary on the row
// the scan predicted (see chunk.ts), and otherwise the rest of the file is read in one piece.
//
// Line breaks are counted as the record parser counts rows: LF, CR and CRLF each end a row, also
// an empty one. Cuts are made only after an LF, so that a CRLF is never split.

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/** Where a scan stands between two pieces of the file. */
export interface CsvScanState {
  /** Inside a quoted field (odd quote parity). */
  inQuotes: boolean;
  /** The last byte scanned was a CR outside quotes (an LF next is the same line break). */
  afterCR: boolean;
  /** Line breaks outside quotes so far. */
  lineBreaks: number;
}

export function newCsvScanState(): CsvScanState {
  return { inQuotes: false, afterCR: false, lineBreaks: 0 };
}

export interface CsvCut {
  /** Offset in the bytes just after the last LF outside quotes, or -1 when there is none. */
  at: number;
  /** state.lineBreaks as it was at that offset. */
  lineBreaks: number;
}

/**
 * Scans `bytes` from `from`, continuing `state` (updated), and returns the last place a chunk
 * may end (with `firstOnly`, the first, and the state stands there). indexOf finds each quote and line break, so the scan costs little per byte.
 */
export function scanCsvBytes(
  bytes: Uint8Array,
  state: CsvScanState,
  from = 0,
  firstOnly = false,
): CsvCut {
  const n = bytes.length;
  let p = from;
  let inQuotes = state.inQuotes;
  let afterCR = state.afterCR;
  let breaks = state.lineBreaks;
  let cut = -1;
  let cutBreaks = breaks;
  let nextQuote = -1;
  let nextLF = -1;
  let nextCR = -1;
  while (p < n) {
    if (nextQuote < p) {
      nextQuote = bytes.indexOf(QUOTE, p);
      if (nextQuote < 0) nextQuote = n;
    }
    if (inQuotes) {
      if (nextQuote >= n) {
        p = n;
        break;
      }
      inQuotes = false;
      afterCR = false;
      p = nextQuote + 1;
      continue;
    }
    if (nextLF < p) {
      nextLF = bytes.indexOf(LF, p);
      if (nextLF < 0) nextLF = n;
    }
    if (nextCR < p) {
      nextCR = bytes.indexOf(CR, p);
      if (nextCR < 0) nextCR = n;
    }
    let e = nextQuote < nextLF ? nextQuote : nextLF;
    if (nextCR < e) e = nextCR;
    if (e >= n) {
      afterCR = false;
      p = n;
      break;
    }
    if (e === nextQuote) {
      inQuotes = true;
      afterCR = false;
    } else if (e === nextLF) {
      // The LF of a CRLF: the CR already counted the break.
      if (!(afterCR && e === p)) breaks++;
      afterCR = false;
      cut = e + 1;
      cutBreaks = breaks;
      if (firstOnly) {
        p = cut;
        afterCR = false;
        break;
      }
    } else {
      breaks++;
      afterCR = true;
    }
    p = e + 1;
    // A CR followed by anything but an LF leaves afterCR only if it was the last byte.
    if (afterCR && p < n && bytes[p] !== LF) afterCR = false;
  }
  state.inQuotes = inQuotes;
  state.afterCR = afterCR;
  state.lineBreaks = breaks;
  return { at: cut, lineBreaks: cutBreaks };
}
