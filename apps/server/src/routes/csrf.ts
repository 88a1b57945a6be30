import type { FastifyInstance } from 'fastify';
import { csrfTokenFor } from '../plugins/session.ts';

/** GET /api/csrf-token → {csrfToken}, for the x-csrf-token header of mutating requests. */
export default async function csrfRoutes(app: FastifyInstance) {
  app.get('/api/csrf-token', async (request, reply) => ({
    csrfToken: csrfTokenFor(request, reply),
  }));
}
