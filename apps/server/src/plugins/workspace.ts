import path from 'node:path';
import fp from 'fastify-plugin';
import { startJobs } from '../jobs/boss.ts';
import { LocalStorage, userPrefix } from '../storage/index.ts';
import { RunningValidations } from '../validation/limits.ts';
import { ValidationPool } from '../validation/pool.ts';
import { deleteUserReports } from '../validation/results.ts';

/** Temp files younger than this may belong to a write in progress (another process). */
const ORPHAN_AGE_MS = 60 * 60 * 1000;

/**
 * What the validation workspace runs on: report storage (DATA_DIR/reports), the worker pool,
 * the per-user running guard, and pg-boss for the retention job. Orphaned temp files are swept
 * when the app is ready; account deletion removes the user's report files.
 */
export default fp(
  async (app) => {
    const storage = new LocalStorage(path.join(app.config.dataDir, 'reports'));
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
      const removed = await storage.sweepTemp(ORPHAN_AGE_MS);
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
    });
  },
  { name: 'workspace' },
);
