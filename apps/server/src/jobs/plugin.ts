import fp from 'fastify-plugin';
import { webhooks } from '../db/schema.ts';
import { eq } from 'drizzle-orm';
import type { WebhookDeps } from '../webhooks/deliveries.ts';
import { startSender } from './boss.ts';
import { JobQueue } from './queue.ts';
import jobWebRoutes from './web-routes.ts';
import webhookWebRoutes from '../webhooks/web-routes.ts';
import { abortRunningJobs, deleteUserUploads } from './validation-jobs.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends pg-boss jobs from this process, working or not (jobs/queue.ts). */
    jobQueue: JobQueue;
    /** What webhook delivery runs on. */
    webhookDeps: WebhookDeps;
  }
}

/**
 * Asynchronous jobs and webhooks (docs/decisions/092, 093): the queue to send through, the
 * webhook delivery dependencies, and clean-ups (a stopping process hands its running jobs back;
 * a deleted account takes its uploads along). Register after the workspace plugin.
 */
export default fp(
  async (app) => {
    const queue = new JobQueue(
      () => app.jobs?.boss ?? null,
      () => startSender(app),
    );
    app.decorate('jobQueue', queue);
    app.decorate('webhookDeps', {
      db: app.db,
      config: app.config,
      now: app.now,
      log: app.log,
      jobQueue: queue,
      mailer: app.mailer,
      appUrl: app.config.appUrl,
    });
    app.accountDeletionHooks.push(async (user) => {
      await deleteUserUploads(app, user.id);
      // No attempt may go out for a deleted account, even one already claimed.
      await app.db.update(webhooks).set({ isActive: false }).where(eq(webhooks.userId, user.id));
    });
    await app.register(jobWebRoutes);
    await app.register(webhookWebRoutes);
    app.addHook('preClose', async () => {
      abortRunningJobs(app);
    });
    app.addHook('onClose', async () => {
      await queue.close();
    });
  },
  { name: 'async-jobs', dependencies: ['workspace'] },
);
