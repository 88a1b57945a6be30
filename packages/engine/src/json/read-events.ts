import type { Warning } from '../model.ts';
import {
  createJsonReaderWithLimits,
  DEFAULT_JSON_READER_LIMITS,
  DEFAULT_MAX_DEPTH,
  type JsonReaderLimits,
  type JsonReaderOptions,
} from './reader.ts';

/** Everything a JsonSink receives, as data: for tests, and for comparing two ways of reading. */
export type JsonEvent =
  | { kind: 'record'; row: number; path: string; value: unknown }
  | {
      kind: 'issue';
      row: number;
      code: 'parse_error' | 'encoding_error' | 'record_too_large';
      message: string;
      path: string;
    }
  | { kind: 'warning'; code: Warning['code']; message: string };

/**
 * Reads `input` pushed as pieces that end at the ascending byte offsets `cuts` (then the rest).
 * `limits` overrides the reader's limits (small ones make the buffering paths matter).
 */
export function readJsonEvents(
  input: Uint8Array | string,
  options: JsonReaderOptions = {},
  cuts: readonly number[] = [],
  limits: Partial<JsonReaderLimits> = {},
): JsonEvent[] {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const events: JsonEvent[] = [];
  const reader = createJsonReaderWithLimits(
    {
      record: (value, row, path) => events.push({ kind: 'record', row, path, value }),
      issue: (row, code, message, path) => events.push({ kind: 'issue', row, code, message, path }),
      warning: (warning) =>
        events.push({ kind: 'warning', code: warning.code, message: warning.message }),
    },
    options.shape,
    {
      ...DEFAULT_JSON_READER_LIMITS,
      maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
      ...limits,
    },
  );
  let from = 0;
  for (const cut of cuts) {
    reader.push(bytes.subarray(from, cut));
    from = cut;
  }
  reader.push(bytes.subarray(from));
  reader.end();
  return events;
}
