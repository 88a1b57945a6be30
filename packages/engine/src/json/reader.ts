// The streaming JSON reader: bytes in, one record at a time out, memory flat in the file's size.
//
// What it does where the file is unusual (each line is a decision; tests pin them down):
// - Shape: `[` first is an array of records; otherwise one value, unless it sits alone on its
//   line and another value starts on a later line: then NDJSON (see document-reader.ts for a
//   broken first line). options.shape overrides the detection.
// - Rows count records from 1; blank NDJSON lines are not records. Paths: `$[i]` (i = row - 1) for
//   array elements and NDJSON lines, `$` for a single value. Non-objects are emitted as they are.
// - A problem between records belongs to the record expected next (row = last row + 1, path
//   `$[i]`); after the end of the top-level value, row = last row + 1 with path `$`.
// - Array and single value: the first syntax or encoding error is reported and reading stops.
//   NDJSON: a bad line is reported on its row and the next lines are read.
// - Strict RFC 8259: no comments, trailing commas, single quotes, NaN, leading zeros or raw
//   control characters in strings. Lone surrogates in \u escapes are accepted, as JSON.parse does.
// - A UTF-8 BOM: warning 'bom'. Empty or whitespace-only content: warning 'empty_file', no error.
// - Invalid UTF-8 is an encoding_error naming line, column and byte offset; never U+FFFD.
// - Nesting deeper than maxDepth (default 64, counted from the record: the top-level array does
//   not count) is a parse_error. Nothing recurses on the input's depth.
// - A number stays a JS number only if String() of it reads back as the literal's value;
//   otherwise LosslessNumber with the literal (9007199254740993, 1e400, and also 2^60 written in
//   full, whose String() shows other digits).
// - Duplicate keys: the last value wins (at the first key's position, as JSON.parse does).
//   A `__proto__` key is an own property, never the prototype.
// - A record longer than DEFAULT_MAX_RECORD_CHARS characters, or with more than
//   DEFAULT_MAX_RECORD_MEMBERS members, is one `record_too_large` issue on its row and is never
//   built; reading goes on with the next record (an array element is scanned to its end without
//   keeping its text; an NDJSON line is skipped). So one record's memory is bounded whatever the
//   file's shape (docs/decisions/062).

import type { Warning } from '../model.ts';
import { DocumentReader, type JsonReaderLimits } from './document-reader.ts';
import { forEachAsciiStretch } from '../text/ascii-stretches.ts';
import { hasOtherControls } from '../text/controls.ts';
import { createUtf8Stream } from './utf8-stream.ts';
import { LINE_FEED } from './char-codes.ts';

export type { JsonReaderLimits } from './document-reader.ts';

export interface JsonReaderOptions {
  /** Deeper nesting is a parse_error. Default 64. */
  maxDepth?: number;
  /** Force a shape; detected from the content when not given. */
  shape?: 'array' | 'object' | 'ndjson';
}

/**
 * A fast path for clean records: given the text where a record starts (`start`, an array element
 * or an NDJSON line), it checks the record without building it and returns where it ends when it
 * is well-formed and has nothing to report, or -1: the record is then read the normal way, from
 * the same start. It must be exactly as strict as JSON.parse, must not look past `end` (the
 * piece's end, or the line's), must give up on nesting deeper than QUICK_RECORD_MAX_DEPTH, and
 * with `line` must see only blanks between the record and `end`.
 */
export type QuickRecord = (
  text: string,
  start: number,
  end: number,
  row: number,
  line: boolean,
  /**
   * False when the text is known to hold no control character other than tab, line feed and
   * carriage return (text/controls.ts); true when it may.
   */
  controls: boolean,
) => number;

/** The nesting a QuickRecord handles; the reader offers it only when its own limit is as deep. */
export const QUICK_RECORD_MAX_DEPTH = 16;

/**
 * Clean records taken on their bytes (the WebAssembly byte core, validate/json-bytes.ts): from a
 * record boundary of an array (just after a comma) or NDJSON (a line's start), it reads the
 * records it can call clean, exactly as the normal path would find them, and stops at the first
 * other one, which the reader then reads the usual way.
 */
export interface JsonByteRecords {
  /** False once it has given up for the run (the reader then reads every record as text). */
  active: boolean;
  /** Makes `piece` the bytes later calls read (once per piece: copying it costs). */
  load(piece: Uint8Array): void;
  /**
   * Takes clean records from the piece's offset `start`, after `row` records, and returns the
   * offset after the last: after its comma, or its line feed. Sets records, lineFeeds (among the
   * bytes taken) and columns (code points after the last line feed, or after `start`).
   */
  take(start: number, row: number, ndjson: boolean): number;
  records: number;
  lineFeeds: number;
  columns: number;
  /**
   * The offset after the next comma between two elements of the array, reading from `start` in
   * `state` (DocumentReader.arrayScanState), or -1 when there is none in the piece.
   */
  elementEnd(start: number, state: { inString: boolean; escaped: boolean; depth: number }): number;
}

/**
 * Values are plain JSON values, except that a number whose literal a double cannot hold exactly
 * arrives as a LosslessNumber (model.ts). Rows: the first record is row 1.
 */
export interface JsonSink {
  /** `path` is `$[i]` for array elements and NDJSON lines, `$` for a single top-level object. */
  record(value: unknown, row: number, path: string): void;
  /** Optional: takes clean records whole, before they are built (see QuickRecord). */
  quickRecord?: QuickRecord;
  /** Optional: takes clean records on their bytes, before they are decoded. */
  byteRecords?: JsonByteRecords | undefined;
  issue(
    row: number,
    code: 'parse_error' | 'encoding_error' | 'record_too_large',
    message: string,
    path: string,
  ): void;
  warning(warning: Warning): void;
}

export interface JsonReader {
  push(chunk: Uint8Array): void;
  end(): void;
  /** Where reading stands between pushes (DocumentReader.boundary). */
  boundary(): { row: number; clean: boolean };
}

/**
 * Reading a range of a file that starts at a record boundary (engine/src/parallel), in the state
 * the whole file's reader has there: NDJSON just after a line feed, an array just after the comma
 * before an element. The bytes pushed are the file's from `byteOffset` on.
 */
export interface JsonResume {
  shape: 'array' | 'ndjson';
  /** Records before the range. */
  row: number;
  /** Line and column (code points, 1-based) of the range's first character. */
  line: number;
  column: number;
  /** File offset of the range's first byte (encoding errors name file offsets). */
  byteOffset: number;
}

/**
 * A push is decoded in pieces of this many bytes from its start. Where pieces end can matter (a
 * record over the size limits is judged at the end of the piece that shows it too large), so
 * ranges of a file push at the offsets one reading from the start would (engine/src/parallel).
 */
export const JSON_PIECE_BYTES = 64 * 1024;

const NO_BYTES: Uint8Array = new Uint8Array(0);

export const DEFAULT_MAX_DEPTH = 64;
/** options.maxDepth is capped here: whatever walks the records afterwards may recurse. */
export const MAX_MAX_DEPTH = 10_000;

/** 16 Mi characters: a record's text and what it parses into stay a few tens of MB. */
export const DEFAULT_MAX_RECORD_CHARS = 2 ** 24;
/** Far above any real row; a record of tiny objects or keys this big builds in ~0.1 s. */
export const DEFAULT_MAX_RECORD_MEMBERS = 100_000;

/** The limits createJsonReader uses besides maxDepth. */
export const DEFAULT_JSON_READER_LIMITS: Omit<JsonReaderLimits, 'maxDepth'> = {
  maxRecordChars: DEFAULT_MAX_RECORD_CHARS,
  maxRecordMembers: DEFAULT_MAX_RECORD_MEMBERS,
  firstSyntaxCheckChars: 2 ** 20,
};

/**
 * Streams a JSON file (a top-level array, one value, or NDJSON) into records, one at a time.
 * Depth counts from each record's own root: the top-level array of an array file does not count,
 * so with the default 64 a record may nest 64 containers (itself included).
 */
export function createJsonReader(
  sink: JsonSink,
  options: JsonReaderOptions = {},
  resume?: JsonResume,
): JsonReader {
  return createJsonReaderWithLimits(
    sink,
    options.shape,
    { ...DEFAULT_JSON_READER_LIMITS, maxDepth: depthLimit(options.maxDepth) },
    resume,
  );
}

function depthLimit(maxDepth: number | undefined): number {
  if (maxDepth === undefined || !Number.isInteger(maxDepth) || maxDepth < 0)
    return DEFAULT_MAX_DEPTH;
  return Math.min(maxDepth, MAX_MAX_DEPTH);
}

/** createJsonReader with every limit given; tests use small ones. */
export function createJsonReaderWithLimits(
  sink: JsonSink,
  shape: JsonReaderOptions['shape'],
  limits: JsonReaderLimits,
  resume?: JsonResume,
): JsonReader {
  const document = new DocumentReader(sink, shape, limits, resume);
  const bytes = createUtf8Stream(
    {
      // The text comes from the bytes decodeText was given (and the lead bytes of a character
      // cut before them, never control characters), so those bytes' answer holds for it.
      text: (piece) => document.text(piece, pieceControls),
      invalidUtf8: (byteOffset, note) => document.invalidUtf8(byteOffset, note),
    },
    resume?.byteOffset ?? 0,
  );
  let ended = false;
  let pieceControls = true;
  // One callee for every stretch: a new closure per piece would make the optimized
  // forEachAsciiStretch, which inlines it, deoptimize (see csv/reader.ts).
  let stretchBytes = NO_BYTES;
  const pushStretch = (start: number, end: number) => {
    if (!document.hasStopped) bytes.push(stretchBytes.subarray(start, end));
  };
  const decodeText = (piece: Uint8Array) => {
    // Only the bytes decoded here: the byte core checks those it takes itself.
    pieceControls = hasOtherControls(piece);
    stretchBytes = piece;
    forEachAsciiStretch(piece, pushStretch);
    stretchBytes = NO_BYTES;
  };
  const byteRecords = document.takesBytes ? sink.byteRecords : undefined;

  /**
   * The byte core takes the clean records it can from each record boundary; the text between
   * (where it stops, and the end of a record that began in the last piece) is decoded and read
   * here up to the next boundary (a line feed in NDJSON; in an array, the next comma between
   * elements, found by the core from the reader's own state), when one is known and so near
   * that the reader's checks of a record's size could not fall inside it: verdicts then do not
   * depend on where the text is cut.
   */
  function readPiece(piece: Uint8Array, core: JsonByteRecords): void {
    core.load(piece);
    let at = 0;
    while (at < piece.length && core.active && !document.hasStopped) {
      const shape = document.settledShape;
      if (shape === undefined) break;
      const row = bytes.pending ? -1 : document.bytesBoundary();
      if (row >= 0) {
        const stop = core.take(at, row, shape === 'ndjson');
        if (!core.active) break;
        if (core.records > 0) {
          document.skipRecords(core.records, core.lineFeeds, core.columns);
          bytes.skip(stop - at);
          at = stop;
          continue;
        }
      }
      let next: number;
      if (shape === 'ndjson') next = piece.indexOf(LINE_FEED, at) + 1;
      else {
        const state = document.arrayScanState();
        next = state === undefined ? -1 : core.elementEnd(at, state);
      }
      const end = next > at && next - at <= document.roomBeforeChecks() ? next : piece.length;
      decodeText(piece.subarray(at, end));
      at = end;
    }
    if (at < piece.length && !document.hasStopped) decodeText(piece.subarray(at));
  }

  return {
    push(chunk) {
      // Big chunks (a whole file at once) are decoded a slice at a time: a decoded piece must
      // stay far below the longest JS string. After an error that ends reading, the rest of the
      // file is not even decoded.
      for (let from = 0; from < chunk.length; from += JSON_PIECE_BYTES) {
        if (ended || document.hasStopped) return;
        const piece = chunk.subarray(from, from + JSON_PIECE_BYTES);
        if (byteRecords?.active === true) readPiece(piece, byteRecords);
        else decodeText(piece);
      }
    },
    end() {
      if (ended) return;
      ended = true;
      bytes.end();
      document.end();
    },
    boundary: () => document.boundary(),
  };
}
