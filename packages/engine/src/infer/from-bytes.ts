// Reads the first rows of a file with the engine's own readers, so that inference sees the values
// exactly as validation will (same delimiter detection, encodings, big numbers).
import { createCsvReader } from '../csv/reader.ts';
import { createJsonReader } from '../json/reader.ts';
import type { WebSchema } from '../schema/web-types.ts';
import { inferSchema, type InferOptions } from './infer-schema.ts';

const CHUNK_BYTES = 64 * 1024;

export function inferFromBytes(
  bytes: Uint8Array,
  fileType: 'csv' | 'json',
  maxRows = 1000,
  options: InferOptions = {},
): WebSchema {
  if (fileType === 'csv') {
    let headers: string[] = [];
    const rows: string[][] = [];
    const reader = createCsvReader({
      header: (cells) => (headers = cells.slice()),
      record: (cells) => {
        if (rows.length < maxRows) rows.push(cells.slice());
      },
      issue: () => {},
      warning: () => {},
    });
    feed(bytes, reader, () => rows.length >= maxRows);
    return inferSchema({ headers, rows }, options);
  }
  const records: unknown[] = [];
  const reader = createJsonReader({
    record: (value) => {
      if (records.length < maxRows) records.push(value);
    },
    issue: () => {},
    warning: () => {},
  });
  feed(bytes, reader, () => records.length >= maxRows);
  return inferSchema({ records }, options);
}

/**
 * Pushes the bytes a chunk at a time and stops once enough rows arrived. end() is called only when
 * every byte was pushed: ending early would deliver a row cut in the middle.
 */
function feed(
  bytes: Uint8Array,
  reader: { push(chunk: Uint8Array): void; end(): void },
  full: () => boolean,
) {
  for (let offset = 0; offset < bytes.length; offset += CHUNK_BYTES) {
    reader.push(bytes.subarray(offset, offset + CHUNK_BYTES));
    if (full()) return;
  }
  reader.end();
}
