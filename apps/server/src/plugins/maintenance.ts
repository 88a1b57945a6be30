import { lt } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { sweepSessions } from '../auth/sessions.ts';
import { sweepBuckets } from '../auth/throttle.ts';
import { users } from '../db/schema.ts';

const EVERY_MS = 60 * 60 * 1000;

/**
 * Deletes what has expired: sessions, rate-limit buckets, reset tokens. Runs once after start and
 * then hourly in each process (idempotent, so several servers may all run it).
 */
export default fp(
  async (app) => {
    let timer: NodeJS.Timeout | undefined;
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
    });
    app.addHook('preClose', async () => clearInterval(timer));
  },
  { name: 'maintenance' },
);
