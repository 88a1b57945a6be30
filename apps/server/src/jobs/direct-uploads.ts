import type { FastifyInstance } from 'fastify';
import type { DirectUploadV1 } from '@schemacheck/contracts';
import { and, eq, lt } from 'drizzle-orm';
import { fileNameKind } from '@schemacheck/engine';
import { validationJobs } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { storableString } from '../lib/unicode.ts';
import { findOwnSchema, notFound, parsedFromRow } from '../schemas/store.ts';
import { DIRECT_UPLOAD_MAX_AGE_MS, PartsRefused } from '../storage/index.ts';
import { displayFileName } from '../validation/files.ts';
import { releaseValidation, reserveOrRefuse, type Reservation } from '../validation/quota.ts';
import { isContainerName, parseSchema, type ParsedSchema } from '../validation/service.ts';
import { urlProblem } from '../lib/outbound.ts';
import { isUuid } from '../lib/uuid.ts';
import { sourcePolicy } from './source-url.ts';
import {
  enqueueJob,
  estimateSeconds,
  jobFailedMessage,
  queueAwaitingJob,
  uploadKeyFor,
  type JobRow,
} from './validation-jobs.ts';

// Jobs whose file does not pass through the web server (docs/decisions/235).
// - `upload: true`: on an S3 bucket, a multipart upload is started and a presigned URL signed
//   per part; the job waits (awaiting_upload) until the client sends the parts' ETags, then the
//   upload is completed, its size checked against the limit and the job queued. Local disk has
//   no such uploads (direct_upload_unavailable). An upload never completed is aborted and its
//   job failed after DIRECT_UPLOAD_MAX_AGE_MS (sweepAbandonedUploads).
// - `source_url`: the job is queued at once and the worker fetches the file (source-url.ts).
// Both take the schema as the multipart form does (?schema_id=… or `schema` as JSON text) and
// reserve the month's validation when the job is accepted, given back if the file never comes.

/** The smallest part S3 accepts but the last. */
const MIN_PART = 5 * 1024 * 1024;
/** Parts of 8 MiB, more where the file would need over S3's 10,000 parts. */
const PART = 8 * 1024 * 1024;
const MAX_PARTS = 10_000;
/** How long the presigned part URLs work. */
const URL_SECONDS = 6 * 60 * 60;

/** The parts of a file of `size` bytes: each `partSize` bytes, the last smaller or equal. */
function planParts(size: number): { partSize: number; count: number } {
  const partSize = Math.max(PART, Math.ceil(size / MAX_PARTS / MIN_PART) * MIN_PART);
  return { partSize, count: Math.max(1, Math.ceil(size / partSize)) };
}

export interface JsonJobInput {
  userId: string;
  livemode: boolean;
  /** ?schema_id=…, else `schemaText` (the form's `schema`). */
  schemaId: string | undefined;
  schemaText: string | undefined;
  filename: string | undefined;
  choice: { sheet?: string; entry?: string };
  maxBytes: number | null;
  tooLarge: (limit: number) => Error;
  monthlyValidations: number | null;
}

const NO_SCHEMA =
  'Send a saved schema as ?schema_id=… or the schema as JSON text in the body’s schema property.';

async function schemaOf(
  app: FastifyInstance,
  input: JsonJobInput,
): Promise<{ id: string | null; schema: ParsedSchema }> {
  if (input.schemaId !== undefined) {
    const row = await findOwnSchema(app.db, input.userId, input.schemaId);
    if (!row) throw notFound();
    return { id: row.id, schema: parsedFromRow(row) };
  }
  if (input.schemaText === undefined) throw new AppError('validation', { message: NO_SCHEMA });
  return { id: null, schema: await parseSchema(app.validationPool, input.schemaText) };
}

/** The file's display name and type, refusing a name of a format not validated (as the form). */
function fileOf(rawName: string, schema: ParsedSchema) {
  const fileName = displayFileName(rawName);
  if (!fileName) throw new AppError('validation', { message: 'filename is empty' });
  const kind = fileNameKind(fileName);
  const container = isContainerName(fileName);
  if (kind === 'other' && !container) throw new AppError('unsupported_file');
  return {
    fileName,
    fileType:
      schema.fileType ?? (container || kind === 'none' ? null : kind === 'csv' ? 'csv' : 'json'),
  } as const;
}

/** Reserves the month's validation (never for a test-mode key) and runs `create` with it. */
async function withReservation<T>(
  app: FastifyInstance,
  input: JsonJobInput,
  create: (reservation: Reservation | null) => Promise<T>,
): Promise<T> {
  const reservation = input.livemode
    ? await reserveOrRefuse(app.db, input.userId, input.monthlyValidations, app.now())
    : null;
  try {
    return await create(reservation);
  } catch (err) {
    if (reservation) await releaseValidation(app.db, reservation);
    throw err;
  }
}

interface DirectUploadJob {
  jobId: string;
  partSize: number;
  urls: string[];
  expiresAt: Date;
}

/** The answer to a direct upload's start, the same for /v1 and the dashboard but for `completeUrl`. */
export function directUploadAnswer(direct: DirectUploadJob, completeUrl: string): DirectUploadV1 {
  return {
    job_id: direct.jobId,
    status: 'awaiting_upload',
    part_size: direct.partSize,
    parts: direct.urls.map((url, i) => ({ part_number: i + 1, url })),
    expires_at: direct.expiresAt.toISOString(),
    complete_url: completeUrl,
  };
}

/** `upload: true`: a job awaiting its file, and the presigned URLs of its parts. */
export async function createDirectUploadJob(
  app: FastifyInstance,
  input: JsonJobInput & { jobId: string; size: number },
): Promise<DirectUploadJob> {
  const direct = app.storage.directUploads;
  if (!direct) throw new AppError('direct_upload_unavailable');
  if (input.maxBytes !== null && input.size > input.maxBytes) throw input.tooLarge(input.maxBytes);
  if (input.filename === undefined) {
    throw new AppError('validation', { message: 'body filename: required with upload: true' });
  }
  const filename = input.filename;
  const { id: schemaId, schema } = await schemaOf(app, input);
  const { fileName, fileType } = fileOf(filename, schema);
  const { partSize, count } = planParts(input.size);
  const uploadKey = uploadKeyFor(input.userId, input.jobId);
  return withReservation(app, input, async (reservation) => {
    const { uploadId, urls } = await direct.start(uploadKey, count, URL_SECONDS);
    try {
      await enqueueJob(app, {
        id: input.jobId,
        userId: input.userId,
        schemaId,
        fileName,
        fileType,
        fileSize: input.size,
        uploadKey,
        schema,
        quotaMonth: reservation?.month ?? null,
        livemode: input.livemode,
        choice: input.choice,
        estimatedSeconds: await estimateSeconds(app, input.size),
        awaitingUpload: { multipartUploadId: uploadId },
      });
    } catch (err) {
      await direct.abort(uploadKey, uploadId).catch(() => {});
      throw err;
    }
    return {
      jobId: input.jobId,
      partSize,
      urls,
      expiresAt: new Date(app.now().getTime() + URL_SECONDS * 1000),
    };
  });
}

/** `source_url`: a queued job whose worker fetches the file first (source-url.ts). */
export async function createSourceUrlJob(
  app: FastifyInstance,
  input: JsonJobInput & { jobId: string; sourceUrl: string },
): Promise<JobRow> {
  const problem = urlProblem(input.sourceUrl, sourcePolicy(app.config));
  if (problem) throw new AppError('validation', { message: `body source_url: ${problem}` });
  const { id: schemaId, schema } = await schemaOf(app, input);
  const fromUrl = decodeURIComponent(new URL(input.sourceUrl).pathname.split('/').pop() ?? '');
  const { fileName, fileType } = fileOf(input.filename ?? fromUrl, schema);
  return withReservation(app, input, async (reservation) =>
    enqueueJob(app, {
      id: input.jobId,
      userId: input.userId,
      schemaId,
      fileName,
      fileType,
      fileSize: 0,
      uploadKey: uploadKeyFor(input.userId, input.jobId),
      schema,
      quotaMonth: reservation?.month ?? null,
      livemode: input.livemode,
      choice: input.choice,
      estimatedSeconds: 1,
      sourceUrl: input.sourceUrl,
    }),
  );
}

/** Ends an awaiting job as failed (once), gives its validation back and drops its upload. */
async function failAwaiting(app: FastifyInstance, job: JobRow, message: string): Promise<void> {
  const ended = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(validationJobs)
      .set({
        status: 'failed',
        errorMessage: storableString(message),
        completedAt: app.now(),
        uploadKey: null,
        multipartUploadId: null,
        quotaMonth: null,
      })
      .where(and(eq(validationJobs.id, job.id), eq(validationJobs.status, 'awaiting_upload')))
      .returning();
    if (!row) return false;
    if (job.quotaMonth) {
      await releaseValidation(tx as never, { userId: job.userId, month: job.quotaMonth });
    }
    await app.jobEvents.ended(tx, job.userId, jobFailedMessage(app, row), app.now());
    return true;
  });
  if (!ended || !job.uploadKey) return;
  if (job.multipartUploadId) {
    await app.storage.directUploads?.abort(job.uploadKey, job.multipartUploadId);
  }
  await app.storage.delete(job.uploadKey);
}

/**
 * POST /v1/jobs/{id}/complete: completes the multipart upload from the parts' ETags, checks the
 * file's size against the limit (over it, the job fails and the file is deleted) and queues it.
 */
export async function completeDirectUpload(
  app: FastifyInstance,
  input: {
    userId: string;
    jobId: string;
    parts: Array<{ partNumber: number; etag: string }>;
    maxBytes: number | null;
    tooLarge: (limit: number) => Error;
  },
): Promise<JobRow | null> {
  if (!isUuid(input.jobId)) return null;
  const [job] = await app.db
    .select()
    .from(validationJobs)
    .where(and(eq(validationJobs.id, input.jobId), eq(validationJobs.userId, input.userId)));
  if (!job) return null;
  const direct = app.storage.directUploads;
  if (job.status !== 'awaiting_upload' || !job.multipartUploadId || !job.uploadKey || !direct) {
    throw new AppError('job_not_awaiting_upload');
  }
  let bytes: number;
  try {
    ({ bytes } = await direct.complete(job.uploadKey, job.multipartUploadId, input.parts));
  } catch (err) {
    if (err instanceof PartsRefused) {
      throw new AppError('upload_incomplete', {
        message: `The parts do not complete the upload: ${err.message}`,
      });
    }
    throw err;
  }
  if (input.maxBytes !== null && bytes > input.maxBytes) {
    const refusal = input.tooLarge(input.maxBytes);
    await failAwaiting(app, { ...job, multipartUploadId: null }, refusal.message);
    throw refusal;
  }
  if (bytes === 0) {
    await failAwaiting(app, { ...job, multipartUploadId: null }, 'The file is empty');
    throw new AppError('empty_file');
  }
  const queued = await queueAwaitingJob(app, job.id, {
    fileSize: bytes,
    estimatedSeconds: await estimateSeconds(app, bytes),
  });
  // A second complete that raced this one finds the job queued.
  if (!queued) throw new AppError('job_not_awaiting_upload');
  return queued;
}

/**
 * A direct upload its sender gave up (the dashboard's Cancel): the job fails at once, its
 * validation is given back and its parts are dropped, instead of waiting for the sweep. False when
 * the user has no such job.
 */
export async function cancelDirectUpload(
  app: FastifyInstance,
  userId: string,
  jobId: string,
): Promise<boolean> {
  if (!isUuid(jobId)) return false;
  const [job] = await app.db
    .select()
    .from(validationJobs)
    .where(and(eq(validationJobs.id, jobId), eq(validationJobs.userId, userId)));
  if (!job) return false;
  if (job.status !== 'awaiting_upload') throw new AppError('job_not_awaiting_upload');
  await failAwaiting(app, job, 'The upload was cancelled.');
  return true;
}

/** Direct uploads never completed within DIRECT_UPLOAD_MAX_AGE_MS: aborted, their jobs failed. */
export async function sweepAbandonedUploads(app: FastifyInstance): Promise<number> {
  const cutoff = new Date(app.now().getTime() - DIRECT_UPLOAD_MAX_AGE_MS);
  const stale = await app.db
    .select()
    .from(validationJobs)
    .where(and(eq(validationJobs.status, 'awaiting_upload'), lt(validationJobs.createdAt, cutoff)));
  for (const job of stale) {
    await failAwaiting(app, job, 'The direct upload was not completed within 24 hours.');
  }
  if (stale.length > 0) {
    app.log.info({ jobs: stale.map((j) => j.id) }, 'Aborted direct uploads never completed');
  }
  return stale.length;
}
