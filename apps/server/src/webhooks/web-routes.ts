import { createWebhookSchema, PLANS } from '@schemacheck/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { parseBody } from '../lib/validate.ts';
import { requireUser } from '../plugins/session.ts';
import {
  createWebhook,
  deleteWebhook,
  enableWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  sendTestEvent,
} from './service.ts';

// The profile page's webhook calls (session and CSRF like every web call), over the same service
// and the same shapes as /v1/webhooks. Creating and testing need a plan with API access; a user
// who moved below Business can still see, switch off and delete what they have.

export const WEBHOOKS_PLAN_MESSAGE =
  'Webhooks are available on the Business and Enterprise plans. Upgrade in your profile.';

function requirePlan(request: FastifyRequest): void {
  if (!PLANS[request.auth!.user.subscriptionTier].limits.apiAccess) {
    throw new AppError('plan_required', { message: WEBHOOKS_PLAN_MESSAGE });
  }
}

type Id = { Params: { id: string } };

export default async function webhookWebRoutes(app: FastifyInstance) {
  const deps = app.webhookDeps;
  const user = (r: FastifyRequest) => r.auth!.user.id;

  app.get('/api/webhooks', { onRequest: requireUser }, async (request) => ({
    data: await listWebhooks(deps, user(request)),
  }));

  app.post('/api/webhooks', { onRequest: requireUser }, async (request, reply) => {
    requirePlan(request);
    const input = parseBody(createWebhookSchema, request.body);
    const created = await createWebhook(deps, user(request), input);
    request.log.info({ userId: user(request), webhookId: created.id }, 'Webhook created');
    return reply.code(201).header('cache-control', 'no-store').send(created);
  });

  app.delete<Id>('/api/webhooks/:id', { onRequest: requireUser }, async (request, reply) => {
    await deleteWebhook(deps, user(request), request.params.id);
    return reply.code(204).send();
  });

  app.post<Id>('/api/webhooks/:id/enable', { onRequest: requireUser }, async (request) => {
    requirePlan(request);
    return enableWebhook(deps, user(request), request.params.id);
  });

  app.post<Id>('/api/webhooks/:id/test', { onRequest: requireUser }, async (request, reply) => {
    requirePlan(request);
    return reply.code(202).send(await sendTestEvent(deps, user(request), request.params.id));
  });

  app.get<Id>('/api/webhooks/:id/deliveries', { onRequest: requireUser }, async (request) => ({
    data: await listDeliveries(deps, user(request), request.params.id),
  }));

  app.post<{ Params: { id: string; deliveryId: string } }>(
    '/api/webhooks/:id/deliveries/:deliveryId/redeliver',
    { onRequest: requireUser },
    async (request, reply) => {
      requirePlan(request);
      const d = await redeliver(deps, user(request), request.params.id, request.params.deliveryId);
      return reply.code(202).send(d);
    },
  );
}
