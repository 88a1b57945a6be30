// The valid output on bytes: the row splitter's CSV reader offers it whole lines before decoding
// them (the reader's ByteRecords hook, as the byte core is offered them), and a row without
// problems whose bytes are what cutting it into cells and joining them again would write is
// copied as it lies. Decoding each line to text and encoding it back was most of what the outputs
// cost. It stops, and the reader reads the row the usual way, at anything else: a row with
// problems, a blank line, a carriage return that does not end the row, a quote `csvField` would
// not write, bytes that are not UTF-8 (or, in a Windows-1252 file, any byte above 0x7F), a row
// too long to be sure no cell of it is over the reader's limit.

import type { ByteRecords } from '../csv/reader.ts';
import { utf8SequenceAt } from '../text/utf8.ts';

const CR = 13;
const LF = 10;
const QUOTE = 34;
/**
 * Each stop costs the reader a line read as text and another call: past this many, a file whose
 * stops outnumber a quarter of the rows taken is left to the text path (as the byte core is).
 */
const GIVE_UP_AFTER_STOPS = 256;

/** Where a piece of whole rows is gathered, as UTF-8. */
export interface BytePieces {
  text(text: string): void;
  /** bytes[start, end) with a carriage return put before each of the `count` line feeds at `lineFeeds`. */
  lines(bytes: Uint8Array, start: number, end: number, lineFeeds: Int32Array, count: number): void;
}

/**
 * `firstProblemRow(row)`: the first row at or after `row` with problems (Infinity: none so far).
 * `maxRowBytes`: the reader's limit for one cell; a shorter row cannot hold a cell over it.
 * `written` is told how many rows each call copied.
 */
export function validRowsAsBytes(
  pieces: BytePieces,
  firstProblemRow: (row: number) => number,
  written: (rows: number) => void,
  delimiter: number,
  maxRowBytes: number,
): ByteRecords {
  let stops = 0;
  let taken = 0;
  /** The line feeds of the rows that end without a carriage return, to get one. */
  let lineFeeds = new Int32Array(1024);
  // The next quote, carriage return and byte above 0x7F in `lines` at or after where each was
  // last looked for (its end: none), and how far the last call read: most rows hold none of them
  // and are taken as their line.
  let lines: Uint8Array | undefined;
  let reached = 0;
  let nextQuote = -1;
  let nextReturn = -1;
  let nextHigh = -1;
  const records: ByteRecords = {
    active: true,
    rows: 0,
    chars: 0,
    take(input, start, end, row, ascii) {
      // Searches on the input (a Buffer's indexOf is memchr, several times a Uint8Array's), reads
      // and copies on a plain view (a Buffer's subarray costs several times a Uint8Array's).
      const bytes = new Uint8Array(input.buffer, input.byteOffset, input.length);
      // Its issues came from the validator first (the splitter is pushed each chunk after it).
      const rowsBeforeProblem = firstProblemRow(row) - row;
      let at = start;
      let rows = 0;
      let chars = 0;
      let bare = 0;
      // The reader offers the rest of the same lines after each row it read itself: what was
      // found in them still holds.
      if (input !== lines || start < reached) {
        lines = input;
        nextQuote = nextReturn = nextHigh = -1;
      }
      while (at < end && rows < rowsBeforeProblem) {
        // Whole lines: a line feed ends them.
        const lineFeed = input.indexOf(LF, at);
        if (lineFeed < 0 || lineFeed >= end) break;
        if (nextQuote < at) nextQuote = found(input.indexOf(QUOTE, at), end);
        if (nextReturn < at) nextReturn = found(input.indexOf(CR, at), end);
        if (nextHigh < at) nextHigh = firstHighByte(bytes, at, end);
        let next = lineFeed + 1;
        let units = next - at;
        if (nextQuote < lineFeed || nextHigh < lineFeed || nextReturn < lineFeed - 1) {
          next = asWrittenEnd(bytes, at, end, delimiter, ascii);
          if (next < 0) break;
          units = next - at - extraBytes;
        }
        if (next - at > maxRowBytes) break;
        const crlf = bytes[next - 2] === CR;
        // A blank line is a row number and no record: the reader counts it.
        if (next - at === (crlf ? 2 : 1)) break;
        if (!crlf) {
          if (bare === lineFeeds.length) {
            const more = new Int32Array(2 * bare);
            more.set(lineFeeds);
            lineFeeds = more;
          }
          lineFeeds[bare++] = next - 1;
        }
        rows++;
        chars += units;
        at = next;
      }
      reached = at;
      if (at > start) pieces.lines(bytes, start, at, lineFeeds, bare);
      records.rows = rows;
      records.chars = chars;
      written(rows);
      taken += rows;
      if (at < end && ++stops >= GIVE_UP_AFTER_STOPS && stops * 4 > taken) records.active = false;
      return at;
    },
  };
  return records;
}

const found = (at: number, none: number) => (at < 0 ? none : at);

const HIGH_BITS = 0x80808080;

/** The first byte above 0x7F in [from, end), or end: four bytes a step where they are aligned. */
function firstHighByte(bytes: Uint8Array, from: number, end: number): number {
  let i = from;
  while (i < end && ((bytes.byteOffset + i) & 3) !== 0) {
    if ((bytes[i] as number) >= 0x80) return i;
    i++;
  }
  if (i >= end) return end;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset + i, (end - i) >> 2);
  let w = 0;
  while (w < words.length && ((words[w] as number) & HIGH_BITS) === 0) w++;
  for (i += 4 * w; i < end; i++) if ((bytes[i] as number) >= 0x80) return i;
  return end;
}

/** Counted by asWrittenEnd: the row's bytes beyond one per UTF-16 unit of its text. */
let extraBytes = 0;

/**
 * Where the row starting at `start` ends (just after its line feed) when its bytes are what
 * joining its cells again writes: every quoted cell needs its quotes (a quote, doubled, the
 * delimiter or a line feed) and is followed by the delimiter or the line break, no unquoted cell
 * holds a quote, no carriage return but the one of a CRLF, and its text is well-formed UTF-8
 * (`ascii`: plain ASCII). -1 otherwise, or when the row does not end before `end`.
 */
function asWrittenEnd(
  bytes: Uint8Array,
  start: number,
  end: number,
  delimiter: number,
  ascii: boolean,
): number {
  extraBytes = 0;
  let i = start;
  for (;;) {
    if (i >= end) return -1;
    if (bytes[i] === QUOTE) {
      let needsQuotes = false;
      let j = i + 1;
      for (;;) {
        if (j >= end) return -1;
        const c = bytes[j] as number;
        if (c === QUOTE) {
          if (j + 1 >= end) return -1;
          if (bytes[j + 1] !== QUOTE) break;
          needsQuotes = true;
          j += 2;
          continue;
        }
        if (c >= 0x80) {
          const length = sequenceAt(bytes, j, end, ascii);
          if (length < 0) return -1;
          j += length;
          continue;
        }
        if (c === delimiter || c === LF) needsQuotes = true;
        else if (c === CR) return -1;
        j++;
      }
      if (!needsQuotes) return -1;
      i = j + 1;
      if (i >= end) return -1;
      const after = bytes[i];
      if (after === delimiter) i++;
      else if (after === LF) return i + 1;
      else if (after === CR && i + 1 < end && bytes[i + 1] === LF) return i + 2;
      else return -1;
    } else {
      for (;;) {
        if (i >= end) return -1;
        const c = bytes[i] as number;
        if (c === delimiter) {
          i++;
          break;
        }
        if (c === LF) return i + 1;
        if (c === CR) return i + 1 < end && bytes[i + 1] === LF ? i + 2 : -1;
        if (c === QUOTE) return -1;
        if (c >= 0x80) {
          const length = sequenceAt(bytes, i, end, ascii);
          if (length < 0) return -1;
          i += length;
          continue;
        }
        i++;
      }
    }
  }
}

/** The length of the UTF-8 sequence at i (-1: not one, or any in `ascii`); counts its extra bytes. */
function sequenceAt(bytes: Uint8Array, i: number, end: number, ascii: boolean): number {
  const length = ascii ? -1 : utf8SequenceAt(bytes, i, end);
  if (length > 0) extraBytes += length === 4 ? 2 : length - 1;
  return length;
}
