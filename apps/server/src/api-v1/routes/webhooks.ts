import {
  createWebhookSchema,
  deliveryListSchema,
  deliveryParamsSchema,
  deliverySchema,
  webhookCreatedSchema,
  webhookListSchema,
  webhookParamsSchema,
  webhookSchema,
} from '@schemacheck/contracts';
import {
  createWebhook,
  deleteWebhook,
  enableWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  sendTestEvent,
  TEST_EVENTS_PER_MINUTE,
} from '../../webhooks/service.ts';
import { nameComponent, type ApiV1 } from '../openapi.ts';

// /v1/webhooks (docs/decisions/090-092): endpoints told when a job ends, signed per Standard
// Webhooks, with every delivery attempt logged and a redeliver call.

nameComponent(webhookSchema, 'Webhook');
nameComponent(webhookCreatedSchema, 'WebhookCreated');
nameComponent(deliverySchema, 'WebhookDelivery');

const notFound = { 404: { description: 'No such webhook for this account (not_found).' } };

export default function webhookRoutes(v1: ApiV1) {
  const deps = v1.app.webhookDeps;

  v1.route(
    {
      method: 'POST',
      path: '/webhooks',
      operationId: 'createWebhook',
      tag: 'Webhooks',
      summary: 'Register a webhook',
      description:
        'Registers an https URL for job.completed and/or job.failed. The answer holds the signing secret (whsec_…) once: store it to verify deliveries. Private, loopback and link-local addresses are refused.',
      body: createWebhookSchema,
      responses: {
        201: { description: 'The webhook and its secret.', schema: webhookCreatedSchema },
      },
    },
    async ({ body, auth, reply }) => {
      const created = await createWebhook(deps, auth.userId, body);
      reply.code(201);
      return created;
    },
  );

  v1.route(
    {
      method: 'GET',
      path: '/webhooks',
      operationId: 'listWebhooks',
      tag: 'Webhooks',
      summary: 'List webhooks',
      responses: { 200: { description: 'Your webhooks.', schema: webhookListSchema } },
    },
    async ({ auth }) => ({ data: await listWebhooks(deps, auth.userId) }),
  );

  v1.route(
    {
      method: 'DELETE',
      path: '/webhooks/{webhook_id}',
      operationId: 'deleteWebhook',
      tag: 'Webhooks',
      summary: 'Delete a webhook',
      params: webhookParamsSchema,
      responses: { 204: { description: 'Deleted.' }, ...notFound },
    },
    async ({ params, auth, reply }) => {
      await deleteWebhook(deps, auth.userId, params.webhook_id);
      return reply.code(204).send();
    },
  );

  v1.route(
    {
      method: 'POST',
      path: '/webhooks/{webhook_id}/enable',
      operationId: 'enableWebhook',
      tag: 'Webhooks',
      summary: 'Enable a disabled webhook',
      params: webhookParamsSchema,
      responses: { 200: { description: 'The webhook.', schema: webhookSchema }, ...notFound },
    },
    async ({ params, auth }) => enableWebhook(deps, auth.userId, params.webhook_id),
  );

  v1.route(
    {
      method: 'POST',
      path: '/webhooks/{webhook_id}/test',
      operationId: 'testWebhook',
      tag: 'Webhooks',
      summary: 'Send a test event',
      description: `Queues a webhook.test event to the URL; its attempts appear in the deliveries. At most ${TEST_EVENTS_PER_MINUTE} test events a minute per webhook: past that, 429 \`rate_limited\` with Retry-After.`,
      params: webhookParamsSchema,
      responses: {
        202: { description: 'The queued attempt.', schema: deliverySchema },
        ...notFound,
      },
    },
    async ({ params, auth, reply }) => {
      const d = await sendTestEvent(deps, auth.userId, params.webhook_id);
      reply.code(202);
      return d;
    },
  );

  v1.route(
    {
      method: 'GET',
      path: '/webhooks/{webhook_id}/deliveries',
      operationId: 'listWebhookDeliveries',
      tag: 'Webhooks',
      summary: 'List delivery attempts',
      description:
        'The latest 100 attempts, newest first: time, status code, duration, error and the start of the response.',
      params: webhookParamsSchema,
      responses: { 200: { description: 'Attempts.', schema: deliveryListSchema }, ...notFound },
    },
    async ({ params, auth }) => ({
      data: await listDeliveries(deps, auth.userId, params.webhook_id),
    }),
  );

  v1.route(
    {
      method: 'POST',
      path: '/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver',
      operationId: 'redeliverWebhook',
      tag: 'Webhooks',
      summary: 'Redeliver a message',
      description:
        'Sends the message of this delivery again, with the same webhook-id so receivers can drop duplicates.',
      params: deliveryParamsSchema,
      responses: {
        202: { description: 'The queued attempt.', schema: deliverySchema },
        ...notFound,
      },
    },
    async ({ params, auth, reply }) => {
      const d = await redeliver(deps, auth.userId, params.webhook_id, params.delivery_id);
      reply.code(202);
      return d;
    },
  );
}
