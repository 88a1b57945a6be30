import type { Warning } from '../model.ts';
import { createSampledCsvReader } from './reader.ts';
import { ENCODING_SAMPLE_BYTES } from '../text/detect-encoding.ts';
import type { CsvReaderOptions } from './reader.ts';

/** Everything a CsvSink receives, as data: for tests, and for comparing two ways of reading. */
export type CsvEvent =
  | { kind: 'header'; cells: string[] }
  | { kind: 'record'; row: number; cells: string[] }
  | {
      kind: 'issue';
      row: number;
      code: 'parse_error' | 'encoding_error';
      message: string;
      value: string | null;
    }
  | { kind: 'warning'; code: Warning['code']; message: string };

/**
 * Reads `bytes` pushed as pieces that end at the ascending offsets `cuts` (then the rest). A
 * small `sampleBytes` (see createSampledCsvReader) makes the pieces of small inputs matter.
 */
export function readCsvEvents(
  bytes: Uint8Array,
  options: CsvReaderOptions = {},
  cuts: readonly number[] = [],
  sampleBytes = ENCODING_SAMPLE_BYTES,
): CsvEvent[] {
  const events: CsvEvent[] = [];
  const reader = createSampledCsvReader(
    {
      header: (cells) => events.push({ kind: 'header', cells }),
      record: (cells, row) => events.push({ kind: 'record', row, cells }),
      issue: (row, code, message, value) =>
        events.push({ kind: 'issue', row, code, message, value }),
      warning: (warning) =>
        events.push({ kind: 'warning', code: warning.code, message: warning.message }),
    },
    options,
    sampleBytes,
  );
  let at = 0;
  for (const cut of cuts) {
    reader.push(bytes.subarray(at, cut));
    at = cut;
  }
  reader.push(bytes.subarray(at));
  reader.end();
  return events;
}
