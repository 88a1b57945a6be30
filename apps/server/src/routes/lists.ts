import multipart from '@fastify/multipart';
import { listCreateSchema, listRenameSchema, type ListsResponse } from '@schemacheck/contracts';
import type { FastifyInstance } from 'fastify';
import { allLists, createList, deleteList, listLimits, renameList } from '../lists/store.ts';
import { readListUpload } from '../lists/upload.ts';
import { parseBody } from '../lib/validate.ts';
import { requireUser } from '../plugins/session.ts';

// The Profile page's reference lists (docs/decisions/200): the same store and limits as
// /v1/lists, for the signed-in user. GET answers the lists with the plan's limits; PATCH renames.

export default async function listWebRoutes(app: FastifyInstance) {
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { files: 1, fields: 5, parts: 6, fieldNameSize: 100, fieldSize: 1000, headerPairs: 20 },
  });
  const auth = { onRequest: requireUser };

  app.get('/api/lists', auth, async (request): Promise<ListsResponse> => {
    const user = request.auth!.user;
    return {
      lists: await allLists(app.db, user.id, user.subscriptionTier),
      limits: listLimits(user.subscriptionTier),
    };
  });

  app.post('/api/lists', auth, async (request, reply) => {
    const user = request.auth!.user;
    const input = request.isMultipart()
      ? await readListUpload(request, user.subscriptionTier)
      : parseBody(listCreateSchema, request.body);
    const { list, created } = await createList(
      app.db,
      user.id,
      user.subscriptionTier,
      { ...input, existsHint: 'Choose another name, or delete that list first.' },
      app.now(),
    );
    return reply.code(created ? 201 : 200).send(list);
  });

  app.patch<{ Params: { list: string } }>('/api/lists/:list', auth, async (request) => {
    const { name } = parseBody(listRenameSchema, request.body);
    const user = request.auth!.user;
    return renameList(app.db, user.id, user.subscriptionTier, request.params.list, name, app.now());
  });

  app.delete<{ Params: { list: string } }>('/api/lists/:list', auth, async (request, reply) => {
    await deleteList(app.db, request.auth!.user.id, request.params.list);
    return reply.code(204).send();
  });
}
