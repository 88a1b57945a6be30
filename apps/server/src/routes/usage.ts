import type { FastifyInstance } from 'fastify';
import { requireUser } from '../plugins/session.ts';
import { usageFor } from '../validation/quota.ts';

/** GET /api/auth/usage: this month's validations (UsageResponse; docs/decisions/032). */
export default async function usageRoutes(app: FastifyInstance) {
  app.get('/api/auth/usage', { onRequest: requireUser }, async (request) => {
    const user = request.auth!.user;
    return usageFor(app.db, user.id, user.subscriptionTier, app.now());
  });
}
