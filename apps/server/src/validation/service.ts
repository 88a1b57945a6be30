import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { STORED_ERRORS } from '@schemacheck/contracts';
import {
  detectFileType,
  fileNameKind,
  type DetectedFileType,
  type ValidationResult,
} from '@schemacheck/engine';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { Storage } from '../storage/index.ts';
import { displayFileName } from './files.ts';
import { fileTooLarge, rowLimit } from './limits.ts';
import type { ValidationPool } from './pool.ts';
import { insertResult, reportKeyFor, type ResultRow } from './results.ts';

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
}

/** A schema the engine has checked: its text for the worker, its value for `schema_used`. */
export interface ParsedSchema {
  text: string;
  value: unknown;
  /** The file type the schema names, when it names one. */
  fileType?: 'csv' | 'json';
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
  schema: ParsedSchema;
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
  if (fileNameKind(fileName) === 'other') throw new AppError('unsupported_file');
  if (signal.aborted) throw new ValidationAborted('The validation was aborted');

  const resultId = randomUUID();
  const job = deps.validationPool.job();
  let sink: PassThrough | null = null;
  let stored: Promise<unknown> | null = null;
  let reportKey: string | null = null;
  let recorded = false;
  const started = performance.now();
  try {
    const opened = await job.open(input.schema.text);
    if (!opened.ok) throw invalidSchema(opened.problems);

    let detected: DetectedFileType | null = null;
    const begin = (first: Uint8Array) => {
      detected = detectFileType(fileName, first, opened.fileType);
      if (!detected) throw new AppError('unsupported_file');
      if (limits.report) {
        reportKey = reportKeyFor(input.userId, resultId);
        const out = new PassThrough();
        // destroy() may come before storage has attached its pipeline
        out.on('error', () => {});
        sink = out;
        stored = deps.storage.put(reportKey, out);
        stored.catch(() => {});
      }
      job.begin(
        {
          ...detected,
          ...(limits.maxRows !== null ? { maxRows: limits.maxRows } : {}),
          maxErrors: STORED_ERRORS,
          report: sink !== null,
          now: deps.now().toISOString(),
        },
        sink ? (text) => void sink!.write(text) : undefined,
      );
    };

    let bytes = 0;
    let rows = 0;
    for await (const chunk of input.source) {
      if (signal.aborted) throw new ValidationAborted('The validation was aborted');
      if (chunk.byteLength === 0) continue;
      bytes += chunk.byteLength;
      if (limits.maxBytes !== null && bytes > limits.maxBytes) {
        throw limitError('bytes', limits.maxBytes);
      }
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
    const result = await job.end();
    if (result.rowLimitExceeded && limits.maxRows !== null) {
      throw limitError('rows', limits.maxRows);
    }
    if (sink) {
      (sink as PassThrough).end();
      await stored;
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
      schemaUsed: input.schema.value,
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
    }
  }
}
