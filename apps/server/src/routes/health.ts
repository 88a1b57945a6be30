import type { FastifyInstance } from 'fastify';

const PING_TIMEOUT_MS = 3_000;

/** GET /healthz: 200 {status:'ok'} when the database answers `select 1`, else 503. */
export default async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', async (request, reply) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        app.database.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('Database ping timed out')), PING_TIMEOUT_MS);
        }),
      ]);
      return { status: 'ok' };
    } catch (err) {
      request.log.warn({ err }, 'Health check failed');
      return reply.code(503).send({
        status: 'unavailable',
        error: 'Database unavailable',
        code: 'service_unavailable',
      });
    } finally {
      clearTimeout(timer);
    }
  });
}
