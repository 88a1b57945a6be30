import { createWebhookSchema } from '@schemacheck/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseBody } from '../lib/validate.ts';
import { requireFeature } from '../plans.ts';
import { requireUser } from '../plugins/session.ts';
import {
  createWebhook,
  deleteWebhook,
  enableWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  sendTestEvent,
} from '../webhooks/service.ts';

// The profile page's webhook calls (session and CSRF like every web call), over the same service
// and the same shapes as /v1/webhooks. Creating and testing need a plan with API access; a user
// who moved below Business can still see, switch off and delete what they have.

/** Signed in, on a plan with webhooks (plans.ts words the refusal from the plan table). */
const withPlan = { onRequest: requireUser, preHandler: requireFeature('webhooks') };

type Id = { Params: { id: string } };

export default async function webhookWebRoutes(app: FastifyInstance) {
  const deps = app.webhookDeps;
  const user = (r: FastifyRequest) => r.auth!.user.id;

  app.get('/api/webhooks', { onRequest: requireUser }, async (request) => ({
    data: await listWebhooks(deps, user(request)),
  }));

  app.post('/api/webhooks', withPlan, async (request, reply) => {
    const input = parseBody(createWebhookSchema, request.body);
    const created = await createWebhook(deps, user(request), input);
    request.log.info({ userId: user(request), webhookId: created.id }, 'Webhook created');
    return reply.code(201).header('cache-control', 'no-store').send(created);
  });

  app.delete<Id>('/api/webhooks/:id', { onRequest: requireUser }, async (request, reply) => {
    await deleteWebhook(deps, user(request), request.params.id);
    return reply.code(204).send();
  });

  app.post<Id>('/api/webhooks/:id/enable', withPlan, async (request) =>
    enableWebhook(deps, user(request), request.params.id),
  );

  app.post<Id>('/api/webhooks/:id/test', withPlan, async (request, reply) =>
    reply.code(202).send(await sendTestEvent(deps, user(request), request.params.id)),
  );

  app.get<Id>('/api/webhooks/:id/deliveries', { onRequest: requireUser }, async (request) => ({
    data: await listDeliveries(deps, user(request), request.params.id),
  }));

  app.post<{ Params: { id: string; deliveryId: string } }>(
    '/api/webhooks/:id/deliveries/:deliveryId/redeliver',
    withPlan,
    async (request, reply) => {
      const d = await redeliver(deps, user(request), request.params.id, request.params.deliveryId);
      return reply.code(202).send(d);
    },
  );
}
