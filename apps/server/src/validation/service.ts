import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { STORED_ERRORS } from '@schemacheck/contracts';
import {
  detectFileType,
  fileNameKind,
  sniffContainer,
  type DetectedFileType,
  type ValidationResult,
} from '@schemacheck/engine';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { Storage } from '../storage/index.ts';
import { openRowOutputs, type RowOutputSink, type RowStream } from '../reports/row-outputs.ts';
import { listsForSchema } from '../lists/store.ts';
import { countBytes } from './byte-counter.ts';
import { displayFileName } from './files.ts';
import { fileTooLarge, rowLimit } from './limits.ts';
import { InputRefused, type ValidationJob, type ValidationPool } from './pool.ts';
import { insertResult, reportKeyFor, type ResultRow } from './results.ts';
import type { FileType } from '@schemacheck/engine';

// The one validation run on the server (docs/decisions/080). The web upload, POST /api/v1/validate
// and the asynchronous jobs all call runValidation(): bytes in, a stored result out. It streams
// the bytes into a worker of the pool, enforces the byte and row limits as they arrive, streams
// the full error report into storage, and inserts the validation_results row. Whatever stops a
// run before the row is inserted (a limit, an abort, a refusal, a crash) leaves no row and no
// report. Quotas, concurrency guards and HTTP belong to the callers.

/** What the run needs from the application; a FastifyInstance has all of it. */
export interface ValidationDeps {
  db: Db;
  storage: Storage;
  validationPool: ValidationPool;
  now: () => Date;
  /** Container uploads are spooled under dataDir/tmp (the OS temp folder without one). */
  config?: { dataDir: string };
}

/** Names read through the engine's input planner (docs/decisions/163), whatever the bytes. */
const CONTAINER_NAME = /\.(xlsx|xlsm|xlsb|xls|zip|gz|gzip|tgz)$/i;
export const isContainerName = (name: string): boolean => CONTAINER_NAME.test(name);

/**
 * A schema nobody has checked yet (a form's `schema` field): the run checks it, once, before
 * anything else, and stores the value of its text (docs/decisions/187).
 */
export interface UncheckedSchema {
  text: string;
}

/** A schema the engine has checked: its text for the worker, its value for `schema_used`. */
export interface ParsedSchema {
  text: string;
  value: unknown;
  /** The file type the schema names, when it names one. */
  fileType?: FileType;
}

export interface RunLimits {
  /** Bytes; null is unlimited. Limit + 1 byte is refused. */
  maxBytes: number | null;
  /** Data rows; null is unlimited. Limit + 1 row is refused. */
  maxRows: number | null;
  /** Write the full CSV error report (plans with report export). */
  report: boolean;
}

export interface ValidationInput {
  /** The file's bytes, in chunks of any size. */
  source: AsyncIterable<Uint8Array>;
  /** The name as the client sent it (cleaned here for display). */
  fileName: string;
  schema: ParsedSchema | UncheckedSchema;
  limits: RunLimits;
  /** Aborting stops the run with ValidationAborted and leaves nothing behind. */
  signal: AbortSignal;
  /** Data rows read so far; called as the worker acknowledges chunks. */
  onProgress?: (rows: number) => void;
  userId: string;
  schemaId?: string;
  /** The refusal for a passed limit; the plan's 413 / 422 by default. */
  limitError?: (kind: 'bytes' | 'rows', limit: number) => Error;
  /**
   * Runs once the report is complete and before the row is inserted (the web form checks the
   * rest of the form here); throwing discards the run.
   */
  beforeRecord?: () => Promise<void>;
  /** Which sheet of a workbook, which entry of a zip (the `sheet` / `entry` parameters). */
  choice?: { sheet?: string; entry?: string };
  /**
   * A split CSV job's merge (docs/decisions/239): instead of reading `source`, the run hands its
   * worker job, begun in merge mode, to this function, which merges the parts' outcomes into
   * it in order and returns the file's size. The report, row outputs and the stored result are
   * written as for a file read here.
   */
  merge?: (job: ValidationJob) => Promise<number>;
}

export interface ValidationOutcome {
  resultId: string;
  result: ValidationResult;
  reportKey: string | null;
  bytes: number;
  durationMs: number;
  /** The stored validation_results row. */
  row: ResultRow;
}

/** The run was aborted through its signal (a client that went away, a cancelled job). */
export class ValidationAborted extends Error {
  override name = 'ValidationAborted';
}

const defaultLimitError = (kind: 'bytes' | 'rows', limit: number): Error =>
  kind === 'bytes' ? fileTooLarge(limit) : rowLimit(limit);

/** Checks a schema text with the engine (in a worker); refuses it with every problem by path. */
export async function parseSchema(pool: ValidationPool, text: string): Promise<ParsedSchema> {
  const checked = await pool.check(text);
  if (!checked.ok) throw invalidSchema(checked.problems);
  return {
    text,
    value: JSON.parse(text) as unknown,
    ...(checked.fileType ? { fileType: checked.fileType } : {}),
  };
}

export function invalidSchema(problems: { path: string; message: string }[]): AppError {
  const first = problems[0];
  return new AppError('invalid_schema', {
    message: first
      ? `The schema has problems: ${first.path ? `${first.path}: ` : ''}${first.message}`
      : 'The schema has problems',
    extra: { problems },
  });
}

export async function runValidation(
  deps: ValidationDeps,
  input: ValidationInput,
): Promise<ValidationOutcome> {
  const { limits, signal } = input;
  const limitError = input.limitError ?? defaultLimitError;
  const fileName = displayFileName(input.fileName);
  const resultId = randomUUID();
  const job = deps.validationPool.job();
  let sink: PassThrough | null = null;
  let stored: Promise<unknown> | null = null;
  let reportKey: string | null = null;
  // The valid and invalid rows, stored beside the report (decision 205).
  let rowOutputs: RowOutputSink | null = null;
  let recorded = false;
  const started = performance.now();
  try {
    // The account's reference lists the schema names, for its inList rules (docs/decisions/200).
    const lists = await listsForSchema(deps.db, input.userId, input.schema.text);
    const opened = await job.open(input.schema.text, lists);
    if (!opened.ok) throw invalidSchema(opened.problems);
    // After the schema: a form's schema is refused before the file's name, as it always was.
    if (fileNameKind(fileName) === 'other' && !CONTAINER_NAME.test(fileName)) {
      throw new AppError('unsupported_file');
    }
    if (signal.aborted) throw new ValidationAborted('The validation was aborted');

    let detected: DetectedFileType | null = null;
    let containerResult: ValidationResult | null = null;
    const openReport = () => {
      if (limits.report) {
        reportKey = reportKeyFor(input.userId, resultId);
        const out = new PassThrough();
        // destroy() may come before storage has attached its pipeline
        out.on('error', () => {});
        sink = out;
        stored = deps.storage.put(reportKey, out);
        stored.catch(() => {});
        rowOutputs = openRowOutputs(deps.storage, input.userId, resultId);
      }
    };
    const onText = (data: string | Uint8Array, stream?: RowStream) =>
      stream ? rowOutputs?.write(stream, data) : void sink!.write(data);
    const begin = (first: Uint8Array) => {
      detected = detectFileType(fileName, first, opened.fileType);
      if (!detected) throw new AppError('unsupported_file');
      openReport();
      job.begin(
        {
          ...detected,
          ...(limits.maxRows !== null ? { maxRows: limits.maxRows } : {}),
          maxErrors: STORED_ERRORS,
          report: sink !== null,
          rows: sink !== null,
          now: deps.now().toISOString(),
        },
        sink ? onText : undefined,
      );
    };

    const { first, rest } = input.merge
      ? { first: null, rest: (async function* () {})() }
      : await firstChunk(input.source);
    let bytes = 0;
    const counted = countBytes(rest, {
      max: limits.maxBytes,
      tooLarge: (limit) => limitError('bytes', limit),
      onBytes: (total) => (bytes = total),
      abort: { signal, error: () => new ValidationAborted('The validation was aborted') },
    });
    let rows = 0;
    if (input.merge) {
      detected = { fileType: 'csv' };
      openReport();
      job.beginMerge(
        {
          fileType: 'csv',
          maxErrors: STORED_ERRORS,
          report: sink !== null,
          rows: sink !== null,
          now: deps.now().toISOString(),
        },
        sink ? onText : undefined,
      );
      bytes = await input.merge(job);
    } else if (CONTAINER_NAME.test(fileName) || (first && sniffContainer(first) !== 'none')) {
      // gzip, zip and workbooks: spooled, then read by the worker as the CLI reads them.
      const spool = join(deps.config?.dataDir ?? tmpdir(), 'tmp', `upload-${resultId}`);
      try {
        await spoolTo(spool, counted, signal);
        openReport();
        const run = await job
          .runFile(
            {
              path: spool,
              name: fileName,
              maxBytes: limits.maxBytes,
              ...(input.choice?.sheet !== undefined ? { sheet: input.choice.sheet } : {}),
              ...(input.choice?.entry !== undefined ? { entry: input.choice.entry } : {}),
              ...(limits.maxRows !== null ? { maxRows: limits.maxRows } : {}),
              maxErrors: STORED_ERRORS,
              report: sink !== null,
              rows: sink !== null,
              now: deps.now().toISOString(),
            },
            sink ? onText : undefined,
          )
          .catch((err: unknown) => {
            throw err instanceof InputRefused ? refusal(err, limits.maxBytes, limitError) : err;
          });
        detected = run.input;
        containerResult = run.result;
      } finally {
        await rm(spool, { force: true }).catch(() => {});
      }
    }
    for await (const chunk of containerResult ? [] : counted) {
      if (chunk.byteLength === 0) continue;
      if (!detected) begin(chunk);
      await job.push(chunk);
      if (job.stopped && limits.maxRows !== null) throw limitError('rows', limits.maxRows);
      if (input.onProgress && job.rows !== rows) {
        rows = job.rows;
        input.onProgress(rows);
      }
    }
    if (signal.aborted) throw new ValidationAborted('The validation was aborted');
    if (!detected) {
      // An empty file is read by the engine like any other, as the CLI and the browser read it
      // (a CSV without a header lacks every column; an empty JSON file is a warning). Only a
      // file whose type nothing names (no extension, no schema type, no bytes) is refused.
      if (!detectFileType(fileName, new Uint8Array(0), opened.fileType)) {
        throw new AppError('empty_file');
      }
      begin(new Uint8Array(0));
    }
    const type: DetectedFileType = detected!;
    const result = containerResult ?? (await job.end());
    // A merge reads every row; the plan's row limit is the same refusal as when read here.
    const overRows = input.merge !== undefined && result.totalRows > (limits.maxRows ?? Infinity);
    if ((result.rowLimitExceeded || overRows) && limits.maxRows !== null) {
      throw limitError('rows', limits.maxRows);
    }
    if (sink) {
      (sink as PassThrough).end();
      await stored;
      await (rowOutputs as RowOutputSink | null)?.end();
    }
    const durationMs = Math.round(performance.now() - started);
    await input.beforeRecord?.();
    if (signal.aborted) throw new ValidationAborted('The validation was aborted');
    const row = await insertResult(deps.db, {
      id: resultId,
      userId: input.userId,
      schemaId: input.schemaId,
      fileName,
      fileType: type.fileType,
      jsonShape: type.jsonShape,
      bytes,
      durationMs,
      result,
      schemaUsed: 'value' in input.schema ? input.schema.value : JSON.parse(input.schema.text),
      reportKey,
      createdAt: deps.now(),
    });
    recorded = true;
    input.onProgress?.(result.totalRows);
    return { resultId, result, reportKey, bytes, durationMs, row };
  } finally {
    job.close();
    if (!recorded) {
      const s = sink as PassThrough | null;
      if (s && !s.writableFinished) s.destroy(new Error('The validation stopped'));
      await (stored as Promise<unknown> | null)?.catch(() => {});
      if (reportKey) await deps.storage.delete(reportKey).catch(() => {});
      await (rowOutputs as RowOutputSink | null)?.abort();
    }
  }
}

/** The first non-empty chunk (null for an empty body) and the whole stream again. */
async function firstChunk(
  source: AsyncIterable<Uint8Array>,
): Promise<{ first: Uint8Array | null; rest: AsyncIterable<Uint8Array> }> {
  const it = source[Symbol.asyncIterator]();
  let first: Uint8Array | null = null;
  let done = false;
  while (!first) {
    const r = await it.next();
    if (r.done) {
      done = true;
      break;
    }
    if (r.value.byteLength > 0) first = r.value;
  }
  const head = first;
  async function* rest(): AsyncGenerator<Uint8Array> {
    try {
      if (head) yield head;
      if (done) return;
      for (;;) {
        const r = await it.next();
        if (r.done) return;
        yield r.value;
      }
    } finally {
      await it.return?.();
    }
  }
  return { first, rest: rest() };
}

/**
 * Writes an upload to a local file (a zip's directory is at its end, so it is read at random);
 * `source` is the run's counted bytes, so the compressed bytes may not pass the plan's limit
 * either.
 */
async function spoolTo(
  path: string,
  source: AsyncIterable<Uint8Array>,
  signal: AbortSignal,
): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await pipeline(Readable.from(source), createWriteStream(path));
  if (signal.aborted) throw new ValidationAborted('The validation was aborted');
}

/** The engine's refusal as the client's 4xx, with the engine's words. */
function refusal(
  err: InputRefused,
  maxBytes: number | null,
  limitError: (kind: 'bytes' | 'rows', limit: number) => Error,
): Error {
  if ((err.code === 'too_large' || err.code === 'workbook_too_large') && maxBytes !== null) {
    const limit = limitError('bytes', maxBytes);
    // The plan's refusal (its code and limit), saying that the decompressed size counted.
    limit.message = `${limit.message} ${err.message}.`;
    return limit;
  }
  const choice = ['several_entries', 'entry_not_found', 'sheet_not_found'].includes(err.code);
  return new AppError(choice ? 'invalid_upload' : 'unsupported_file', { message: err.message });
}
