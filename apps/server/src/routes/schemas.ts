import {
  MAX_SAVED_SCHEMAS,
  savedSchemaInputSchema,
  savedSchemaUpdateSchema,
  type SavedSchema,
  type SavedSchemaInput,
} from '@schemacheck/contracts';
import { and, count, desc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { schemas } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { parseBody } from '../lib/validate.ts';
import { requireUser } from '../plugins/session.ts';
import { limitsOf } from '../validation/limits.ts';
import { isUuid } from '../validation/results.ts';

// Saved schemas: list, create, update, delete; paid plans only; each checked by the
// engine in a worker (every problem by path) before it is stored. Others' ids are 404.

export { MAX_SAVED_SCHEMAS };
export const SAVED_SCHEMAS_PLAN_MESSAGE =
  'Saving and loading schemas is available on the Pro plan and above.';

type Row = typeof schemas.$inferSelect;
/** A stored schema with an update applied; its file type may be null (see SavedSchema). */
type Merged = Omit<SavedSchemaInput, 'fileType'> & { fileType: SavedSchema['fileType'] };
type Flags = Pick<SavedSchemaInput, 'orderMatters' | 'additionalColumns' | 'additionalProperties'>;

function toSaved(row: Row): SavedSchema {
  const flags = row.options as Flags;
  return {
    id: row.id,
    name: row.name,
    fileType: row.fileType,
    fields: row.fields as SavedSchemaInput['fields'],
    ...flags,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function flagsOf(input: Flags): Flags {
  const flags: Flags = {};
  if (input.orderMatters !== undefined) flags.orderMatters = input.orderMatters;
  if (input.additionalColumns !== undefined) flags.additionalColumns = input.additionalColumns;
  if (input.additionalProperties !== undefined) {
    flags.additionalProperties = input.additionalProperties;
  }
  return flags;
}

function requirePlan(request: FastifyRequest): void {
  if (!limitsOf(request.auth!.user.subscriptionTier).savedSchemas) {
    throw new AppError('plan_required', { message: SAVED_SCHEMAS_PLAN_MESSAGE });
  }
}

export default async function schemaRoutes(app: FastifyInstance) {
  /** The engine's verdict on the web form, from a worker thread. */
  async function check(input: SavedSchemaInput | Merged): Promise<void> {
    const verdict = await app.validationPool.check(JSON.stringify(input));
    if (!verdict.ok) {
      const first = verdict.problems[0];
      throw new AppError('invalid_schema', {
        message: first
          ? `The schema has problems: ${first.path ? `${first.path}: ` : ''}${first.message}`
          : 'The schema has problems',
        extra: { problems: verdict.problems },
      });
    }
  }

  async function own(request: FastifyRequest<{ Params: { id: string } }>): Promise<Row> {
    const id = request.params.id;
    const userId = request.auth!.user.id;
    if (isUuid(id)) {
      const [row] = await app.db
        .select()
        .from(schemas)
        .where(and(eq(schemas.id, id), eq(schemas.userId, userId)));
      if (row) return row;
    }
    throw new AppError('not_found', { message: 'No such schema' });
  }

  const auth = { onRequest: requireUser, preHandler: async (r: FastifyRequest) => requirePlan(r) };

  app.get('/api/schemas', auth, async (request) => {
    const rows = await app.db
      .select()
      .from(schemas)
      .where(eq(schemas.userId, request.auth!.user.id))
      .orderBy(desc(schemas.createdAt), desc(schemas.id));
    return rows.map(toSaved);
  });

  app.get<{ Params: { id: string } }>('/api/schemas/:id', auth, async (request) =>
    toSaved(await own(request)),
  );

  app.post('/api/schemas', auth, async (request, reply) => {
    const input = parseBody(savedSchemaInputSchema, request.body);
    await check(input);
    const userId = request.auth!.user.id;
    const [{ n }] = (await app.db
      .select({ n: count() })
      .from(schemas)
      .where(eq(schemas.userId, userId))) as [{ n: number }];
    if (n >= MAX_SAVED_SCHEMAS) {
      throw new AppError('schema_limit', {
        message: `You can save up to ${MAX_SAVED_SCHEMAS} schemas. Delete one to save another.`,
      });
    }
    const now = app.now();
    const [row] = await app.db
      .insert(schemas)
      .values({
        userId,
        name: input.name,
        fileType: input.fileType,
        fields: input.fields,
        options: flagsOf(input),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return reply.code(201).send(toSaved(row!));
  });

  app.patch<{ Params: { id: string } }>('/api/schemas/:id', auth, async (request) => {
    const update = parseBody(savedSchemaUpdateSchema, request.body);
    const row = await own(request);
    const current = toSaved(row);
    // A schema saved through the API may name no file type (null): it stays so unless set here.
    const merged: Merged = {
      name: update.name ?? current.name,
      fileType: update.fileType ?? current.fileType,
      fields: update.fields ?? current.fields,
      ...flagsOf(current),
      ...flagsOf(update),
    };
    await check(merged);
    const [updated] = await app.db
      .update(schemas)
      .set({
        name: merged.name,
        fileType: merged.fileType,
        fields: merged.fields,
        options: flagsOf(merged),
        updatedAt: app.now(),
      })
      .where(and(eq(schemas.id, row.id), eq(schemas.userId, row.userId!)))
      .returning();
    if (!updated) throw new AppError('not_found', { message: 'No such schema' });
    return toSaved(updated);
  });

  app.delete<{ Params: { id: string } }>('/api/schemas/:id', auth, async (request, reply) => {
    const row = await own(request);
    await app.db
      .delete(schemas)
      .where(and(eq(schemas.id, row.id), eq(schemas.userId, row.userId!)));
    return reply.code(204).send();
  });
}
