import type { FastifyInstance } from 'fastify';

const PING_TIMEOUT_MS = 3_000;

/** Rejects when `work` has not settled within `ms`. */
async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} timed out`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /healthz (liveness): 200 {status:'ok'} when the database answers `select 1`, else 503.
 * GET /readyz (readiness, docs/deploy.md, docs/decisions/218): 200 when the database answers
 * and the storage (DATA_DIR/reports, or the S3 bucket) can be used, else 503 naming what failed.
 * While the server shuts down, Fastify answers every new request, these too, with 503.
 */
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

  app.get('/readyz', async (request, reply) => {
    const [database, storage] = await Promise.allSettled([
      within(app.database.ping(), PING_TIMEOUT_MS, 'Database ping'),
      within(app.storage.ping(), PING_TIMEOUT_MS, 'Storage check'),
    ]);
    const checks = {
      database: database.status === 'fulfilled' ? 'ok' : 'unavailable',
      storage: storage.status === 'fulfilled' ? 'ok' : 'unavailable',
    } as const;
    if (database.status === 'fulfilled' && storage.status === 'fulfilled') {
      return { status: 'ready', checks };
    }
    const failed = [database, storage].flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    request.log.warn({ err: failed[0], checks }, 'Readiness check failed');
    return reply.code(503).send({
      status: 'unavailable',
      error: `Not ready: ${Object.entries(checks)
        .filter(([, v]) => v !== 'ok')
        .map(([k]) => k)
        .join(' and ')} unavailable`,
      code: 'service_unavailable',
      checks,
    });
  });
}
