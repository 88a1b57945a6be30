import PgBoss from 'pg-boss';
import type { FastifyInstance } from 'fastify';
import { purgeExpiredResults } from '../validation/results.ts';

// Scheduled jobs through pg-boss on the app's own database (docs/decisions/033). On PostgreSQL
// pg-boss opens its own small pool from the URL; on PGlite it runs through the `db` adapter,
// where statements without parameters go through `exec` (checked on pg-boss 10 with PGlite). With
// RUN_JOBS=true (the default) this process schedules and works the jobs; pg-boss's own locking
// makes it safe for several servers to do so on one PostgreSQL.

export const PURGE_RESULTS_QUEUE = 'purge-expired-results';
/** Every day at 03:17 UTC. */
export const PURGE_RESULTS_CRON = '17 3 * * *';

export interface Jobs {
  boss: PgBoss;
  stop(): Promise<void>;
}

function createBoss(app: FastifyInstance): PgBoss {
  const raw = app.database.raw;
  const common = {
    schema: 'pgboss',
    // The app's own sweeps are small; pg-boss's archive and maintenance keep their defaults.
    supervise: true,
    schedule: true,
    migrate: true,
  };
  if (raw.kind === 'postgres') {
    return new PgBoss({ ...common, connectionString: raw.connectionString, max: 2 });
  }
  const client = raw.client;
  return new PgBoss({
    ...common,
    db: {
      async executeSql(text: string, values?: unknown[]) {
        if (values && values.length > 0) {
          const r = await client.query(text, values);
          return { rows: r.rows as unknown[] };
        }
        const results = await client.exec(text);
        return { rows: (results.at(-1)?.rows ?? []) as unknown[] };
      },
    },
  });
}

export async function startJobs(
  app: FastifyInstance,
  options: { pollingIntervalSeconds?: number } = {},
): Promise<Jobs> {
  const boss = createBoss(app);
  boss.on('error', (err) => app.log.error({ err }, 'Job queue error'));
  await boss.start();
  await boss.createQueue(PURGE_RESULTS_QUEUE, { name: PURGE_RESULTS_QUEUE, retryLimit: 3 });
  await boss.schedule(PURGE_RESULTS_QUEUE, PURGE_RESULTS_CRON, {}, { tz: 'UTC' });
  await boss.work(
    PURGE_RESULTS_QUEUE,
    { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 30 },
    async () => {
      await purgeExpiredResults(app.db, app.storage, app.now(), app.log);
    },
  );
  return {
    boss,
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
