import type { FastifyInstance } from 'fastify';
import { desc, eq } from 'drizzle-orm';
import { validationJobs } from '../db/schema.ts';
import { requireUser } from '../plugins/session.ts';
import { jobsWithResults } from './validation-jobs.ts';

// GET /api/jobs: the signed-in user's latest jobs for the dashboard, in the /v1/jobs shape. Jobs
// are started through the API; this only shows them.

const RECENT = 10;

export default async function jobWebRoutes(app: FastifyInstance) {
  app.get('/api/jobs', { onRequest: requireUser }, async (request) => {
    const rows = await app.db
      .select()
      .from(validationJobs)
      .where(eq(validationJobs.userId, request.auth!.user.id))
      .orderBy(desc(validationJobs.createdAt), desc(validationJobs.id))
      .limit(RECENT);
    return { data: await jobsWithResults(app, rows) };
  });
}
