import PgBoss from 'pg-boss';
import type { FastifyInstance } from 'fastify';
import { purgeExpiredResults } from '../validation/results.ts';
import { storableString } from '../lib/unicode.ts';
import { sweepAbandonedUploads } from './direct-uploads.ts';
import { abortRunningParts, PART_QUEUE, runPart } from './split-jobs.ts';
import {
  abortRunningJobs,
  runValidationJob,
  sweepStaleJobs,
  VALIDATION_QUEUE,
} from './validation-jobs.ts';

/** How often direct uploads never completed are looked for (docs/decisions/235). */
const ABANDONED_UPLOAD_SWEEP_MS = 15 * 60 * 1000;

// pg-boss on the app's own database (docs/decisions/033, 093). On PostgreSQL pg-boss opens its
// own small pool from the URL; on PGlite it runs through the `db` adapter, where statements
// without parameters go through `exec`. A process with RUN_JOBS=true (the default), or
// `npm run worker`, works three queues: the daily retention purge, asynchronous validations and
// webhook attempts, and runs two sweeps (jobs whose process died, webhook attempts nobody sent).
// pg-boss's own locking makes several such processes on one PostgreSQL safe. Queues of other
// modules (the webhook attempts) are added with addQueue when the app is built, so this module
// knows none of them (docs/decisions/186).

export const PURGE_RESULTS_QUEUE = 'purge-expired-results';
/** Every day at 03:17 UTC. */
export const PURGE_RESULTS_CRON = '17 3 * * *';

export interface Jobs {
  boss: PgBoss;
  stop(): Promise<void>;
}

/** A boss on the app's database; `working` ones supervise (expiry, archive) and run schedules. */
export function createBoss(app: FastifyInstance, working: boolean): PgBoss {
  const raw = app.database.raw;
  const common = {
    schema: 'pgboss',
    supervise: working,
    schedule: working,
    migrate: true,
  };
  if (raw.kind === 'postgres') {
    return new PgBoss({ ...common, connectionString: raw.connectionString, max: working ? 4 : 2 });
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

/** What pg-boss records of a failed handler: a plain message, storable, at most 500 characters. */
export class JobFailed extends Error {
  override name = 'JobFailed';
  constructor(message: string) {
    super(storableString(message).slice(0, 500));
    // Only the message: the stack and the original error's own fields (a driver error carries
    // the statement's parameters) stay in the log.
    this.stack = `${this.name}: ${this.message}`;
  }
}

/**
 * A pg-boss handler that can fail its job but never the process (docs/decisions/120). pg-boss
 * writes a handler's error into its jsonb `output` without awaiting the write; an error quoting
 * an unstorable value (a receiver's U+0000) made that write fail too, and the rejection nobody
 * caught ended the process, again after every restart. The error is logged whole here and
 * pg-boss gets only a storable message.
 */
export function safely<T>(
  app: FastifyInstance,
  queue: string,
  run: (data: T) => Promise<void>,
): (jobs: PgBoss.Job<T>[]) => Promise<void> {
  return async ([job]) => {
    if (!job) return;
    try {
      await run(job.data);
    } catch (err) {
      app.log.error({ err, queue, jobId: job.id }, 'Job handler failed');
      const message = err instanceof Error ? err.message : String(err);
      throw new JobFailed(message);
    }
  };
}

/** A queue another module works (webhooks/plugin.ts adds the webhook attempts). */
export interface AddedQueue<T> {
  queue: PgBoss.Queue;
  /** Its pg-boss workers in one working process. */
  slots: number;
  run: (data: T) => Promise<void>;
  /** Run every `everyMs` by a working process; a failure is logged as `failure`. */
  sweep?: { everyMs: number; run: () => Promise<unknown>; failure: string };
}

const added = new WeakMap<FastifyInstance, AddedQueue<never>[]>();

function addedQueues(app: FastifyInstance): AddedQueue<never>[] {
  let list = added.get(app);
  if (!list) added.set(app, (list = []));
  return list;
}

/** Adds a queue that ensureQueues creates and startJobs works; call while the app is built. */
export function addQueue<T>(app: FastifyInstance, q: AddedQueue<T>): void {
  addedQueues(app).push(q as AddedQueue<never>);
}

/** Creates the queues (idempotent); every process that sends or works calls it. */
export async function ensureQueues(app: FastifyInstance, boss: PgBoss): Promise<void> {
  const existing = new Set((await boss.getQueues()).map((q) => q.name));
  const want: PgBoss.Queue[] = [
    { name: PURGE_RESULTS_QUEUE, retryLimit: 3 },
    // Our own heartbeat takes over a job whose process died (validation-jobs.ts); pg-boss's
    // expiry is only the backstop, sized for the largest file on the slowest machine.
    {
      name: VALIDATION_QUEUE,
      retryLimit: 3,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: 4 * 60 * 60,
    },
    // The parts of a split job (decision 239), taken over the same way.
    {
      name: PART_QUEUE,
      retryLimit: 3,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: 4 * 60 * 60,
    },
    ...addedQueues(app).map((q) => q.queue),
  ];
  for (const q of want) if (!existing.has(q.name)) await createQueueOnce(boss, q);
}

/**
 * Creates one queue when several processes may start on a fresh database at once (two workers
 * of a deployment, decision 237): PostgreSQL can answer one of two concurrent createQueue calls
 * with a deadlock (40P01, on pg-boss's queue table and the queue's partition) and commits the
 * other a moment later, so a failure is retried until the queue exists or the tries run out.
 */
async function createQueueOnce(boss: PgBoss, q: PgBoss.Queue): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.createQueue(q.name, q);
      return;
    } catch (err) {
      await new Promise((r) => setTimeout(r, 50 * attempt + Math.random() * 100));
      if (await boss.getQueue(q.name)) return; // another process created it
      if (attempt >= 5) throw err;
    }
  }
}

/** A boss that only sends (a web server with RUN_JOBS=false). */
export async function startSender(app: FastifyInstance): Promise<PgBoss> {
  const boss = createBoss(app, false);
  boss.on('error', (err) => app.log.error({ err }, 'Job queue error'));
  await boss.start();
  await ensureQueues(app, boss);
  return boss;
}

export async function startJobs(
  app: FastifyInstance,
  options: { pollingIntervalSeconds?: number } = {},
): Promise<Jobs> {
  const boss = createBoss(app, true);
  boss.on('error', (err) => app.log.error({ err }, 'Job queue error'));
  await boss.start();
  await ensureQueues(app, boss);
  const polling = options.pollingIntervalSeconds ?? 30;
  await boss.schedule(PURGE_RESULTS_QUEUE, PURGE_RESULTS_CRON, {}, { tz: 'UTC' });
  await boss.work(
    PURGE_RESULTS_QUEUE,
    { pollingIntervalSeconds: polling },
    safely(app, PURGE_RESULTS_QUEUE, async () => {
      await purgeExpiredResults(app.db, app.storage, app.now(), app.log);
    }),
  );

  // Validations and webhooks are waited for by people: poll often (0.5 s is pg-boss's floor).
  const fast = Math.min(polling, 1);
  for (let i = 0; i < app.config.validationWorkers; i++) {
    await boss.work<{ jobId: string }>(
      VALIDATION_QUEUE,
      { pollingIntervalSeconds: fast, batchSize: 1 },
      safely(app, VALIDATION_QUEUE, (data: { jobId: string }) => runValidationJob(app, data.jobId)),
    );
    await boss.work<{ jobId: string; part: number }>(
      PART_QUEUE,
      { pollingIntervalSeconds: fast, batchSize: 1 },
      safely(app, PART_QUEUE, (data: { jobId: string; part: number }) =>
        runPart(app, data.jobId, data.part),
      ),
    );
  }
  for (const q of addedQueues(app)) {
    for (let i = 0; i < q.slots; i++) {
      await boss.work<never>(
        q.queue.name,
        { pollingIntervalSeconds: fast, batchSize: 1 },
        safely(app, q.queue.name, q.run),
      );
    }
  }

  const timers = [
    setInterval(
      () =>
        void sweepStaleJobs(app).catch((err: unknown) =>
          app.log.error({ err }, 'Stale job sweep failed'),
        ),
      Math.max(1000, Math.round(app.config.validationJobs.staleMs / 2)),
    ),
    setInterval(
      () =>
        void sweepAbandonedUploads(app).catch((err: unknown) =>
          app.log.error({ err }, 'Abandoned direct upload sweep failed'),
        ),
      ABANDONED_UPLOAD_SWEEP_MS,
    ),
    ...addedQueues(app).flatMap(({ sweep }) =>
      sweep
        ? [
            setInterval(
              () => void sweep.run().catch((err: unknown) => app.log.error({ err }, sweep.failure)),
              sweep.everyMs,
            ),
          ]
        : [],
    ),
  ];
  for (const t of timers) t.unref();
  // Jobs left by a process that died while this one was down.
  await sweepStaleJobs(app).catch((err: unknown) =>
    app.log.error({ err }, 'Stale job sweep failed'),
  );

  return {
    boss,
    async stop() {
      for (const t of timers) clearInterval(t);
      // Running validations go back to the queue now rather than after pg-boss's grace period.
      abortRunningJobs(app);
      abortRunningParts(app);
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
