import fp from 'fastify-plugin';
import { startJobs } from '../jobs/boss.ts';
import { createStorage } from '../storage/create.ts';
import { userPrefix } from '../storage/index.ts';
import { RunningValidations } from '../validation/limits.ts';
import { ValidationPool } from '../validation/pool.ts';
import { deleteUserReports } from '../validation/results.ts';

/**
 * The start-up sweep's age below which a temp file is left alone: it may belong to a write in
 * progress in another process (the periodic sweep's is storage/sweep.ts SWEEP_MIN_AGE_MS).
 */
const STARTUP_TEMP_MIN_AGE_MS = 60 * 60 * 1000;

/**
 * What the validation workspace runs on: storage (DATA_DIR/reports, or the S3 bucket of
 * S3_BUCKET: docs/decisions/215), the worker pool,
 * the per-user running guard, and pg-boss for the retention job. Orphaned temp files are swept
 * when the app is ready; account deletion removes the user's report files.
 */
export default fp(
  async (app) => {
    const storage = await createStorage(app.config);
    const pool = new ValidationPool(app.config.validationWorkers, app.log, {
      maxHeapMb: app.config.validationWorkerHeapMb,
    });
    app.decorate('storage', storage);
    app.decorate('validationPool', pool);
    app.decorate('runningValidations', new RunningValidations());
    app.decorate('jobs', null);

    app.accountDeletionHooks.push((user) => deleteUserReports(app.db, storage, user.id));
    // Everything of the user lives under their prefix, rows or not (docs/decisions/064).
    app.accountDeletionHooks.push((user) => storage.deletePrefix(userPrefix(user.id)));

    app.addHook('onReady', async () => {
      // Storage out of reach (a bucket not there yet) does not stop the start: /readyz says it,
      // and the periodic sweep tries again.
      const removed = await storage.sweepTemp(STARTUP_TEMP_MIN_AGE_MS).catch((err: unknown) => {
        app.log.warn({ err }, 'Storage temp sweep failed');
        return 0;
      });
      if (removed > 0) app.log.info({ removed }, 'Removed orphaned report temp files');
      if (app.config.runJobs)
        app.jobs = await startJobs(app, {
          pollingIntervalSeconds: app.config.jobsPollSeconds,
        });
    });
    app.addHook('preClose', async () => {
      await app.jobs?.stop();
    });
    app.addHook('onClose', async () => {
      await pool.close();
      storage.close();
    });
  },
  { name: 'workspace' },
);
