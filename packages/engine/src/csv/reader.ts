import type { Warning } from '../model.ts';

export interface CsvReaderOptions {
  /** One of , ; \t | — detected from the first lines when not given. */
  delimiter?: string;
  /** A single field above this many bytes is a parse_error on its row. Default 1 MiB. */
  maxFieldBytes?: number;
}

/** Receives what the reader finds, in file order. Rows are spreadsheet rows: header = 1. */
export interface CsvSink {
  header(cells: string[]): void;
  /** `row` is the record's spreadsheet row (a record spanning lines keeps one row number). */
  record(cells: string[], row: number): void;
  issue(row: number, code: 'parse_error' | 'encoding_error', message: string, value: string | null): void;
  warning(warning: Warning): void;
}

export interface CsvReader {
  push(chunk: Uint8Array): void;
  end(): void;
  /** The delimiter in use once known. */
  readonly delimiter: string | undefined;
}

export function createCsvReader(sink: CsvSink, options: CsvReaderOptions = {}): CsvReader {
  void sink;
  void options;
  throw new Error('not implemented');
}
