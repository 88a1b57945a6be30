import { randomUUID } from 'node:crypto';
import {
  completeJobBodySchema,
  type DirectUploadV1,
  type JobCreatedV1,
} from '@schemacheck/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import {
  cancelDirectUpload,
  completeDirectUpload,
  createDirectUploadJob,
  directUploadAnswer,
} from '../jobs/direct-uploads.ts';
import { findJob, recentJobs } from '../jobs/store.ts';
import { parseBody } from '../lib/validate.ts';
import { requireUser } from '../plugins/session.ts';
import { fileTooLarge, limitsOf } from '../validation/limits.ts';

// The dashboard's jobs (session and CSRF like every web call). GET /api/jobs: the latest jobs, in
// the /v1/jobs shape. A file above the synchronous limit goes straight to the bucket when the
// server stores on S3 (docs/decisions/236): POST /api/jobs/uploads starts a direct upload as
// /v1/jobs `upload: true` does and answers its presigned part URLs, the browser PUTs the parts,
// POST /api/jobs/:id/complete queues the job, DELETE /api/jobs/:id/upload gives it up, and
// GET /api/jobs/:id follows it. On local disk the start is refused (direct_upload_unavailable)
// and the dashboard sends the file to /api/validate.

const RECENT = 10;

const startUploadSchema = z.object({
  filename: z.string().min(1).max(255),
  size: z.number().int().min(1),
  schema: z.string().min(1),
  sheet: z.string().optional(),
  entry: z.string().optional(),
});

type Id = { Params: { id: string } };

export default async function jobWebRoutes(app: FastifyInstance) {
  const auth = { onRequest: requireUser };

  app.get('/api/jobs', auth, async (request) => ({
    data: await recentJobs(app, request.auth!.user.id, RECENT),
  }));

  app.post('/api/jobs/uploads', auth, async (request, reply): Promise<DirectUploadV1> => {
    const user = request.auth!.user;
    const body = parseBody(startUploadSchema, request.body);
    const plan = limitsOf(user.subscriptionTier);
    const jobId = randomUUID();
    const direct = await createDirectUploadJob(app, {
      jobId,
      userId: user.id,
      livemode: true,
      schemaId: undefined,
      schemaText: body.schema,
      filename: body.filename,
      size: body.size,
      choice: {
        ...(body.sheet !== undefined ? { sheet: body.sheet } : {}),
        ...(body.entry !== undefined ? { entry: body.entry } : {}),
      },
      maxBytes: plan.maxFileBytes,
      tooLarge: fileTooLarge,
      monthlyValidations: plan.monthlyValidations,
    });
    request.log.info({ jobId, size: body.size }, 'Direct upload started');
    reply.code(201).header('cache-control', 'no-store');
    return directUploadAnswer(direct, `${app.config.appUrl}/api/jobs/${jobId}/complete`);
  });

  app.post<Id>('/api/jobs/:id/complete', auth, async (request, reply): Promise<JobCreatedV1> => {
    const user = request.auth!.user;
    const body = parseBody(completeJobBodySchema, request.body);
    const row = await completeDirectUpload(app, {
      userId: user.id,
      jobId: request.params.id,
      parts: body.parts.map((p) => ({ partNumber: p.part_number, etag: p.etag })),
      maxBytes: limitsOf(user.subscriptionTier).maxFileBytes,
      tooLarge: fileTooLarge,
    });
    if (!row) throw new AppError('not_found', { message: 'No such job' });
    reply.code(202);
    return { job_id: row.id, status: 'queued', estimated_seconds: row.estimatedSeconds ?? 1 };
  });

  // Cancel during the parts: the job fails now and the month's validation is given back.
  app.delete<Id>('/api/jobs/:id/upload', auth, async (request, reply) => {
    if (!(await cancelDirectUpload(app, request.auth!.user.id, request.params.id))) {
      throw new AppError('not_found', { message: 'No such job' });
    }
    return reply.code(204).send();
  });

  app.get<Id>('/api/jobs/:id', auth, async (request) => {
    const job = await findJob(app, request.auth!.user.id, request.params.id);
    if (!job) throw new AppError('not_found', { message: 'No such job' });
    return job;
  });
}
