import { TEST_MODE_MAX_FILE_BYTES } from '@schemacheck/contracts';
import type { FastifyInstance } from 'fastify';
import { and, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { users, validationJobs, validationResults } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { fromStorableJsonb, storableString, toStorableJsonb } from '../lib/unicode.ts';
import { countBytes } from '../validation/byte-counter.ts';
import { limitsOf } from '../validation/limits.ts';
import { releaseValidation } from '../validation/quota.ts';
import { runValidation, ValidationAborted, type ParsedSchema } from '../validation/service.ts';
import type { JobEnded } from './events.ts';
import { fetchSource, SourceFetchFailed } from './source-url.ts';
import {
  deleteOutcomes,
  dropPartRows,
  mergeParts,
  splitJob,
  sweepStaleParts,
} from './split-jobs.ts';
import { executorOf } from './queue.ts';
import type { FileType } from '@schemacheck/engine';

// Asynchronous validations (docs/decisions/093). The validation_jobs row is the public state;
// pg-boss only carries "run job X". A process runs a job by claiming its row (queued → running,
// attempts + 1: the attempt number is its lease), writes a heartbeat while it reads, and finishes
// it with one conditional UPDATE whose transaction also emits the job's end (jobs/events.ts: the
// webhooks module records its messages there), so a job completes once whatever runs twice. A running row whose heartbeat stops (the process died) is put back in the
// queue by the sweep of any working process. The monthly validation was reserved when the job
// was accepted; it is given back only when the job fails for a reason of ours.

export const VALIDATION_QUEUE = 'validation-job';
/** Attempts of one job before a failure of ours is final. */
export const MAX_ATTEMPTS = 3;
/** Why a job failed when its attempts ran out on our side (the validation is given back). */
const GAVE_UP = 'The validation could not be completed. Please try again.';
/** Bytes a second assumed until jobs have run here (the engine's server path, measured). */
const DEFAULT_THROUGHPUT = 20 * 1024 * 1024;

export type JobRow = typeof validationJobs.$inferSelect;

/** Storage key of a job's upload, under its owner's prefix. */
export function uploadKeyFor(userId: string, jobId: string): string {
  return `${userId}/uploads/${jobId}.upload`;
}

/** Seconds the job should take, from its size and the throughput of recent jobs here. */
export async function estimateSeconds(app: FastifyInstance, bytes: number): Promise<number> {
  const recent = await app.db
    .select({
      size: validationJobs.fileSize,
      started: validationJobs.startedAt,
      completed: validationJobs.completedAt,
    })
    .from(validationJobs)
    .where(
      and(
        eq(validationJobs.status, 'completed'),
        isNotNull(validationJobs.startedAt),
        sql`${validationJobs.fileSize} > 1048576`,
      ),
    )
    .orderBy(desc(validationJobs.completedAt))
    .limit(20);
  let size = 0;
  let ms = 0;
  for (const r of recent) {
    size += r.size;
    ms += Math.max(50, r.completed!.getTime() - r.started!.getTime());
  }
  const rate = ms > 0 ? (size / ms) * 1000 : DEFAULT_THROUGHPUT;
  return Math.max(1, Math.ceil(bytes / rate));
}

export interface NewJob {
  id: string;
  userId: string;
  schemaId: string | null;
  fileName: string;
  fileType: FileType | null;
  fileSize: number;
  uploadKey: string;
  schema: ParsedSchema;
  /** Null for a test-mode job, which is never counted (docs/decisions/174). */
  quotaMonth: string | null;
  estimatedSeconds: number;
  /** False for a job created with a test-mode key; live when absent. */
  livemode?: boolean;
  /** The `sheet` / `entry` asked for, used when the job opens a workbook or zip. */
  choice?: { sheet?: string; entry?: string };
  /** A direct upload (decision 235): the job waits for its parts and is not queued yet. */
  awaitingUpload?: { multipartUploadId: string };
  /** The URL the worker fetches the file from before validating it (decision 235). */
  sourceUrl?: string;
}

/** Inserts the row and its pg-boss job in one transaction. */
export async function enqueueJob(app: FastifyInstance, job: NewJob): Promise<JobRow> {
  const boss = await app.jobQueue.boss();
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(validationJobs)
      .values({
        id: job.id,
        userId: job.userId,
        schemaId: job.schemaId,
        // The multipart file name is the client's text (a `filename*` may decode to U+0000).
        fileName: storableString(job.fileName),
        fileSize: job.fileSize,
        fileType: job.fileType,
        status: job.awaitingUpload ? 'awaiting_upload' : 'queued',
        uploadKey: job.uploadKey,
        multipartUploadId: job.awaitingUpload?.multipartUploadId ?? null,
        sourceUrl: job.sourceUrl ?? null,
        // The job runs with exactly this schema: kept whole even where jsonb could not hold it.
        schemaUsed: toStorableJsonb(job.schema.value),
        // What the job runs with: the text keeps every digit of a bound past 2^53.
        schemaText: job.schema.text,
        quotaMonth: job.quotaMonth,
        estimatedSeconds: job.estimatedSeconds,
        livemode: job.livemode ?? true,
        sheet: job.choice?.sheet ?? null,
        entry: job.choice?.entry ?? null,
        createdAt: app.now(),
      })
      .returning();
    if (job.awaitingUpload) return row!;
    const id = await boss.send(VALIDATION_QUEUE, { jobId: job.id }, { db: executorOf(tx) });
    if (!id) throw new Error('pg-boss did not accept the job');
    return row!;
  });
}

/**
 * A direct upload completed: its job is queued like any other, in one transaction with its
 * pg-boss job. Null when the job was no longer awaiting its upload.
 */
export async function queueAwaitingJob(
  app: FastifyInstance,
  jobId: string,
  file: { fileSize: number; estimatedSeconds: number },
): Promise<JobRow | null> {
  const boss = await app.jobQueue.boss();
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(validationJobs)
      .set({ status: 'queued', multipartUploadId: null, ...file })
      .where(and(eq(validationJobs.id, jobId), eq(validationJobs.status, 'awaiting_upload')))
      .returning();
    if (!row) return null;
    const id = await boss.send(VALIDATION_QUEUE, { jobId }, { db: executorOf(tx) });
    if (!id) throw new Error('pg-boss did not accept the job');
    return row;
  });
}

/** Running jobs of this process, so that a shutdown can hand them back at once. */
const running = new WeakMap<FastifyInstance, Set<AbortController>>();

function runningOf(app: FastifyInstance): Set<AbortController> {
  let s = running.get(app);
  if (!s) running.set(app, (s = new Set()));
  return s;
}

/** Aborts this process's running jobs; they go back to the queue for another process. */
export function abortRunningJobs(app: FastifyInstance): void {
  for (const c of runningOf(app)) c.abort(new ValidationAborted('The process is stopping'));
}

function reportUrl(app: FastifyInstance, resultId: string): string {
  return `${app.config.appUrl}/api/v1/reports/${resultId}`;
}

/** job.failed of a job that ended before it ran (a direct upload never completed). */
export function jobFailedMessage(app: FastifyInstance, job: JobRow): JobEnded {
  return message(app, 'job.failed', job, null);
}

function message(
  app: FastifyInstance,
  event: 'job.completed' | 'job.failed',
  job: JobRow,
  result: { totalRows: number; validRows: number; invalidRows: number; resultId: string } | null,
): JobEnded {
  return {
    event,
    timestamp: app.now().getTime(),
    livemode: job.livemode,
    data: {
      job_id: job.id,
      schema_id: job.schemaId,
      file_name: job.fileName,
      result: result
        ? {
            total_rows: result.totalRows,
            valid_rows: result.validRows,
            invalid_rows: result.invalidRows,
          }
        : null,
      report_url: result ? reportUrl(app, result.resultId) : null,
      ...(event === 'job.failed' ? { error: job.errorMessage } : {}),
    },
  };
}

/** Where this attempt still holds the job. */
const held = (jobId: string, attempt: number) =>
  and(
    eq(validationJobs.id, jobId),
    eq(validationJobs.status, 'running'),
    eq(validationJobs.attempts, attempt),
  );

/**
 * Ends a job as failed (once: only the attempt that holds it). `ours` gives the monthly
 * validation back. Emits job.failed (jobs/events.ts) and deletes the upload.
 */
export async function failJob(
  app: FastifyInstance,
  job: JobRow,
  attempt: number,
  errorMessage: string,
  ours: boolean,
): Promise<void> {
  const now = app.now();
  const ended = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(validationJobs)
      .set({
        status: 'failed',
        // A refusal may quote the file (a header, a value).
        errorMessage: storableString(errorMessage),
        completedAt: now,
        heartbeatAt: null,
        uploadKey: null,
        ...(ours ? { quotaMonth: null } : {}),
      })
      .where(held(job.id, attempt))
      .returning();
    if (!row) return null;
    if (ours && job.quotaMonth) {
      await releaseValidation(tx as never, { userId: job.userId, month: job.quotaMonth });
    }
    await dropPartRows(tx, job.id);
    await app.jobEvents.ended(tx, job.userId, message(app, 'job.failed', row, null), now);
    return row;
  });
  if (ended && job.uploadKey) await app.storage.delete(job.uploadKey);
  if (ended) await deleteOutcomes(app, job);
  app.log.info({ jobId: job.id, ours, error: errorMessage }, 'Validation job failed');
}

/** The pg-boss handler: runs one job to its end, or hands it back by throwing. */
export async function runValidationJob(app: FastifyInstance, jobId: string): Promise<void> {
  const now = app.now();
  const [job] = await app.db
    .update(validationJobs)
    .set({
      status: 'running',
      attempts: sql`${validationJobs.attempts} + 1`,
      heartbeatAt: now,
      startedAt: sql`coalesce(${validationJobs.startedAt}, ${now.toISOString()}::timestamptz)`,
      rowsProcessed: 0,
      // A split job's merge keeps the progress its parts made (decision 239).
      bytesProcessed: sql`case when ${validationJobs.splitParts} is null then 0 else ${validationJobs.bytesProcessed} end`,
    })
    .where(and(eq(validationJobs.id, jobId), eq(validationJobs.status, 'queued')))
    .returning();
  if (!job) return; // finished, running elsewhere, or deleted with its account
  const attempt = job.attempts;
  // Which process holds which attempt: what an operator (and the many-servers test) reads to
  // tell the workers apart, since the job's row does not name its process.
  app.log.info({ jobId: job.id, attempt }, 'Validation job started');
  if (attempt > MAX_ATTEMPTS) {
    await failJob(app, job, attempt, GAVE_UP, true);
    return;
  }

  const [owner] = await app.db.select().from(users).where(eq(users.id, job.userId));
  let source = job.uploadKey ? await app.storage.get(job.uploadKey) : null;
  // A source_url job's file is fetched by its first attempt that gets this far.
  const fetchFrom = !source && job.sourceUrl && job.uploadKey ? job.sourceUrl : null;
  if (!owner || (!source && !fetchFrom)) {
    source?.destroy();
    await failJob(app, job, attempt, 'The uploaded file is no longer available.', true);
    return;
  }
  const plan = limitsOf(owner.subscriptionTier);

  const control = new AbortController();
  runningOf(app).add(control);
  let rows = 0;
  let bytes = 0;
  const beat = async () => {
    const [still] = await app.db
      .update(validationJobs)
      .set({ heartbeatAt: app.now(), rowsProcessed: rows, bytesProcessed: bytes })
      .where(held(job.id, attempt))
      .returning({ id: validationJobs.id });
    if (!still) control.abort(new ValidationAborted('The job was taken over'));
  };
  const timer = setInterval(
    () => void beat().catch((err: unknown) => app.log.warn({ err }, 'Job heartbeat failed')),
    app.config.validationJobs.heartbeatMs,
  );
  timer.unref();

  try {
    if (fetchFrom) {
      // A test-mode key's jobs take files up to its own limit (decision 174).
      const limit = job.livemode
        ? plan.maxFileBytes
        : Math.min(plan.maxFileBytes ?? TEST_MODE_MAX_FILE_BYTES, TEST_MODE_MAX_FILE_BYTES);
      const fetched = await fetchSource(app, fetchFrom, job.uploadKey!, limit);
      await app.db.update(validationJobs).set({ fileSize: fetched }).where(held(job.id, attempt));
      job.fileSize = fetched;
      source = await app.storage.get(job.uploadKey!);
    }
    if (!source) throw new Error('The fetched file is not in storage');
    // A big CSV file is split into parts that any worker validates (decision 239); this
    // attempt ends once they are queued, and the job's next attempt merges them.
    const merging = job.splitParts !== null;
    if (!merging && (await splitJob(app, job, held(job.id, attempt)))) return;
    const schemaUsed = fromStorableJsonb(job.schemaUsed);
    const outcome = await runValidation(app, {
      ...(merging ? { merge: mergeParts(app, job, control.signal) } : {}),
      // The bytes read so far, for the job's progress (the run applies the plan's limit).
      source: countBytes(source, {
        max: null,
        tooLarge: () => new Error('unreachable'),
        onBytes: (n) => (bytes = n),
      }),
      fileName: job.fileName,
      schema: {
        text: job.schemaText ?? JSON.stringify(schemaUsed),
        value: schemaUsed,
        ...(job.fileType ? { fileType: job.fileType } : {}),
      },
      limits: { maxBytes: plan.maxFileBytes, maxRows: plan.maxRows, report: true },
      choice: {
        ...(job.sheet !== null ? { sheet: job.sheet } : {}),
        ...(job.entry !== null ? { entry: job.entry } : {}),
      },
      signal: control.signal,
      onProgress: (r) => (rows = r),
      userId: job.userId,
      ...(job.schemaId ? { schemaId: job.schemaId } : {}),
      // The last moment to notice that another attempt holds the job.
      beforeRecord: async () => {
        await beat();
        if (control.signal.aborted) throw new ValidationAborted('The job was taken over');
      },
    });
    const { result } = outcome;
    const done = await app.db.transaction(async (tx) => {
      const [row] = await tx
        .update(validationJobs)
        .set({
          status: 'completed',
          resultId: outcome.resultId,
          completedAt: app.now(),
          heartbeatAt: null,
          uploadKey: null,
          rowsProcessed: result.totalRows,
          bytesProcessed: outcome.bytes,
        })
        .where(held(job.id, attempt))
        .returning();
      if (!row) return null;
      await dropPartRows(tx, job.id);
      await app.jobEvents.ended(
        tx,
        job.userId,
        message(app, 'job.completed', row, { ...result, resultId: outcome.resultId }),
        app.now(),
      );
      return row;
    });
    if (!done) {
      // Another attempt holds the job: this result is not the job's.
      await app.db.delete(validationResults).where(eq(validationResults.id, outcome.resultId));
      if (outcome.reportKey) await app.storage.delete(outcome.reportKey);
      return;
    }
    if (job.uploadKey) await app.storage.delete(job.uploadKey);
    await deleteOutcomes(app, job);
    app.log.info(
      { jobId: job.id, resultId: outcome.resultId, bytes: outcome.bytes, rows: result.totalRows },
      'Validation job completed',
    );
  } catch (err) {
    if (err instanceof SourceFetchFailed) {
      // Nothing was validated: the month's validation is given back.
      await failJob(app, job, attempt, err.message, true);
      return;
    }
    if (err instanceof ValidationAborted || control.signal.aborted) {
      // Taken over, deleted, or this process is stopping: hand it back if still ours.
      await app.db
        .update(validationJobs)
        .set({ status: 'queued', heartbeatAt: null })
        .where(held(job.id, attempt));
      if (String(control.signal.reason?.message).includes('stopping')) throw err;
      return;
    }
    if (err instanceof AppError) {
      // The file or the schema: a final answer, and the validation was done (charged).
      await failJob(app, job, attempt, err.message, false);
      return;
    }
    app.log.error({ err, jobId: job.id, attempt }, 'Validation job attempt failed');
    if (attempt >= MAX_ATTEMPTS) {
      await failJob(app, job, attempt, GAVE_UP, true);
      return;
    }
    await app.db
      .update(validationJobs)
      .set({ status: 'queued', heartbeatAt: null })
      .where(held(job.id, attempt));
    throw err; // pg-boss retries after its delay
  } finally {
    clearInterval(timer);
    runningOf(app).delete(control);
    source?.destroy();
  }
}

/** Puts running jobs with a stale heartbeat back in the queue (their process died). */
export async function sweepStaleJobs(app: FastifyInstance): Promise<number> {
  const cutoff = new Date(app.now().getTime() - app.config.validationJobs.staleMs);
  const stale = await app.db
    .update(validationJobs)
    .set({ status: 'queued', heartbeatAt: null })
    .where(
      and(
        eq(validationJobs.status, 'running'),
        lt(validationJobs.heartbeatAt, cutoff),
        // A split job waiting for its parts is held by them (their own sweep below).
        or(
          isNull(validationJobs.splitParts),
          eq(validationJobs.partsDone, validationJobs.splitParts),
        ),
      ),
    )
    .returning({ id: validationJobs.id });
  await sweepStaleParts(app);
  if (stale.length === 0) return 0;
  const boss = await app.jobQueue.boss();
  for (const s of stale) await boss.send(VALIDATION_QUEUE, { jobId: s.id });
  app.log.warn({ jobs: stale.map((s) => s.id) }, 'Took over jobs whose process stopped');
  return stale.length;
}

/** Account deletion: the uploads of the user's unfinished jobs (the rows go with the user). */
export async function deleteUserUploads(app: FastifyInstance, userId: string): Promise<void> {
  const rows = await app.db
    .select({ key: validationJobs.uploadKey, multipartUploadId: validationJobs.multipartUploadId })
    .from(validationJobs)
    .where(and(eq(validationJobs.userId, userId), isNotNull(validationJobs.uploadKey)));
  for (const r of rows) {
    // A direct upload still awaiting its parts (decision 235).
    if (r.multipartUploadId) await app.storage.directUploads?.abort(r.key!, r.multipartUploadId);
    await app.storage.delete(r.key!);
  }
}

/** The job as /v1/jobs answers it. */
export async function jobsWithResults(app: FastifyInstance, rows: JobRow[]) {
  const ids = rows.map((r) => r.resultId).filter((x): x is string => x !== null);
  const results = ids.length
    ? await app.db.select().from(validationResults).where(inArray(validationResults.id, ids))
    : [];
  const byId = new Map(results.map((r) => [r.id, r]));
  return rows.map((job) => {
    const r = job.resultId ? byId.get(job.resultId) : undefined;
    const summary = (r?.summary ?? {}) as {
      durationMs?: number;
      warnings?: Array<{ code: string; message: string }>;
    };
    return {
      job_id: job.id,
      status: job.status,
      file_name: job.fileName,
      file_size: job.fileSize,
      schema_id: job.schemaId,
      progress:
        job.status === 'completed'
          ? 1
          : job.fileSize > 0
            ? Math.min(0.99, Math.round((job.bytesProcessed / job.fileSize) * 1000) / 1000)
            : 0,
      rows_processed: job.rowsProcessed,
      estimated_seconds: job.estimatedSeconds ?? 0,
      created_at: job.createdAt.toISOString(),
      started_at: job.startedAt?.toISOString() ?? null,
      completed_at: job.completedAt?.toISOString() ?? null,
      result: r
        ? {
            valid: r.errorCount === 0,
            error_count: r.errorCount,
            stats: {
              rows: r.totalRows,
              valid_rows: r.validRows,
              invalid_rows: r.invalidRows,
              bytes: r.fileSize,
              validated_in_ms: summary.durationMs ?? 0,
            },
            report_id: r.id,
            report_url: reportUrl(app, r.id),
            warnings: (summary.warnings ?? []).map(({ code, message }) => ({ code, message })),
          }
        : null,
      error: job.status === 'failed' ? job.errorMessage : null,
      livemode: job.livemode,
    };
  });
}
