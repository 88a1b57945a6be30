import type { JobStatusV1, ListQueryV1 } from '@schemacheck/contracts';
import type { FastifyInstance } from 'fastify';
import { and, desc, eq } from 'drizzle-orm';
import { listPage } from '../lib/pagination.ts';
import { validationJobs } from '../db/schema.ts';
import { isUuid } from '../lib/uuid.ts';
import { jobsWithResults, type JobRow } from './validation-jobs.ts';

// Reading jobs (docs/decisions/093, 185): the one place that queries validation_jobs for the
// routes. GET /v1/jobs/{id}, GET /v1/jobs and the dashboard's GET /api/jobs answer what these
// return, in the /v1/jobs shape; the routes only translate HTTP.

export type JobView = Awaited<ReturnType<typeof jobsWithResults>>[number];

/** The user's job, or null when there is none with this id (any id that is not a UUID). */
export async function findJob(
  app: FastifyInstance,
  userId: string,
  jobId: string,
): Promise<JobView | null> {
  if (!isUuid(jobId)) return null;
  const [row] = await app.db
    .select()
    .from(validationJobs)
    .where(and(eq(validationJobs.id, jobId), eq(validationJobs.userId, userId)));
  if (!row) return null;
  const [job] = await jobsWithResults(app, [row]);
  return job!;
}

/** A page of the user's jobs, newest first, optionally of one status (docs/decisions/136). */
export async function listJobs(
  app: FastifyInstance,
  userId: string,
  query: ListQueryV1 & { status?: JobStatusV1 | undefined },
) {
  const { rows, ...page } = await listPage<JobRow>(
    app.db,
    {
      table: validationJobs,
      id: validationJobs.id,
      createdAt: validationJobs.createdAt,
      userId: validationJobs.userId,
    },
    userId,
    query,
    query.status ? eq(validationJobs.status, query.status) : undefined,
    'job',
  );
  return { data: await jobsWithResults(app, rows), ...page };
}

/** The user's latest `limit` jobs, newest first (the dashboard). */
export async function recentJobs(
  app: FastifyInstance,
  userId: string,
  limit: number,
): Promise<JobView[]> {
  const rows = await app.db
    .select()
    .from(validationJobs)
    .where(eq(validationJobs.userId, userId))
    .orderBy(desc(validationJobs.createdAt), desc(validationJobs.id))
    .limit(limit);
  return jobsWithResults(app, rows);
}
