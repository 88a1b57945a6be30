// Reads the first rows of a file with the engine's own readers, so that inference sees the values
// exactly as validation will (same delimiter detection, encodings, big numbers).
import { createCsvReader } from '../csv/reader.ts';
import { createJsonReader } from '../json/reader.ts';
import type { WebSchema } from '../schema/web-types.ts';
import { inferProposal, type InferOptions, type InferProposal } from './infer-schema.ts';
import type { FileType } from '../model.ts';

const CHUNK_BYTES = 64 * 1024;

export function inferFromBytes(
  bytes: Uint8Array,
  fileType: FileType,
  maxRows = 1000,
  options: InferOptions = {},
): WebSchema {
  return inferProposalFromBytes(bytes, fileType, maxRows, options).schema;
}

/** The proposal with the values that do not fit it, by the rows validation will report. */
export function inferProposalFromBytes(
  bytes: Uint8Array,
  fileType: FileType,
  maxRows = 1000,
  options: InferOptions = {},
): InferProposal {
  const rowNumbers: number[] = [];
  if (fileType === 'csv') {
    let headers: string[] = [];
    const rows: string[][] = [];
    const reader = createCsvReader({
      header: (cells) => (headers = cells.slice()),
      record: (cells, row) => {
        if (rows.length >= maxRows) return;
        rows.push(cells.slice());
        rowNumbers.push(row);
      },
      issue: () => {},
      warning: () => {},
    });
    feed(bytes, reader, () => rows.length >= maxRows);
    return inferProposal({ headers, rows, rowNumbers }, options);
  }
  const records: unknown[] = [];
  const reader = createJsonReader({
    record: (value, row) => {
      if (records.length >= maxRows) return;
      records.push(value);
      rowNumbers.push(row);
    },
    issue: () => {},
    warning: () => {},
  });
  feed(bytes, reader, () => records.length >= maxRows);
  return inferProposal({ records, rowNumbers }, options);
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
