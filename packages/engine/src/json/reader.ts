import type { Warning } from '../model.ts';

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

export function createJsonReader(sink: JsonSink, options: JsonReaderOptions = {}): JsonReader {
  void sink;
  void options;
  throw new Error('not implemented');
}
