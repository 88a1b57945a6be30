import { randomUUID } from 'node:crypto';
import {
  completeJobBodySchema,
  createJobFormSchema,
  createJobJsonSchema,
  directUploadSchema,
  jobCreatedSchema,
  jobListQuerySchema,
  jobListSchema,
  jobParamsSchema,
  jobSchema,
  PLANS,
  UPLOAD_FORMATS_TEXT,
  uploadQuerySchema,
  type CreateJobJsonV1,
  type DirectUploadV1,
  type JobCreatedV1,
  type JobListV1,
  type JobV1,
} from '@schemacheck/contracts';
import { fileNameKind } from '@schemacheck/engine';
import { AppError } from '../../errors.ts';
import {
  completeDirectUpload,
  createDirectUploadJob,
  createSourceUrlJob,
  directUploadAnswer,
  type JsonJobInput,
} from '../../jobs/direct-uploads.ts';
import { findJob, listJobs } from '../../jobs/store.ts';
import { enqueueJob, estimateSeconds, uploadKeyFor } from '../../jobs/validation-jobs.ts';
import { displayFileName } from '../../validation/files.ts';
import { fileTooLarge } from '../../validation/limits.ts';
import { isContainerName } from '../../validation/service.ts';
import { choiceOf } from '../../validation/upload-form.ts';
import { receiveUpload } from '../../validation/upload-pipeline.ts';
import { nameComponent, type ApiV1 } from '../openapi.ts';
import { uploadLimitFor } from '../test-mode.ts';
import { v1UploadOptions } from '../upload.ts';

// /v1/jobs (docs/decisions/093): through the one upload pipeline (validation/upload-pipeline.ts),
// a file up to the plan's size limit is streamed to storage under its owner's prefix (never
// whole in memory), then its validation_jobs row and pg-boss job are created in one transaction
// (jobs/validation-jobs.ts) and the answer is 202. The monthly validation is reserved before the
// body is read; it is given back when the upload does not become a job. Reading jobs is
// jobs/store.ts's. A JSON body instead of the form (docs/decisions/235) is jobs/direct-uploads.ts's:
// `upload: true` answers presigned part URLs (201) and POST /jobs/{job_id}/complete queues the
// job; `source_url` queues a job whose worker fetches the file.

nameComponent(jobSchema, 'Job');
nameComponent(jobCreatedSchema, 'JobCreated');
nameComponent(directUploadSchema, 'DirectUpload');

const jobNotFound = () => new AppError('not_found', { message: 'No such job' });

export default function jobRoutes(v1: ApiV1) {
  const { app } = v1;

  v1.route(
    {
      method: 'POST',
      path: '/jobs',
      operationId: 'createJob',
      tag: 'Jobs',
      summary: 'Validate a large file asynchronously',
      description: `Accepts a file (${UPLOAD_FORMATS_TEXT}) up to the plan's file size limit against a saved schema (\`schema_id\`) or an inline \`schema\` field, and answers 202 at once. Follow the job with GET /v1/jobs/{job_id}, or register a webhook for job.completed and job.failed. Counts one validation of the month (given back if the job fails on our side). A gzip, zip or workbook is opened when the job runs: a refusal (an .xls, a zip bomb, several entries without \`entry\`) fails the job with the engine's reason.

Instead of the form, a JSON body can name where the file is:
- \`{"upload": true, "filename": …, "size": …}\` (servers on object storage): answers 201 with presigned URLs, one per part of \`part_size\` bytes (the last part smaller). PUT each part to its URL, keep each answer's ETag header, then POST them to \`complete_url\` (POST /v1/jobs/{job_id}/complete), which queues the job. An upload not completed within 24 hours is dropped and its job fails.
- \`{"source_url": "https://…"}\`: answers 202; the job fetches the file from that URL (public addresses only, redirects followed and checked, size capped by the plan). A fetch that fails (unreachable, refused address, an HTTP error, too large) fails the job with the reason, and the validation is given back.`,
      query: uploadQuerySchema,
      multipart: createJobFormSchema,
      json: createJobJsonSchema,
      responses: {
        201: {
          description: 'A direct upload (`upload: true`): the job awaits its parts.',
          schema: directUploadSchema,
        },
        202: { description: 'The job is queued.', schema: jobCreatedSchema },
        400: {
          description:
            'No file, no schema, a malformed form, a refused schema, or `upload: true` on a server without object storage (direct_upload_unavailable).',
        },
        404: { description: 'No such schema_id for this account (not_found).' },
        413: {
          description:
            "Over the plan's file size limit (file_too_large); for gzip, zip and workbooks it applies to the decompressed data, checked when the job runs.",
        },
        415: {
          description:
            'Neither multipart nor JSON, or not a file of the formats above (unsupported_file).',
        },
      },
      rowsAndBytes: true,
    },
    async ({ query, auth, body, request, reply }): Promise<JobCreatedV1 | DirectUploadV1> => {
      const plan = PLANS[auth.tier].limits;
      const { maxBytes, tooLarge } = uploadLimitFor(auth, {
        maxBytes: plan.maxFileBytes,
        tooLarge: fileTooLarge,
      });
      const jobId = randomUUID();
      const json = body as CreateJobJsonV1 | undefined;
      if (json) {
        const input: JsonJobInput = {
          userId: auth.userId,
          livemode: auth.livemode,
          schemaId: query.schema_id,
          schemaText: json.schema,
          filename: json.filename,
          choice: choiceOf(query, {
            ...(json.sheet !== undefined ? { sheet: json.sheet } : {}),
            ...(json.entry !== undefined ? { entry: json.entry } : {}),
          }),
          maxBytes,
          tooLarge,
          monthlyValidations: plan.monthlyValidations,
        };
        if (json.upload === true && json.source_url === undefined) {
          if (json.size === undefined) {
            throw new AppError('validation', { message: 'body size: required with upload: true' });
          }
          const direct = await createDirectUploadJob(app, { ...input, jobId, size: json.size });
          reply.code(201).header('location', `/api/v1/jobs/${jobId}`);
          return directUploadAnswer(direct, `${app.config.appUrl}/api/v1/jobs/${jobId}/complete`);
        }
        if (json.source_url !== undefined && json.upload === undefined) {
          const row = await createSourceUrlJob(app, {
            ...input,
            jobId,
            sourceUrl: json.source_url,
          });
          reply.code(202).header('location', `/api/v1/jobs/${jobId}`);
          return { job_id: row.id, status: 'queued', estimated_seconds: 1 };
        }
        throw new AppError('validation', {
          message:
            'Send either upload: true with filename and size, or source_url (or the file as multipart/form-data).',
        });
      }
      const uploadKey = uploadKeyFor(auth.userId, jobId);
      const queued = await receiveUpload(
        {
          ...v1UploadOptions({
            app,
            request,
            reply,
            auth,
            schemaId: query.schema_id,
            maxBytes,
            tooLarge,
            monthlyValidations: plan.monthlyValidations,
          }),
          // Checked now: the job runs later, and a refused schema is this request's 400.
          schemaCheck: 'now',
          cleanUp: () => app.storage.delete(uploadKey).catch(() => {}),
        },
        async (upload) => {
          const fileName = displayFileName(upload.fileName);
          const kind = fileNameKind(fileName);
          // gzip, zip and workbooks are opened when the job runs (docs/decisions/163).
          const container = isContainerName(fileName);
          if (kind === 'other' && !container) throw new AppError('unsupported_file');
          await app.storage.put(uploadKey, upload.source);
          await upload.finishForm();
          const bytes = upload.bytes();
          const row = await enqueueJob(app, {
            id: jobId,
            userId: auth.userId,
            schemaId: upload.schemaId,
            fileName,
            fileType:
              upload.schema.fileType ??
              (container || kind === 'none' ? null : kind === 'csv' ? 'csv' : 'json'),
            fileSize: bytes,
            uploadKey,
            schema: upload.schema,
            quotaMonth: upload.reservation?.month ?? null,
            livemode: auth.livemode,
            choice: choiceOf(query, upload.choice),
            estimatedSeconds: await estimateSeconds(app, bytes),
          });
          return { row, bytes };
        },
      );
      request.apiUsage = { rows: 0, bytes: queued.bytes };
      request.log.info({ jobId, bytes: queued.bytes }, 'Validation job queued');
      reply.code(202).header('location', `/api/v1/jobs/${jobId}`);
      return {
        job_id: queued.row.id,
        status: 'queued',
        estimated_seconds: queued.row.estimatedSeconds ?? 1,
      };
    },
  );

  v1.route(
    {
      method: 'POST',
      path: '/jobs/{job_id}/complete',
      operationId: 'completeJobUpload',
      tag: 'Jobs',
      summary: 'Complete a direct upload',
      description:
        'Once every part of a direct upload (`upload: true`) is sent, completes it from the parts’ ETags and queues the job (202, as POST /v1/jobs). A file over the plan’s file size limit is refused (413) and its job fails.',
      params: jobParamsSchema,
      body: completeJobBodySchema,
      responses: {
        202: { description: 'The job is queued.', schema: jobCreatedSchema },
        400: {
          description:
            'The parts do not make the file: one missing, a part but the last under 5 MiB, a wrong ETag (upload_incomplete).',
        },
        404: { description: 'No such job for this account (not_found).' },
        409: {
          description:
            'The job is not a direct upload awaiting its parts (job_not_awaiting_upload), or the same Idempotency-Key is still running (idempotency_in_progress).',
        },
        413: {
          description:
            "The file is over the plan's file size limit (file_too_large): the job fails, or the JSON body is over 1 MB (payload_too_large).",
        },
      },
    },
    async ({ params, body, auth, reply }): Promise<JobCreatedV1> => {
      const plan = PLANS[auth.tier].limits;
      const { maxBytes, tooLarge } = uploadLimitFor(auth, {
        maxBytes: plan.maxFileBytes,
        tooLarge: fileTooLarge,
      });
      const row = await completeDirectUpload(app, {
        userId: auth.userId,
        jobId: params.job_id,
        parts: body.parts.map((p) => ({ partNumber: p.part_number, etag: p.etag })),
        maxBytes,
        tooLarge,
      });
      if (!row) throw jobNotFound();
      reply.code(202).header('location', `/api/v1/jobs/${row.id}`);
      return {
        job_id: row.id,
        status: 'queued',
        estimated_seconds: row.estimatedSeconds ?? 1,
      };
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
      const job = await findJob(app, auth.userId, params.job_id);
      if (!job) throw jobNotFound();
      if (job.status === 'queued' || job.status === 'running') reply.header('retry-after', '2');
      return job;
    },
  );

  v1.route(
    {
      method: 'GET',
      path: '/jobs',
      operationId: 'listJobs',
      tag: 'Jobs',
      summary: 'List jobs',
      description:
        'Your jobs, newest first (created_at, then job_id, descending), optionally of one status. Choose a page by number (`page`) or by cursor: `starting_after` the job_id of the last job you have, which never repeats or skips a job when jobs are created meanwhile.',
      query: jobListQuerySchema,
      responses: { 200: { description: 'A page of jobs.', schema: jobListSchema } },
    },
    async ({ query, auth }): Promise<JobListV1> => listJobs(app, auth.userId, query),
  );
}
