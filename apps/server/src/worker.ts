import { buildApp } from './app.ts';
import { fail, installShutdown, openConfiguredDatabase } from './startup.ts';

// `npm run worker`: a process that only works jobs (asynchronous validations, webhook attempts,
// the retention purge) against PostgreSQL, beside web servers started with RUN_JOBS=false
// (docs/decisions/094). Several may run; pg-boss hands each job to one of them, and a job whose
// worker dies is taken over by another. It needs DATABASE_URL (PGlite belongs to one process,
// which runs the jobs itself) and the same storage as the web servers: one S3 bucket (S3_BUCKET,
// docs/decisions/215) or a shared DATA_DIR.

const SHUTDOWN_GRACE_MS = 30_000;

async function main(): Promise<void> {
  const { config, database } = await openConfiguredDatabase();
  if (database.kind !== 'postgres') {
    await database.close();
    fail(
      'npm run worker needs DATABASE_URL (PostgreSQL). With the embedded database, jobs run inside npm start.',
    );
  }
  try {
    await database.migrate();
  } catch (err) {
    await database.close();
    fail(`Database migration failed: ${(err as Error).message}`);
  }
  const app = await buildApp({ ...config, runJobs: true }, { database });
  // The same stop as the web server: Ctrl-C under npm is one request to stop, a later signal
  // forces a bounded exit.
  installShutdown(app, { database, config }, { graceMs: SHUTDOWN_GRACE_MS });
  await app.ready();
  app.log.info({ pid: process.pid }, 'SchemaCheck worker is ready');
}

await main();
