import {
  savedSchemaInputSchema,
  savedSchemaUpdateSchema,
  type SavedSchemaResponse,
} from '@schemacheck/contracts';
import type { FastifyInstance } from 'fastify';
import { parseBody } from '../lib/validate.ts';
import { listWarningsOnSave } from '../lists/store.ts';
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
// module (schemas/store.ts) checks each with the engine and stores it; others' ids are 404. A save
// warns about the lists validations will not check (lists/store.ts listWarningsOnSave).

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
    const userId = request.auth!.user.id;
    const form = await checkWebForm(app.validationPool, input);
    const row = await createSchema(app.db, userId, form, app.now());
    const warnings = await listWarningsOnSave(app.db, userId, JSON.stringify(input));
    const saved: SavedSchemaResponse = { ...toSaved(row), warnings };
    return reply.code(201).send(saved);
  });

  app.patch<{ Params: { id: string } }>(
    '/api/schemas/:id',
    auth,
    async (request): Promise<SavedSchemaResponse> => {
      const update = parseBody(savedSchemaUpdateSchema, request.body);
      const userId = request.auth!.user.id;
      const row = await findOwnSchema(app.db, userId, request.params.id);
      if (!row) throw notFound();
      // A schema saved through the API may name no file type (null): it stays so unless set here.
      const merged = mergeUpdate(row, update);
      const form = await checkWebForm(app.validationPool, merged);
      const updated = await replaceSchema(app.db, userId, row.id, form, app.now());
      if (!updated) throw notFound();
      const warnings = await listWarningsOnSave(app.db, userId, JSON.stringify(merged));
      return { ...toSaved(updated), warnings };
    },
  );

  app.delete<{ Params: { id: string } }>('/api/schemas/:id', auth, async (request, reply) => {
    if (!(await deleteSchema(app.db, request.auth!.user.id, request.params.id))) throw notFound();
    return reply.code(204).send();
  });
}
