import { createApiKeyInputSchema } from '@schemacheck/contracts';
import type { FastifyInstance } from 'fastify';
import { createApiKey, listApiKeys, revokeApiKey } from '../api-keys/store.ts';
import { AppError } from '../errors.ts';
import { parseBody } from '../lib/validate.ts';
import { requireFeature } from '../plans.ts';
import { requireUser } from '../plugins/session.ts';
import { isUuid } from '../lib/uuid.ts';

// The web app's API key calls (session and CSRF like every web call): list, create (the whole
// key in this response only), revoke; the keys module (api-keys/store.ts) does the work. Creating
// needs a plan with API access; listing and revoking stay open to a user who moved below
// Business, so they can still see and revoke their keys.

export default async function apiKeyRoutes(app: FastifyInstance) {
  app.get('/api/api-keys', { onRequest: requireUser }, async (request) =>
    listApiKeys(app.db, request.auth!.user.id),
  );

  app.post(
    '/api/api-keys',
    { onRequest: requireUser, preHandler: requireFeature('apiKeys') },
    async (request, reply) => {
      const input = parseBody(createApiKeyInputSchema, request.body);
      const created = await createApiKey(
        app.db,
        request.auth!.user.id,
        input.name,
        app.now(),
        input.mode ?? 'live',
      );
      request.log.info(
        { userId: request.auth!.user.id, apiKeyId: created.id, mode: created.mode },
        'API key created',
      );
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/api-keys/:id',
    { onRequest: requireUser },
    async (request) => {
      const userId = request.auth!.user.id;
      const revoked = isUuid(request.params.id)
        ? await revokeApiKey(app.db, userId, request.params.id, app.now())
        : null;
      if (!revoked) throw new AppError('not_found', { message: 'No such API key' });
      request.log.info({ userId, apiKeyId: revoked.id }, 'API key revoked');
      return revoked;
    },
  );
}
