import {
  changeSubscriptionSchema,
  checkoutRequestSchema,
  previewRequestSchema,
} from '@schemacheck/contracts';
import type { FastifyInstance } from 'fastify';
import {
  cancelAtPeriodEnd,
  changePlan,
  checkoutResult,
  createCheckout,
  portalUrl,
  previewChange,
  resume,
  subscriptionStateWithPlan,
} from '../billing/service.ts';
import { handleEvent, readEvent } from '../billing/webhook.ts';
import { AppError } from '../errors.ts';
import { parseBody } from '../lib/validate.ts';
import { requireUser } from '../plugins/session.ts';

// Billing over HTTP (docs/decisions/070-074). Every route but the webhook needs a signed-in user
// and (for changes) a CSRF token; the browser only names a plan, Stripe decides what the user has.

const BODY_LIMIT = 4 * 1024;
const user = { onRequest: requireUser, bodyLimit: BODY_LIMIT };
const limited = (max: number) => ({ ...user, config: { rateLimit: { max, timeWindow: 60_000 } } });

export default async function billingRoutes(app: FastifyInstance) {
  app.get('/api/auth/subscription', user, async (request) =>
    subscriptionStateWithPlan(app, request.auth!.user),
  );

  app.post('/api/create-checkout-session', limited(20), async (request) => {
    const { tier } = parseBody(checkoutRequestSchema, request.body);
    return createCheckout(app, request.auth!.user, tier);
  });

  app.get('/api/stripe/session/:sessionId', limited(60), async (request) => {
    const { sessionId } = request.params as { sessionId: string };
    return checkoutResult(app, request.auth!.user, sessionId);
  });

  app.post('/api/auth/subscription/preview', limited(30), async (request) => {
    const { tier } = parseBody(previewRequestSchema, request.body);
    return previewChange(app, request.auth!.user, tier);
  });

  app.patch('/api/auth/subscription', limited(20), async (request) => {
    // Only the plan and the preview's signed quote are read: the proration time is the server's.
    const { tier, quote } = parseBody(changeSubscriptionSchema, request.body);
    const updated = await changePlan(app, request.auth!.user, tier, quote);
    return subscriptionStateWithPlan(app, updated);
  });

  app.post('/api/cancel-subscription', limited(20), async (request) => {
    const updated = await cancelAtPeriodEnd(app, request.auth!.user);
    return subscriptionStateWithPlan(app, updated);
  });

  app.post('/api/resume-subscription', limited(20), async (request) => {
    const updated = await resume(app, request.auth!.user);
    return subscriptionStateWithPlan(app, updated);
  });

  app.post('/api/billing-portal', limited(20), async (request) =>
    portalUrl(app, request.auth!.user),
  );

  await app.register(webhookRoute);
}

/**
 * POST /api/stripe/webhook. Its own plugin, so that the raw-bytes JSON parser applies to this
 * route only: Stripe signs the exact bytes it sent. Server to server: no session, no CSRF token
 * (the signature is the authentication); a wrong or stale signature is a 400 and changes nothing.
 */
async function webhookRoute(app: FastifyInstance) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/api/stripe/webhook',
    { config: { csrf: false }, bodyLimit: 1024 * 1024 },
    async (request) => {
      const signature = request.headers['stripe-signature'];
      const body = request.body;
      if (typeof signature !== 'string' || !Buffer.isBuffer(body)) {
        throw new AppError('invalid_signature');
      }
      let signed: unknown;
      try {
        signed = app.billing.stripe.webhooks.constructEvent(
          body,
          signature,
          app.billing.webhookSecret,
        );
      } catch {
        throw new AppError('invalid_signature');
      }
      // Signed is not the same as well-formed: a body we cannot read is the sender's fault (400,
      // not retried as a 500 would be) and worth a warning, since only Stripe holds the secret.
      const checked = readEvent(signed);
      if (!checked.ok) {
        request.log.warn(
          { problem: checked.problem, bytes: body.length },
          'Malformed Stripe event refused',
        );
        throw new AppError('invalid_event');
      }
      const event = checked.event;
      const outcome = await handleEvent(app, event);
      request.log.info({ eventId: event.id, type: event.type, outcome }, 'Stripe event');
      return { received: true };
    },
  );
}
