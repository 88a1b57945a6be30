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
 * Values are plain JSON values, except that a number whose literal a double cannot hold exactly
 * arrives as a LosslessNumber (model.ts). Rows: the first record is row 1.
 */
export interface JsonSink {
  /** `path` is `$[i]` for array elements and NDJSON lines, `$` for a single top-level object. */
  record(value: unknown, row: number, path: string): void;
  /** Optional: takes clean records whole, before they are built (see QuickRecord). */
  quickRecord?: QuickRecord;
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
      // The text of a push comes from that push's bytes (and the lead bytes of a cut character,
      // never control characters), so the bytes' answer holds for it.
      text: (piece) => document.text(piece, pieceControls),
      invalidUtf8: (byteOffset, note) => document.invalidUtf8(byteOffset, note),
    },
    resume?.byteOffset ?? 0,
  );
  let ended = false;
  let pieceControls = true;
  const pushStretch = (piece: Uint8Array) => (start: number, end: number) => {
    if (!document.hasStopped) bytes.push(piece.subarray(start, end));
  };
  return {
    push(chunk) {
      // Big chunks (a whole file at once) are decoded a slice at a time: a decoded piece must
      // stay far below the longest JS string. After an error that ends reading, the rest of the
      // file is not even decoded.
      for (let from = 0; from < chunk.length; from += JSON_PIECE_BYTES) {
        if (ended || document.hasStopped) return;
        const piece = chunk.subarray(from, from + JSON_PIECE_BYTES);
        pieceControls = hasOtherControls(piece);
        forEachAsciiStretch(piece, pushStretch(piece));
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
