import type { FastifyInstance } from 'fastify';
import { recentJobs } from '../jobs/store.ts';
import { requireUser } from '../plugins/session.ts';

// GET /api/jobs: the signed-in user's latest jobs for the dashboard, in the /v1/jobs shape. Jobs
// are started through the API; this only shows them.

const RECENT = 10;

export default async function jobWebRoutes(app: FastifyInstance) {
  app.get('/api/jobs', { onRequest: requireUser }, async (request) => ({
    data: await recentJobs(app, request.auth!.user.id, RECENT),
  }));
}
