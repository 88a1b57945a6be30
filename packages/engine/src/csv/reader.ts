// Streaming CSV reader: bytes in, header / records / issues / warnings out, in file order.
//
// Why it reads the way it does:
// - Rows are what a spreadsheet shows, so a user can find them: a record spanning lines is one
//   row, an empty line (nothing between two line breaks) is no record but still a row, and a
//   `sep=;` first line is not counted because Excel hides it.
// - The first 64 KiB are held before anything is read, so that the encoding and the delimiter are
//   decided on the same bytes however the file arrives in chunks.
// - Windows-1252 is chosen only when those 64 KiB are not UTF-8 and hold no multi-byte UTF-8
//   character (see text/detect-encoding.ts). Otherwise bad bytes are reported as encoding errors
//   on their rows, never silently turned into other characters.
// - A row with a parse or encoding error is reported once and not passed on as a record: its
//   cells cannot be trusted, so checking them would only add noise. The header is the exception:
//   it is always delivered (best effort, bad bytes as U+FFFD) so the remaining rows can be checked.
// - `a"b` keeps its quote literally, as spreadsheets do: rejecting it would fail many real files
//   while nothing is ambiguous. `"ab"c` is a parse error because the field's extent is unclear.
// - A quote that is never closed, or a field over the size limit, would otherwise swallow the
//   rest of the file: the row is reported and reading resumes on the line after the one where the
//   quote opened (or, for a long unquoted field, after its line). A genuine multi-line field over
//   the limit is then read as broken rows; the limit is far above real cells.
// - maxFieldBytes counts UTF-8 bytes of the decoded field, the same for every encoding.
import type { Warning } from '../model.ts';
import { forEachAsciiStretch } from '../text/ascii-stretches.ts';
import { createStreamDecoder, ENCODING_LABELS } from '../text/decoder.ts';
import type { StreamDecoder } from '../text/decoder.ts';
import {
  type DetectedEncoding,
  detectEncoding,
  ENCODING_SAMPLE_BYTES,
} from '../text/detect-encoding.ts';
import {
  DELIMITER_SAMPLE_CHARS,
  describeDelimiter,
  detectDelimiter,
  isUsableDelimiter,
  readSepLine,
} from './delimiter.ts';
import { createRecordParser } from './record-parser.ts';
import type { RecordHandler, RecordParser } from './record-parser.ts';

export interface CsvReaderOptions {
  /** One of , ; \t | — detected from the first lines when not given. */
  delimiter?: string;
  /** A single field above this many bytes is a parse_error on its row. Default 1 MiB. */
  maxFieldBytes?: number;
  /** Chunked validation only (engine/src/parallel): read a chunk as part of its file. */
  chunk?: CsvChunkReading;
}

/**
 * How one chunk of a file is read as the file's own reader would read those bytes. The chunk's
 * stream is the file's header line followed by the chunk, which starts after a line break.
 */
export interface CsvChunkReading {
  /** Decided on the file's first bytes: a chunk's own first bytes could decide otherwise. */
  encoding: DetectedEncoding;
  /** Line breaks in the file between the header and the chunk: rows counted once the header is read. */
  rowsAfterHeader: number;
  /** The file offset of a byte at this offset of the chunk's stream (for encoding errors). */
  fileOffset(streamOffset: number): number;
}

/**
 * A fast path for clean records: given the text where a record starts, it checks the record
 * without cutting it into cells and returns where the next record starts (after its line break)
 * when the record is well-formed and has nothing to report, or -1: the record is then read the
 * normal way, from the same start. It must read cells exactly as the record parser does, must not
 * look at `end` or past it, and must give up on a record whose line break is not wholly before
 * `end` (a CR just before it may be the first half of a CRLF).
 */
export type QuickCsvRecord = (text: string, start: number, end: number, row: number) => number;

/**
 * Clean records taken on their bytes (the WebAssembly byte core, validate/csv-bytes.ts): given
 * whole lines bytes[start, end) (starting a record, ending after a line feed) whose first line
 * is spreadsheet row `row`, it takes the clean records from the start, and returns where it
 * stopped, with the rows it read (records and empty lines) in `rows` and their text's length in
 * `chars`. The record there, if any, is read the normal way. Whatever it takes must be what the
 * normal way would find clean. `ascii`: the file is not UTF-8, so only ASCII bytes mean what they
 * would in UTF-8.
 */
export interface ByteRecords {
  /** False once it is off for the rest of the file (it stopped too often to pay). */
  active: boolean;
  take(bytes: Uint8Array, start: number, end: number, row: number, ascii: boolean): number;
  rows: number;
  chars: number;
}

/** Receives what the reader finds, in file order. Rows are spreadsheet rows: header = 1. */
export interface CsvSink {
  header(cells: string[]): void;
  /** Optional, read once header() returned: takes clean records whole (see QuickCsvRecord). */
  quickRecord?: QuickCsvRecord;
  /** Optional, read once header() returned, for UTF-8 and Windows-1252 files. */
  byteRecords?: ByteRecords;
  /** `row` is the record's spreadsheet row (a record spanning lines keeps one row number). */
  record(cells: string[], row: number): void;
  issue(
    row: number,
    code: 'parse_error' | 'encoding_error',
    message: string,
    value: string | null,
  ): void;
  warning(warning: Warning): void;
}

export interface CsvReader {
  push(chunk: Uint8Array): void;
  end(): void;
  /** The delimiter in use once known. */
  readonly delimiter: string | undefined;
  /**
   * Chunked validation only: the row of the last line break read, and whether every byte pushed
   * so far was read up to a record boundary. Undefined before reading started.
   */
  boundary(): { row: number; clean: boolean } | undefined;
}

export const DEFAULT_MAX_FIELD_BYTES = 1024 * 1024;

export const EMPTY_FILE_WARNING: Warning = {
  code: 'empty_file',
  message: 'The file is empty: it has no header row',
};

/** Bytes decoded and parsed at a time (see push). */
const PIECE_BYTES = 64 * 1024;
const LINE_FEED = 0x0a;
const NO_BYTES = new Uint8Array(0);

export function createCsvReader(sink: CsvSink, options: CsvReaderOptions = {}): CsvReader {
  return createSampledCsvReader(sink, options, ENCODING_SAMPLE_BYTES);
}

/**
 * createCsvReader deciding the encoding and delimiter on the first `sampleBytes` bytes (at least
 * 32). Only tests need another sample than the default: with a small one, small inputs reach the
 * parser in the chunks they were pushed in.
 */
export function createSampledCsvReader(
  sink: CsvSink,
  options: CsvReaderOptions,
  sampleBytes: number,
): CsvReader {
  if (!Number.isInteger(sampleBytes) || sampleBytes < 32)
    throw new RangeError('sampleBytes must be at least 32');
  // The least text the sample decodes to (3 bytes per character, less a BOM and a character cut
  // at its end) less a sep= line: the delimiter is detected on exactly this much, so that the
  // decision never depends on how many bytes past the sample the first chunks brought.
  const delimiterSampleChars = Math.min(
    DELIMITER_SAMPLE_CHARS,
    Math.floor((sampleBytes - 6) / 3) - 7,
  );
  const maxFieldBytes = options.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES;
  if (!Number.isInteger(maxFieldBytes) || maxFieldBytes < 1) {
    throw new RangeError(`maxFieldBytes must be a positive integer, got ${maxFieldBytes}`);
  }
  if (options.delimiter !== undefined && !isUsableDelimiter(options.delimiter)) {
    throw new RangeError(`Unusable delimiter ${JSON.stringify(options.delimiter)}`);
  }

  let delimiter = options.delimiter;
  let head: Uint8Array[] = [];
  let headBytes = 0;
  let decoder: StreamDecoder | null = null;
  let parser: RecordParser | null = null;
  let encodingLabel = 'UTF-8';
  /** Characters decoded before the current chunk's text. */
  let decoded = 0;
  let headerSeen = false;
  let quick: QuickCsvRecord | undefined;
  let byteRecords: ByteRecords | undefined;
  /** The last byte decoded was a line feed: the decoder holds no part of a character. */
  let decodedToLineFeed = false;
  let ended = false;
  /** The byte 0x0A is always a line feed in the encoding (see feedPiece). */
  let cutAtLineFeeds = false;
  let utf8 = false;
  /** Bytes after the last line feed of the pieces parsed so far (see feedPiece). */
  let lineTail = NO_BYTES;

  // Invalid byte sequences not yet matched to a record: where their U+FFFD sits in the text,
  // their file offset and their bytes. Entries before badNext are used up.
  let badAt: number[] = [];
  let badOffset: number[] = [];
  let badBytes: string[] = [];
  let badNext = 0;

  const chunkReading = options.chunk;
  function onDecodeError(index: number, byteOffset: number, bytes: string): void {
    badAt.push(decoded + index);
    badOffset.push(chunkReading === undefined ? byteOffset : chunkReading.fileOffset(byteOffset));
    badBytes.push(bytes);
  }

  /** The message for the first invalid sequence in [start, end), using up those before `end`. */
  function badBytesIn(start: number, end: number): string | null {
    while (badNext < badAt.length && badAt[badNext]! < start) badNext++;
    let message: string | null = null;
    if (badNext < badAt.length && badAt[badNext]! < end) {
      message = `Invalid ${encodingLabel} at byte ${badOffset[badNext]} of the file (${badBytes[badNext]}); the row was not checked`;
      while (badNext < badAt.length && badAt[badNext]! < end) badNext++;
    }
    // Keep the queue as short as the text not yet parsed, even in a file full of bad bytes.
    if (badNext >= 1024 || badNext === badAt.length) {
      badAt = badAt.slice(badNext);
      badOffset = badOffset.slice(badNext);
      badBytes = badBytes.slice(badNext);
      badNext = 0;
    }
    return message;
  }

  function deliverHeader(cells: string[]): void {
    headerSeen = true;
    if (chunkReading !== undefined) parser!.addRows(chunkReading.rowsAfterHeader);
    sink.header(cells);
    quick = sink.quickRecord;
    byteRecords = sink.byteRecords;
  }

  const handler: RecordHandler = {
    record(cells, row, start, end) {
      const bad = badNext < badAt.length ? badBytesIn(start, end) : null;
      if (bad !== null) {
        if (!headerSeen) deliverHeader(cells);
        sink.issue(row, 'encoding_error', bad, null);
      } else if (headerSeen) {
        sink.record(cells, row);
      } else {
        deliverHeader(cells);
      }
    },
    error(row, message, value, cells) {
      if (!headerSeen) deliverHeader(cells);
      sink.issue(row, 'parse_error', message, value);
    },
    quick(text, start, end, row, offset) {
      if (quick === undefined) return -1;
      // Bad bytes at or after the record may be in it: the normal path reports them.
      if (badNext < badAt.length && badAt[badAt.length - 1]! >= offset) return -1;
      return quick(text, start, end, row);
    },
  };

  function decode(bytes: Uint8Array, final: boolean): string {
    if (bytes.length > 0) decodedToLineFeed = bytes[bytes.length - 1] === LINE_FEED;
    const text = decoder!.decode(bytes, final);
    decoded += text.length;
    return text;
  }

  // One function for every piece's stretches, reading the piece from here: a new closure per
  // piece made the optimized forEachAsciiStretch, which inlines its callee, deoptimize ("wrong
  // call target") and be compiled again on every piece, ~30 times on the bench's workbook.
  let stretchLines: Uint8Array = NO_BYTES;
  const feedStretch = (start: number, end: number) =>
    parser!.feed(decode(stretchLines.subarray(start, end), false), false);

  function feedText(lines: Uint8Array): void {
    stretchLines = lines;
    forEachAsciiStretch(lines, feedStretch);
    stretchLines = NO_BYTES;
  }

  /**
   * Whole lines (they end after a line feed): the byte core takes the clean records it can, on
   * their bytes; a line where it stops is read here, then the next ones until a record ends with
   * a line (a quoted cell may span lines), and the core goes on from there.
   */
  function feedLines(lines: Uint8Array): void {
    const p = parser!;
    let at = 0;
    while (byteRecords?.active === true && at < lines.length) {
      // Only from a line start with nothing pending in the decoder or the parser.
      const boundary = decodedToLineFeed ? p.boundary() : undefined;
      if (boundary?.clean === true) {
        const stop = byteRecords.take(lines, at, lines.length, boundary.row + 1, !utf8);
        if (stop > at) {
          p.skip(byteRecords.rows, byteRecords.chars);
          decoder!.skip(stop - at);
          decoded += byteRecords.chars;
          at = stop;
        }
        if (at >= lines.length) return;
      }
      const lineEnd = lines.indexOf(LINE_FEED, at) + 1;
      feedText(lines.subarray(at, lineEnd));
      at = lineEnd;
    }
    if (at < lines.length) feedText(lines.subarray(at));
  }

  /**
   * Parses the next piece of bytes. Where a line feed byte is a line feed (UTF-8, Windows-1252),
   * the text handed to the parser ends after the piece's last one and the bytes after it wait for
   * the next piece: the parser then rarely holds a partial field between pieces, so it never has
   * to join it to the next piece's text (a copy of the whole piece). Results do not depend on
   * where the text is cut.
   */
  function feedPiece(piece: Uint8Array): void {
    const p = parser!;
    if (!cutAtLineFeeds) {
      p.feed(decode(piece, false), false);
      return;
    }
    const last = piece.lastIndexOf(LINE_FEED);
    if (last < 0) {
      if (lineTail.length > 0) p.feed(decode(lineTail, false), false);
      lineTail = NO_BYTES;
      p.feed(decode(piece, false), false);
      return;
    }
    let from = 0;
    if (lineTail.length > 0) {
      from = piece.indexOf(LINE_FEED) + 1;
      p.feed(decode(joinChunks([lineTail, piece.subarray(0, from)]), false), false);
      lineTail = NO_BYTES;
    }
    if (last + 1 > from) feedLines(piece.subarray(from, last + 1));
    // Copied: the caller may reuse its buffer after push().
    if (last + 1 < piece.length) lineTail = new Uint8Array(piece.subarray(last + 1));
  }

  function start(final: boolean): void {
    const bytes = joinChunks(head);
    head = [];
    const detected = chunkReading?.encoding ?? detectEncoding(bytes, final);
    encodingLabel = ENCODING_LABELS[detected.encoding];
    if (detected.encoding === 'utf-8') {
      if (detected.bomLength > 0) {
        sink.warning({
          code: 'bom',
          message: 'The file starts with a UTF-8 byte order mark (BOM); it was ignored',
        });
      }
    } else {
      const how = detected.bomLength > 0 ? 'its byte order mark' : 'bytes that are not valid UTF-8';
      sink.warning({
        code: 'encoding',
        message: `The file was read as ${encodingLabel} (detected from ${how}); save it as UTF-8 to be sure`,
      });
    }
    decoder = createStreamDecoder(detected.encoding, detected.bomLength, onDecodeError);
    utf8 = detected.encoding === 'utf-8';
    cutAtLineFeeds = utf8 || detected.encoding === 'windows-1252';
    const text = decode(detected.bomLength > 0 ? bytes.subarray(detected.bomLength) : bytes, final);

    const sep = readSepLine(text, final);
    const skip = sep === null ? 0 : sep.length;
    if (sep !== null) {
      const used =
        delimiter === undefined || delimiter === sep.delimiter
          ? ''
          : `; ${describeDelimiter(delimiter)} was used as requested`;
      sink.warning({
        code: 'delimiter',
        message: `The first line "sep=${sep.delimiter}" names the delimiter and is not read as the header${used}`,
      });
      delimiter ??= sep.delimiter;
    }
    const body = skip > 0 ? text.slice(skip) : text;
    if (delimiter === undefined) {
      delimiter = detectDelimiter(body, final, delimiterSampleChars);
      if (delimiter !== ',') {
        sink.warning({
          code: 'delimiter',
          message: `Columns are separated by ${describeDelimiter(delimiter)}, detected from the first lines`,
        });
      }
    }
    parser = createRecordParser(delimiter, maxFieldBytes, skip, handler);
    parser.feed(body, final);
  }

  return {
    push(chunk) {
      if (ended) throw new Error('CSV reader: push() after end()');
      if (chunk.length === 0) return;
      let rest = chunk;
      if (parser === null) {
        // Only the sample is held, copied (Buffer.slice would not copy): a caller may reuse its
        // buffer after push(). What follows it is read below like any later chunk.
        // A file's chunk has its encoding and delimiter decided already: read from the first push
        // (the header line, or the file's first chunk), so that boundary() can tell where
        // reading stands without the stream ending.
        const need =
          options.chunk !== undefined
            ? Math.min(chunk.length, sampleBytes)
            : sampleBytes - headBytes;
        const held = chunk.length > need ? chunk.subarray(0, need) : chunk;
        head.push(new Uint8Array(held));
        headBytes += held.length;
        if (options.chunk === undefined && headBytes < sampleBytes) return;
        start(false);
        rest = chunk.subarray(held.length);
      }
      // A slice at a time, whatever the caller pushes: a decoded slice stays a small string in
      // V8's young generation, where a 1 MiB chunk's text would go to large-object space and
      // pile up until a full GC (measured: 314 MiB peak RSS on a 1 GB file with 1 MiB pushes).
      for (let from = 0; from < rest.length; from += PIECE_BYTES) {
        feedPiece(rest.subarray(from, from + PIECE_BYTES));
      }
    },
    end() {
      if (ended) return;
      ended = true;
      if (parser === null) {
        start(true);
      } else {
        if (lineTail.length > 0) parser.feed(decode(lineTail, false), false);
        lineTail = NO_BYTES;
        parser.feed(decode(NO_BYTES, true), true);
      }
      if (!headerSeen) sink.warning(EMPTY_FILE_WARNING);
    },
    get delimiter() {
      return delimiter;
    },
    boundary() {
      if (parser === null) return undefined;
      const at = parser.boundary();
      return { row: at.row, clean: at.clean && lineTail.length === 0 };
    },
  };
}

function joinChunks(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
