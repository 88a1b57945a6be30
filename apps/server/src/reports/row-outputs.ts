import { PassThrough, Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { AppError } from '../errors.ts';
import { userKey, type Storage } from '../storage/index.ts';
import { contentDisposition } from '../lib/content-disposition.ts';
import type { RowStream } from './row-split.ts';

// The good rows back, stored (docs/decisions/205): while a validation with a full report runs,
// the rows without errors and the rows with errors (plus an `errors` column) are streamed into
// storage beside the report, under the user's prefix:
//
//   <userId>/rows/<resultId>.valid     <userId>/rows/<resultId>.invalid
//
// in the input's form: CSV (in the file's delimiter) for CSV and for a workbook's sheet, a JSON
// array or NDJSON for JSON. They are deleted with their result (retention, account deletion) and
// the storage sweep removes any whose result row is gone.

export type { RowStream } from './row-split.ts';
export const ROW_STREAMS: readonly RowStream[] = ['valid', 'invalid'];

/** Storage key of one output of a result. */
export function rowOutputKey(userId: string, resultId: string, stream: RowStream): string {
  return userKey(userId, 'rows', `${resultId}.${stream}`);
}

/** A result's row outputs being written: `write` as the worker sends them, then end or abort. */
export interface RowOutputSink {
  write(stream: RowStream, data: string | Uint8Array): void;
  /** Waits until both outputs are stored. */
  end(): Promise<void>;
  /** Stops writing and removes what was written (a run that is not recorded). */
  abort(): Promise<void>;
}

export function openRowOutputs(storage: Storage, userId: string, resultId: string): RowOutputSink {
  const outs = ROW_STREAMS.map((stream) => {
    const key = rowOutputKey(userId, resultId, stream);
    const body = new PassThrough();
    // destroy() may come before storage has attached its pipeline
    body.on('error', () => {});
    const stored = storage.put(key, body);
    stored.catch(() => {});
    return { stream, key, body, stored };
  });
  const of = (stream: RowStream) => outs.find((o) => o.stream === stream)!;
  return {
    write(stream, data) {
      const { body } = of(stream);
      if (!body.destroyed && !body.writableEnded) body.write(data);
    },
    async end() {
      for (const o of outs) o.body.end();
      await Promise.all(outs.map((o) => o.stored));
    },
    async abort() {
      for (const o of outs) {
        if (!o.body.writableFinished) o.body.destroy(new Error('The validation stopped'));
      }
      await Promise.all(outs.map((o) => o.stored.catch(() => {})));
      await Promise.all(outs.map((o) => storage.delete(o.key).catch(() => {})));
    },
  };
}

/** Removes both outputs of a result (missing ones are not an error). */
export async function deleteRowOutputs(
  storage: Storage,
  userId: string,
  resultId: string,
): Promise<void> {
  for (const stream of ROW_STREAMS) await storage.delete(rowOutputKey(userId, resultId, stream));
}

/** What a download needs of a stored result. */
export interface RowOutputResult {
  id: string;
  userId: string;
  fileName: string;
  fileType: string;
  /** `ndjson` when the input was read as one record per line. */
  jsonShape?: string | undefined;
}

/** What sendRowOutput needs of a stored validation_results row. */
export function rowOutputOf(row: {
  id: string;
  userId: string | null;
  fileName: string;
  fileType: string;
  summary: unknown;
}): RowOutputResult {
  const summary = (row.summary ?? {}) as { jsonShape?: string };
  return {
    id: row.id,
    userId: row.userId ?? '',
    fileName: row.fileName,
    fileType: row.fileType,
    jsonShape: summary.jsonShape,
  };
}

const BASE_NAME = /\.(csv|tsv|tab|txt|json|ndjson|jsonl|xlsx|xlsm|zip|gz|gzip)$/i;

/** `valid-rows-orders.csv` for orders.xlsx, `invalid-rows-events.ndjson` for events.ndjson.gz. */
export function rowOutputFileName(fileName: string, stream: RowStream, extension: string): string {
  let base = fileName;
  while (BASE_NAME.test(base)) base = base.replace(BASE_NAME, '');
  return `${stream}-rows-${base || 'upload'}.${extension}`;
}

/** The first bytes of a stream, and a stream of all of it again. */
async function peek(stream: Readable): Promise<{ head: Buffer; all: Readable }> {
  const it = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await it.next();
  const head = first.done ? Buffer.alloc(0) : first.value;
  async function* again(): AsyncGenerator<Buffer> {
    if (head.length > 0) yield head;
    if (first.done) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  }
  return { head, all: Readable.from(again()) };
}

/**
 * Streams one stored output of a result as a download: CSV for CSV and workbook input (in the
 * file's delimiter), JSON or NDJSON for JSON input, as the rows were written. 404 when the
 * result has none (a plan without the full report, a result from before outputs were kept).
 */
export async function sendRowOutput(
  reply: FastifyReply,
  storage: Storage,
  result: RowOutputResult,
  stream: RowStream,
) {
  const stored = await storage.get(rowOutputKey(result.userId, result.id, stream));
  if (!stored) {
    throw new AppError('not_found', {
      message: `The ${stream} rows of this validation are not available (they are kept for validations with a full report).`,
    });
  }
  let type = 'text/csv; charset=utf-8';
  let extension = /\.(tsv|tab)(\.gz|\.gzip)?$/i.test(result.fileName) ? 'tsv' : 'csv';
  let body: Readable = stored;
  if (result.fileType === 'json') {
    const { head, all } = await peek(stored);
    body = all;
    // An array opens with `[` (an empty output is `[]`); anything else is one record per line.
    const array =
      result.jsonShape !== 'ndjson' && (head.length === 0 || head.toString('utf8', 0, 1) === '[');
    type = array ? 'application/json; charset=utf-8' : 'application/x-ndjson; charset=utf-8';
    extension = array ? 'json' : 'ndjson';
  }
  return reply
    .header('content-type', type)
    .header(
      'content-disposition',
      contentDisposition(rowOutputFileName(result.fileName, stream, extension)),
    )
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(body);
}
