import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { Session, User } from './db/schema.ts';
import type { BackgroundTasks } from './lib/tasks.ts';
import type { Jobs } from './jobs/boss.ts';
import type { JobEvents } from './jobs/events.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { Mailer } from './mail/mailer.ts';
import type { RouteIndex } from './plugins/errors.ts';
import type { Storage } from './storage/index.ts';
import type { RunningValidations } from './validation/limits.ts';
import type { ValidationPool } from './validation/pool.ts';

/** Runs before an account is deleted (billing cancels the subscription here, storage removes files). */
export type AccountDeletionHook = (user: User) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    /** Shorthand for database.db. */
    db: Db;
    /** The clock. Injectable (deps.now) so tests can move time. */
    now: () => Date;
    mailer: Mailer;
    tasks: BackgroundTasks;
    keys: {
      /** Signs CSRF tokens. */
      csrf: Buffer;
      /** Turns typed identifiers into rate-limit bucket keys. */
      throttle: Buffer;
    };
    /** Called in order, before the user row (and with it everything owned) is deleted. */
    accountDeletionHooks: AccountDeletionHook[];
    /** Full error reports (docs/decisions/031). */
    storage: Storage;
    /** Worker threads that run the engine (docs/decisions/030). */
    validationPool: ValidationPool;
    /** Validations running per user in this process (docs/decisions/032). */
    runningValidations: RunningValidations;
    /** pg-boss, when this process runs jobs (RUN_JOBS); null otherwise. */
    jobs: Jobs | null;
    /** Sends pg-boss jobs from this process, working or not (jobs/queue.ts). */
    jobQueue: JobQueue;
    /** Who hears that a job ended (jobs/events.ts; the webhooks module subscribes). */
    jobEvents: JobEvents;
    /** Every registered method and path (plugins/errors.ts), for 405 answers. */
    routeIndex: RouteIndex;
  }

  interface FastifyRequest {
    /** The signed-in user and session of this request, when the session cookie is live. */
    auth: { user: User; session: Session } | null;
  }

  interface FastifyContextConfig {
    /** false: this route does not take the CSRF check (webhooks, API-key routes). */
    csrf?: boolean;
  }
}
