import type { Warning } from '../model.ts';
import { DocumentReader, type JsonReaderLimits } from './document-reader.ts';
import { createUtf8Stream } from './utf8-stream.ts';

export type { JsonReaderLimits } from './document-reader.ts';

export interface JsonReaderOptions {
  /** Deeper nesting is a parse_error. Default 64. */
  maxDepth?: number;
  /** Force a shape; detected from the content when not given. */
  shape?: 'array' | 'object' | 'ndjson';
}

/**
 * Values are plain JSON values, except that a number whose literal a double cannot hold exactly
 * arrives as a LosslessNumber (model.ts). Rows: the first record is row 1.
 */
export interface JsonSink {
  /** `path` is `$[i]` for array elements and NDJSON lines, `$` for a single top-level object. */
  record(value: unknown, row: number, path: string): void;
  issue(row: number, code: 'parse_error' | 'encoding_error', message: string, path: string): void;
  warning(warning: Warning): void;
}

export interface JsonReader {
  push(chunk: Uint8Array): void;
  end(): void;
}

export const DEFAULT_MAX_DEPTH = 64;

/** The limits createJsonReader uses besides maxDepth. */
export const DEFAULT_JSON_READER_LIMITS: Omit<JsonReaderLimits, 'maxDepth'> = {
  // 2^28 code units: far below V8's string limit (2^29 - 24), which a record must fit in.
  maxRecordChars: 2 ** 28,
  firstSyntaxCheckChars: 2 ** 20,
};

/**
 * Streams a JSON file (a top-level array, one value, or NDJSON) into records, one at a time.
 * Depth counts from each record's own root: the top-level array of an array file does not count,
 * so with the default 64 a record may nest 64 containers (itself included).
 */
export function createJsonReader(sink: JsonSink, options: JsonReaderOptions = {}): JsonReader {
  return createJsonReaderWithLimits(sink, options.shape, {
    ...DEFAULT_JSON_READER_LIMITS,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
  });
}

/** createJsonReader with every limit given; tests use small ones. */
export function createJsonReaderWithLimits(
  sink: JsonSink,
  shape: JsonReaderOptions['shape'],
  limits: JsonReaderLimits,
): JsonReader {
  const document = new DocumentReader(sink, shape, limits);
  const bytes = createUtf8Stream({
    text: (piece) => document.text(piece),
    invalidUtf8: (byteOffset, note) => document.invalidUtf8(byteOffset, note),
  });
  let ended = false;
  return {
    push(chunk) {
      // After an error that ends reading, the rest of the file is not even decoded.
      if (!ended && !document.hasStopped) bytes.push(chunk);
    },
    end() {
      if (ended) return;
      ended = true;
      bytes.end();
      document.end();
    },
  };
}
