import {
  listQuerySchema,
  schemaBodySchema,
  schemaCreatedSchema,
  schemaIdParamsSchema,
  schemaListSchema,
  schemaReplacedSchema,
  schemaSchema,
} from '@schemacheck/contracts';
import { jsonTextOf } from '../../lib/json-body.ts';
import { listWarningsOnSave } from '../../lists/store.ts';
import {
  createSchema,
  deleteSchema,
  findOwnSchema,
  listSchemaPage,
  normalise,
  notFound,
  replaceSchema,
  toV1,
} from '../../schemas/store.ts';
import type { ApiV1 } from '../openapi.ts';

// /v1/schemas: create, list (by page or cursor, lib/pagination.ts), read, replace, delete; the
// schemas module (schemas/store.ts) checks and stores them.

const problems = {
  description:
    'The engine refused the schema (invalid_schema, with every problem by path), or a parameter is not valid.',
};

export default function schemaRoutes(v1: ApiV1) {
  const { app } = v1;

  v1.route(
    {
      method: 'POST',
      path: '/schemas',
      operationId: 'createSchema',
      tag: 'Schemas',
      summary: 'Create a schema',
      description:
        'Checks the schema with the engine and stores it. The API form is `{name, type, rules: {columns, orderMatters, additionalColumns, additionalProperties}}`; JSON Schema and Table Schema documents are accepted too.',
      body: schemaBodySchema,
      responses: {
        201: { description: 'The schema was stored.', schema: schemaCreatedSchema },
        400: problems,
        409: { description: 'The account has the maximum number of schemas (schema_limit).' },
      },
    },
    async ({ body, auth, reply, request }) => {
      const text = jsonTextOf(request) ?? JSON.stringify(body);
      const form = await normalise(app.validationPool, text);
      const row = await createSchema(app.db, auth.userId, form, app.now());
      const lists = await listWarningsOnSave(app.db, auth.userId, text);
      reply.code(201);
      return {
        schema_id: row.id,
        name: row.name,
        type: row.fileType,
        created_at: row.createdAt.toISOString(),
        warnings: [...form.warnings, ...lists],
      };
    },
  );

  v1.route(
    {
      method: 'GET',
      path: '/schemas',
      operationId: 'listSchemas',
      tag: 'Schemas',
      summary: 'List schemas',
      description:
        'Newest first (created_at, then schema_id, descending), 20 by default and 100 at most. Choose a page by number (`page`) or by cursor: `starting_after` the schema_id of the last item you have, which never repeats or skips an item when schemas are created meanwhile.',
      query: listQuerySchema,
      responses: { 200: { description: 'A page of schemas.', schema: schemaListSchema } },
    },
    async ({ query, auth }) => {
      const { rows, ...page } = await listSchemaPage(app.db, auth.userId, query);
      return { data: rows.map(toV1), ...page };
    },
  );

  v1.route(
    {
      method: 'GET',
      path: '/schemas/{schema_id}',
      operationId: 'getSchema',
      tag: 'Schemas',
      summary: 'Get a schema',
      params: schemaIdParamsSchema,
      responses: {
        200: { description: 'The schema.', schema: schemaSchema },
        404: { description: 'No such schema for this account (not_found).' },
      },
    },
    async ({ params, auth }) => {
      const row = await findOwnSchema(app.db, auth.userId, params.schema_id);
      if (!row) throw notFound();
      return toV1(row);
    },
  );

  v1.route(
    {
      method: 'PUT',
      path: '/schemas/{schema_id}',
      operationId: 'replaceSchema',
      tag: 'Schemas',
      summary: 'Replace a schema',
      description: 'The whole schema, in any form POST /schemas accepts; checked the same way.',
      params: schemaIdParamsSchema,
      body: schemaBodySchema,
      responses: {
        200: { description: 'The schema as stored now.', schema: schemaReplacedSchema },
        400: problems,
        404: { description: 'No such schema for this account (not_found).' },
      },
    },
    async ({ params, body, auth, request }) => {
      if (!(await findOwnSchema(app.db, auth.userId, params.schema_id))) throw notFound();
      const text = jsonTextOf(request) ?? JSON.stringify(body);
      const form = await normalise(app.validationPool, text);
      const row = await replaceSchema(app.db, auth.userId, params.schema_id, form, app.now());
      if (!row) throw notFound();
      const lists = await listWarningsOnSave(app.db, auth.userId, text);
      return { ...toV1(row), warnings: [...form.warnings, ...lists] };
    },
  );

  v1.route(
    {
      method: 'DELETE',
      path: '/schemas/{schema_id}',
      operationId: 'deleteSchema',
      tag: 'Schemas',
      summary: 'Delete a schema',
      description: 'Results validated with it keep their copy of the schema.',
      params: schemaIdParamsSchema,
      responses: {
        204: { description: 'Deleted.' },
        404: { description: 'No such schema for this account (not_found).' },
      },
    },
    async ({ params, auth, reply }) => {
      if (!(await deleteSchema(app.db, auth.userId, params.schema_id))) throw notFound();
      return reply.code(204).send();
    },
  );
}
