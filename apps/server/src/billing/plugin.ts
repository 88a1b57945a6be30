import { testModePages } from '@schemacheck/stripe-test-mode';
import fp from 'fastify-plugin';
import { liveBilling, startTestBilling, type Billing } from './gateway.ts';
import { deleteCustomer } from './service.ts';
import { expireGracePeriods } from './sync.ts';
import { testModeStore } from './test-mode-store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Stripe, live or the built-in test mode (docs/decisions/070). */
    billing: Billing;
  }
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Billing: the Stripe client (live with STRIPE_SECRET_KEY, otherwise test mode with its
 * in-process Stripe-protocol server and hosted pages), account deletion deleting the Stripe
 * customer first, and the hourly end of Business grace periods.
 */
export default fp(
  async (app) => {
    const billing = app.config.stripe
      ? await liveBilling(app.config.stripe)
      : await startTestBilling({
          pagesUrl: app.config.appUrl,
          now: () => app.now(),
          store: testModeStore(app.db),
          log: app.log,
        });
    app.decorate('billing', billing);

    // First of the deletion hooks: if Stripe refuses, nothing else of the account is touched.
    app.accountDeletionHooks.unshift((user) => deleteCustomer(app, user));

    const testMode = billing.testMode;
    if (testMode) {
      await app.register(testModePages(testMode));
      // Events go to the webhook over HTTP once the app listens (app.inject otherwise: tests
      // that never listen), signed like Stripe's.
      testMode.setDeliver(async (payload, signature) => {
        const headers = {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signature,
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        };
        const address = app.server.listening ? app.server.address() : null;
        if (address && typeof address === 'object') {
          const host =
            address.address === '0.0.0.0' || address.address === '::'
              ? '127.0.0.1'
              : address.family === 'IPv6'
                ? `[${address.address}]`
                : address.address;
          const res = await fetch(`http://${host}:${address.port}/api/stripe/webhook`, {
            method: 'POST',
            headers,
            body: payload,
            signal: AbortSignal.timeout(30_000),
          });
          await res.arrayBuffer();
          return { status: res.status };
        }
        const res = await app.inject({
          method: 'POST',
          url: '/api/stripe/webhook',
          headers,
          payload,
        });
        return { status: res.statusCode };
      });
      app.log.info(
        { stripePort: testMode.port },
        'Billing runs in test mode (no STRIPE_SECRET_KEY): payments use Stripe test cards, nothing is charged',
      );
      app.addHook('onClose', async () => testMode.close());
    }

    let timer: NodeJS.Timeout | undefined;
    const sweep = async () => {
      const changed = await expireGracePeriods(app.db, app.now());
      if (changed > 0) app.log.info({ changed }, 'Business grace periods ended');
    };
    app.addHook('onReady', async () => {
      app.tasks.run('billing-grace', sweep);
      timer = setInterval(() => app.tasks.run('billing-grace', sweep), HOUR_MS);
      timer.unref();
    });
    app.addHook('preClose', async () => clearInterval(timer));
  },
  { name: 'billing', dependencies: ['errors', 'session'] },
);
