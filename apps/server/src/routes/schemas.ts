import { savedSchemaInputSchema, savedSchemaUpdateSchema } from '@schemacheck/contracts';
import type { FastifyInstance } from 'fastify';
import { parseBody } from '../lib/validate.ts';
import { requireFeature } from '../plans.ts';
import { requireUser } from '../plugins/session.ts';
import {
  checkWebForm,
  createSchema,
  deleteSchema,
  findOwnSchema,
  listSchemas,
  MAX_SAVED_SCHEMAS,
  mergeUpdate,
  notFound,
  replaceSchema,
  toSaved,
} from '../schemas/store.ts';

// Saved schemas of the dashboard: list, create, update, delete; paid plans only. The schemas
// module (schemas/store.ts) checks each with the engine and stores it; others' ids are 404.

export { MAX_SAVED_SCHEMAS };

export default async function schemaRoutes(app: FastifyInstance) {
  const auth = { onRequest: requireUser, preHandler: requireFeature('savedSchemas') };

  app.get('/api/schemas', auth, async (request) =>
    (await listSchemas(app.db, request.auth!.user.id)).map(toSaved),
  );

  app.get<{ Params: { id: string } }>('/api/schemas/:id', auth, async (request) => {
    const row = await findOwnSchema(app.db, request.auth!.user.id, request.params.id);
    if (!row) throw notFound();
    return toSaved(row);
  });

  app.post('/api/schemas', auth, async (request, reply) => {
    const input = parseBody(savedSchemaInputSchema, request.body);
    const form = await checkWebForm(app.validationPool, input);
    const row = await createSchema(app.db, request.auth!.user.id, form, app.now());
    return reply.code(201).send(toSaved(row));
  });

  app.patch<{ Params: { id: string } }>('/api/schemas/:id', auth, async (request) => {
    const update = parseBody(savedSchemaUpdateSchema, request.body);
    const userId = request.auth!.user.id;
    const row = await findOwnSchema(app.db, userId, request.params.id);
    if (!row) throw notFound();
    // A schema saved through the API may name no file type (null): it stays so unless set here.
    const form = await checkWebForm(app.validationPool, mergeUpdate(row, update));
    const updated = await replaceSchema(app.db, userId, row.id, form, app.now());
    if (!updated) throw notFound();
    return toSaved(updated);
  });

  app.delete<{ Params: { id: string } }>('/api/schemas/:id', auth, async (request, reply) => {
    if (!(await deleteSchema(app.db, request.auth!.user.id, request.params.id))) throw notFound();
    return reply.code(204).send();
  });
}
