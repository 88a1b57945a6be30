import {
  listCreateSchema,
  listListSchema,
  listParamsSchema,
  listQuerySchema,
  listRenameSchema,
  listReplaceSchema,
  listSchema,
  listSummarySchema,
  listUploadFormSchema,
} from '@schemacheck/contracts';
import {
  createList,
  deleteList,
  getList,
  listLimits,
  listPageOf,
  renameList,
  replaceList,
} from '../../lists/store.ts';
import { readListUpload } from '../../lists/upload.ts';
import type { ApiV1 } from '../openapi.ts';

// /v1/lists: reference lists for `inList` rules (docs/decisions/200). HTTP only: the lists
// module stores them and checks the plan's limits.

const tooLarge = {
  description: "More values than the plan allows a list (list_too_large, with the plan's limit).",
};
const notFound = { description: 'No such list for this account (not_found).' };

export default function listRoutes(v1: ApiV1) {
  const { app } = v1;

  v1.route(
    {
      method: 'GET',
      path: '/lists',
      operationId: 'listLists',
      tag: 'Lists',
      summary: 'List reference lists',
      description:
        "The account's reference lists without their values, newest first, with the plan's limits. Paged like every list (`page` or `starting_after` a list_id).",
      query: listQuerySchema,
      responses: { 200: { description: 'A page of lists.', schema: listListSchema } },
    },
    async ({ query, auth }) => ({
      ...(await listPageOf(app.db, auth.userId, auth.tier, query)),
      limits: listLimits(auth.tier),
    }),
  );

  v1.route(
    {
      method: 'POST',
      path: '/lists',
      operationId: 'createList',
      tag: 'Lists',
      summary: 'Create a reference list',
      description:
        'A list a schema field names in `"validation": {"inList": "<name>"}`: each value of the field must be one of its values, and a near miss gets a `suggestion`. Values are compared as written. For lists over the 1 MB body limit, upload a file to /lists/upload.',
      body: listCreateSchema,
      responses: {
        201: { description: 'The list was stored.', schema: listSummarySchema },
        409: {
          description: 'A list of that name exists (list_exists), or too many lists (list_limit).',
        },
        413: tooLarge,
      },
    },
    async ({ body, auth, reply }) => {
      const existsHint = `Replace its values with PUT /v1/lists/${body.name}.`;
      const input = { ...body, existsHint };
      const { list } = await createList(app.db, auth.userId, auth.tier, input, app.now());
      reply.code(201);
      return list;
    },
  );

  v1.route(
    {
      method: 'POST',
      path: '/lists/upload',
      operationId: 'uploadList',
      tag: 'Lists',
      summary: 'Create a reference list from a file',
      description:
        "A .txt file (one value a line) or a column of a .csv file (`column`: its header name or 1-based position; the first column by default). Empty lines and cells are skipped, duplicates kept once; a file with no values, a value over 1,000 characters or a NUL character is refused (invalid_upload). With `replace=true` a list of the same name has its values replaced (200); `replace` is `true` or `false`, anything else is refused (validation, 400). The values are counted as the file arrives: the upload stops with 413 as soon as they pass the plan's limit.",
      multipart: listUploadFormSchema,
      responses: {
        200: { description: 'The list of that name was replaced.', schema: listSummarySchema },
        201: { description: 'The list was stored.', schema: listSummarySchema },
        409: {
          description: 'A list of that name exists (list_exists), or too many lists (list_limit).',
        },
        413: tooLarge,
      },
    },
    async ({ request, auth, reply }) => {
      const upload = await readListUpload(request, auth.tier);
      const input = { ...upload, existsHint: 'Send replace=true to replace its values.' };
      const { list, created } = await createList(app.db, auth.userId, auth.tier, input, app.now());
      reply.code(created ? 201 : 200);
      return list;
    },
  );

  v1.route(
    {
      method: 'GET',
      path: '/lists/{list}',
      operationId: 'getList',
      tag: 'Lists',
      summary: 'Get a reference list',
      description: 'The list with all its values.',
      params: listParamsSchema,
      responses: { 200: { description: 'The list.', schema: listSchema }, 404: notFound },
    },
    async ({ params, auth }) => getList(app.db, auth.userId, auth.tier, params.list),
  );

  v1.route(
    {
      method: 'PUT',
      path: '/lists/{list}',
      operationId: 'replaceList',
      tag: 'Lists',
      summary: 'Replace a reference list',
      description:
        'Its values (all of them), and its name when `name` is given. Schemas name lists by name: renaming one leaves their `inList` naming the old name.',
      params: listParamsSchema,
      body: listReplaceSchema,
      responses: {
        200: { description: 'The list as stored now.', schema: listSummarySchema },
        404: notFound,
        409: { description: 'Another list has the new name (list_exists).' },
        413: tooLarge,
      },
    },
    async ({ params, body, auth }) =>
      replaceList(app.db, auth.userId, auth.tier, params.list, body, app.now()),
  );

  v1.route(
    {
      method: 'PATCH',
      path: '/lists/{list}',
      operationId: 'renameList',
      tag: 'Lists',
      summary: 'Rename a reference list',
      description:
        'A new name; the values are kept (a list too long to send again in a PUT can be renamed). Schemas name lists by name: renaming one leaves their `inList` naming the old name.',
      params: listParamsSchema,
      body: listRenameSchema,
      responses: {
        200: { description: 'The list as stored now.', schema: listSummarySchema },
        404: notFound,
        409: { description: 'Another list has the new name (list_exists).' },
      },
    },
    async ({ params, body, auth }) =>
      renameList(app.db, auth.userId, auth.tier, params.list, body.name, app.now()),
  );

  v1.route(
    {
      method: 'DELETE',
      path: '/lists/{list}',
      operationId: 'deleteList',
      tag: 'Lists',
      summary: 'Delete a reference list',
      description:
        'Schemas that name it are not changed: their `inList` is then reported as a `schema` warning (not checked) until a list of that name exists again.',
      params: listParamsSchema,
      responses: { 204: { description: 'Deleted.' }, 404: notFound },
    },
    async ({ params, auth, reply }) => {
      await deleteList(app.db, auth.userId, params.list);
      return reply.code(204).send();
    },
  );
}
