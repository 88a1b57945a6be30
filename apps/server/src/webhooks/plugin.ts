import fp from 'fastify-plugin';
import { addQueue } from '../jobs/boss.ts';
import {
  DELIVERY_SLOTS,
  nudgeInTransaction,
  recordEvent,
  runAttempt,
  sweepDeliveries,
  WEBHOOK_QUEUE,
  type WebhookDeps,
} from './deliveries.ts';
import { disableUserWebhooks } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** What webhook delivery runs on. */
    webhookDeps: WebhookDeps;
  }
}

/** How often a working process looks for webhook attempts nobody ran. */
const DELIVERY_SWEEP_MS = 30_000;

/**
 * Webhooks (docs/decisions/090-092, 185, 186): their delivery dependencies, the job events they turn
 * into deliveries, the delivery queue and its sweep, and account deletion. The jobs module does
 * not know this one: it emits job events (jobs/events.ts), subscribed to here. Register after the
 * jobs plugin; the routes are routes/webhooks.ts and api-v1/routes/webhooks.ts.
 */
export default fp(
  async (app) => {
    const deps: WebhookDeps = {
      db: app.db,
      config: app.config,
      now: app.now,
      log: app.log,
      jobQueue: app.jobQueue,
      mailer: app.mailer,
      appUrl: app.config.appUrl,
    };
    app.decorate('webhookDeps', deps);

    // The first attempts are written in the transaction that ends the job (the outbox).
    app.jobEvents.onEnded(async (tx, { userId, message, at }) => {
      const ids = await recordEvent(tx, userId, message, at);
      await nudgeInTransaction(deps, tx, ids);
    });

    addQueue<{ deliveryId: string }>(app, {
      // `short`: at most one waiting job per attempt row, however often the sweep re-sends.
      queue: { name: WEBHOOK_QUEUE, policy: 'short', retryLimit: 2, expireInSeconds: 120 },
      // Attempts mostly wait on the network; each account may hold ACCOUNT_CONCURRENCY of these
      // slots (deliveries.ts), so other accounts keep the rest.
      slots: DELIVERY_SLOTS,
      run: (data) => runAttempt(app.webhookDeps, data.deliveryId),
      sweep: {
        everyMs: DELIVERY_SWEEP_MS,
        run: () => sweepDeliveries(app.webhookDeps),
        failure: 'Webhook sweep failed',
      },
    });

    app.accountDeletionHooks.push((user) => disableUserWebhooks(app.db, user.id));
  },
  { name: 'webhooks', dependencies: ['async-jobs'] },
);
