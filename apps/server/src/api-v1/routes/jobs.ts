import { randomUUID } from 'node:crypto';
import {
  createJobFormSchema,
  jobCreatedSchema,
  jobListQuerySchema,
  jobListSchema,
  jobParamsSchema,
  jobSchema,
  PLANS,
  uploadQuerySchema,
  type JobCreatedV1,
  type JobListV1,
  type JobV1,
} from '@schemacheck/contracts';
import { fileNameKind } from '@schemacheck/engine';
import { and, count, desc, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { validationJobs } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import {
  enqueueJob,
  estimateSeconds,
  jobsWithResults,
  uploadKeyFor,
} from '../../jobs/validation-jobs.ts';
import { displayFileName } from '../../validation/files.ts';
import { fileTooLarge } from '../../validation/limits.ts';
import { releaseValidation, reserveOrRefuse, type Reservation } from '../../validation/quota.ts';
import { isUuid } from '../../validation/results.ts';
import { parseSchema, ValidationAborted, type ParsedSchema } from '../../validation/service.ts';
import { SCHEMA_FIELD_MAX, withUploadForm } from '../../validation/upload-form.ts';
import { nameComponent, type ApiV1 } from '../openapi.ts';
import { findOwnSchema, notFound, parsedFromRow } from '../schemas-store.ts';

// /v1/jobs (docs/decisions/093): a file up to the plan's size limit is streamed to storage under
// its owner's prefix (never whole in memory), then its validation_jobs row and pg-boss job are
// created in one transaction and the answer is 202. The monthly validation is reserved before the
// body is read; it is given back when the upload does not become a job.

nameComponent(jobSchema, 'Job');
nameComponent(jobCreatedSchema, 'JobCreated');

const MULTIPART_SLACK = 64 * 1024;

const jobNotFound = () => new AppError('not_found', { message: 'No such job' });

function discardBody(request: FastifyRequest, reply: FastifyReply): void {
  if (request.raw.complete) return;
  reply.header('connection', 'close');
  request.raw.unpipe();
  request.raw.resume();
}

async function* counted(
  source: AsyncIterable<Uint8Array>,
  max: number | null,
  onBytes: (n: number) => void,
): AsyncGenerator<Uint8Array> {
  let n = 0;
  for await (const chunk of source) {
    n += chunk.byteLength;
    if (max !== null && n > max) throw fileTooLarge(max);
    onBytes(n);
    yield chunk;
  }
}

export default function jobRoutes(v1: ApiV1) {
  const { app } = v1;

  v1.route(
    {
      method: 'POST',
      path: '/jobs',
      operationId: 'createJob',
      tag: 'Jobs',
      summary: 'Validate a large file asynchronously',
      description:
        "Accepts a CSV or JSON file up to the plan's file size limit against a saved schema (`schema_id`) or an inline `schema` field, and answers 202 at once. Follow the job with GET /v1/jobs/{job_id}, or register a webhook for job.completed and job.failed. Counts one validation of the month (given back if the job fails on our side).",
      query: uploadQuerySchema,
      multipart: createJobFormSchema,
      responses: {
        202: { description: 'The job is queued.', schema: jobCreatedSchema },
        400: { description: 'No file, no schema, a malformed form, or a refused schema.' },
        404: { description: 'No such schema_id for this account (not_found).' },
        413: { description: "Over the plan's file size limit (file_too_large)." },
        415: { description: 'Not multipart, or not a CSV or JSON file (unsupported_file).' },
      },
      rowsAndBytes: true,
    },
    async ({ query, auth, request, reply }): Promise<JobCreatedV1> => {
      if (!request.isMultipart()) {
        discardBody(request, reply);
        throw new AppError('unsupported_media_type', {
          message: 'Send the file as multipart/form-data in a field named file.',
        });
      }
      const plan = PLANS[auth.tier].limits;
      const maxBytes = plan.maxFileBytes;
      const declared = Number(request.headers['content-length']);
      if (
        maxBytes !== null &&
        Number.isFinite(declared) &&
        declared > maxBytes + SCHEMA_FIELD_MAX + MULTIPART_SLACK
      ) {
        discardBody(request, reply);
        throw fileTooLarge(maxBytes);
      }
      let saved: ParsedSchema | null = null;
      let schemaId: string | null = null;
      if (query.schema_id !== undefined) {
        const row = await findOwnSchema(app.db, auth.userId, query.schema_id);
        if (!row) {
          discardBody(request, reply);
          throw notFound();
        }
        saved = parsedFromRow(row);
        schemaId = row.id;
      }

      const abort = new AbortController();
      let ended = false;
      const onEnd = () => (ended = true);
      const onClose = () => {
        if (!ended && !request.raw.complete) abort.abort();
      };
      request.raw.on('end', onEnd);
      request.raw.on('close', onClose);
      const jobId = randomUUID();
      const uploadKey = uploadKeyFor(auth.userId, jobId);
      let reservation: Reservation | null = null;
      let queued = false;
      try {
        reservation = await reserveOrRefuse(
          app.db,
          auth.userId,
          plan.monthlyValidations,
          app.now(),
        );
        const upload = await withUploadForm({
          request,
          userId: auth.userId,
          storage: app.storage,
          signal: abort.signal,
          maxFileBytes: maxBytes,
          tooLarge: fileTooLarge,
          schemaInForm: saved === null,
          messages: {
            noSchema:
              'Send a saved schema as ?schema_id=… or the schema as JSON text in a form field named schema.',
            noFile: 'The form has no file: send it in a field named file.',
          },
          run: async (file) => {
            const schema = saved ?? (await parseSchema(app.validationPool, file.schemaText!));
            const fileName = displayFileName(file.fileName);
            const kind = fileNameKind(fileName);
            if (kind === 'other') throw new AppError('unsupported_file');
            let bytes = 0;
            await app.storage.put(
              uploadKey,
              counted(file.source, maxBytes, (n) => (bytes = n)),
            );
            await file.finishForm();
            const fileType =
              schema.fileType ?? (kind === 'csv' ? 'csv' : kind === 'none' ? null : 'json');
            return { schema, fileName, fileType, bytes };
          },
        });
        const row = await enqueueJob(app, {
          id: jobId,
          userId: auth.userId,
          schemaId,
          fileName: upload.fileName,
          fileType: upload.fileType,
          fileSize: upload.bytes,
          uploadKey,
          schema: upload.schema,
          quotaMonth: reservation.month,
          estimatedSeconds: await estimateSeconds(app, upload.bytes),
        });
        queued = true;
        request.apiUsage = { rows: 0, bytes: upload.bytes };
        request.log.info({ jobId, bytes: upload.bytes }, 'Validation job queued');
        reply.code(202).header('location', `/api/v1/jobs/${jobId}`);
        return { job_id: row.id, status: 'queued', estimated_seconds: row.estimatedSeconds ?? 1 };
      } catch (err) {
        if (err instanceof ValidationAborted) {
          throw new AppError('validation', { message: 'The upload was aborted' });
        }
        discardBody(request, reply);
        throw err;
      } finally {
        request.raw.off('close', onClose);
        request.raw.off('end', onEnd);
        if (!queued) {
          await app.storage.delete(uploadKey).catch(() => {});
          if (reservation) {
            await releaseValidation(app.db, reservation).catch((err: unknown) =>
              request.log.error({ err }, 'Could not release a reserved validation'),
            );
          }
        }
      }
    },
  );

  v1.route(
    {
      method: 'GET',
      path: '/jobs/{job_id}',
      operationId: 'getJob',
      tag: 'Jobs',
      summary: 'Get a job',
      description:
        'The state of a job: queued, running (with progress from 0 to 1), completed (with its result and report_url) or failed (with the reason).',
      params: jobParamsSchema,
      responses: {
        200: { description: 'The job.', schema: jobSchema },
        404: { description: 'No such job for this account (not_found).' },
      },
    },
    async ({ params, auth, reply }): Promise<JobV1> => {
      if (!isUuid(params.job_id)) throw jobNotFound();
      const [row] = await app.db
        .select()
        .from(validationJobs)
        .where(and(eq(validationJobs.id, params.job_id), eq(validationJobs.userId, auth.userId)));
      if (!row) throw jobNotFound();
      if (row.status === 'queued' || row.status === 'running') reply.header('retry-after', '2');
      const [job] = await jobsWithResults(app, [row]);
      return job!;
    },
  );

  v1.route(
    {
      method: 'GET',
      path: '/jobs',
      operationId: 'listJobs',
      tag: 'Jobs',
      summary: 'List jobs',
      description: 'Your jobs, newest first, optionally of one status.',
      query: jobListQuerySchema,
      responses: { 200: { description: 'A page of jobs.', schema: jobListSchema } },
    },
    async ({ query, auth }): Promise<JobListV1> => {
      const where = and(
        eq(validationJobs.userId, auth.userId),
        query.status ? eq(validationJobs.status, query.status) : undefined,
      );
      const [total] = await app.db.select({ n: count() }).from(validationJobs).where(where);
      const rows = await app.db
        .select()
        .from(validationJobs)
        .where(where)
        .orderBy(desc(validationJobs.createdAt), desc(validationJobs.id))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit);
      const n = total?.n ?? 0;
      return {
        data: await jobsWithResults(app, rows),
        page: query.page,
        limit: query.limit,
        total: n,
        has_more: query.page * query.limit < n,
      };
    },
  );
}
