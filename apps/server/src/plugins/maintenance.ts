import path from 'node:path';
import { lt } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { sweepSessions } from '../auth/sessions.ts';
import { sweepBuckets } from '../auth/throttle.ts';
import { users } from '../db/schema.ts';
import { sweepStorage, SWEEP_EVERY_MS } from '../storage/sweep.ts';

const EVERY_MS = 60 * 60 * 1000;

/**
 * Deletes what has expired: sessions, rate-limit buckets, reset tokens. Runs once after start and
 * then hourly in each process (idempotent, so several servers may all run it). Every 15 minutes
 * the storage sweep removes temp files, reports without a row and folders of deleted users
 * (storage/sweep.ts, docs/decisions/064).
 */
export default fp(
  async (app) => {
    let timer: NodeJS.Timeout | undefined;
    let storageTimer: NodeJS.Timeout | undefined;
    const sweepFiles = async () => {
      // Spooled uploads (validation/service.ts) live under DATA_DIR/tmp (decision 208).
      const spool = path.join(app.config.dataDir, 'tmp');
      await sweepStorage(app.db, app.storage, app.now(), app.log, spool);
    };
    const sweep = async () => {
      const now = app.now();
      await sweepSessions(app.db, now);
      await sweepBuckets(app.db, now);
      await app.db
        .update(users)
        .set({ resetTokenHash: null, resetTokenExpiresAt: null })
        .where(lt(users.resetTokenExpiresAt, now));
    };
    app.addHook('onReady', async () => {
      app.tasks.run('sweep', sweep);
      timer = setInterval(() => app.tasks.run('sweep', sweep), EVERY_MS);
      timer.unref();
      app.tasks.run('storage-sweep', sweepFiles);
      storageTimer = setInterval(() => app.tasks.run('storage-sweep', sweepFiles), SWEEP_EVERY_MS);
      storageTimer.unref();
    });
    app.addHook('preClose', async () => {
      clearInterval(timer);
      clearInterval(storageTimer);
    });
  },
  { name: 'maintenance' },
);
