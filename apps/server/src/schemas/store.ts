import {
  MAX_SAVED_SCHEMAS,
  type ListQueryV1,
  type SavedSchema,
  type SavedSchemaInput,
  type SchemaV1,
} from '@schemacheck/contracts';
import { detectSchemaFormat, parseSchema, parseSchemaText, toWebSchema } from '@schemacheck/engine';
import { and, count, desc, eq } from 'drizzle-orm';
import { listPage, type ListPage } from '../lib/pagination.ts';
import type { Db } from '../db/client.ts';
import { schemas } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import type { ValidationPool } from '../validation/pool.ts';
import { isUuid } from '../lib/uuid.ts';
import { invalidSchema, type ParsedSchema } from '../validation/service.ts';
import type { FileType } from '@schemacheck/engine';

// Saved schemas: the one module that stores them (docs/decisions/180). The web routes
// (routes/schemas.ts), the /v1 routes (api-v1/routes/schemas.ts) and the jobs (a saved schema as
// the validation service takes it, parsedFromRow) call it; none of them queries the table.
// Every schema is checked by the engine in a worker (every problem by path) before it is stored,
// and stored in the web form, so a schema made through the API shows up in the dashboard and the
// reverse (docs/decisions/085). Reads are owner-only: another user's id is "not found", like an
// unknown one.

export { MAX_SAVED_SCHEMAS };

export type SchemaRow = typeof schemas.$inferSelect;
/** Schema-level settings, kept in the `options` column: the flags and the cross-field rules. */
type Flags = Pick<
  SavedSchemaInput,
  'orderMatters' | 'additionalColumns' | 'additionalProperties' | 'rules'
>;

/** A schema as the table stores it. */
export interface StoredForm {
  name: string;
  /** Null: the schema names no type and its form implies none, so each file decides. */
  fileType: FileType | null;
  fields: unknown[];
  flags: Flags;
}

/** A /v1 schema in the stored form, with what the engine warned about the sent document. */
export interface NormalisedSchema extends StoredForm {
  /** Rules the stored form does not keep. */
  warnings: { code: 'schema'; message: string }[];
}

/** A web-form schema (a stored one with an update applied may have no file type). */
export type WebFormSchema = Omit<SavedSchemaInput, 'fileType'> & {
  fileType: SavedSchema['fileType'];
};

export const notFound = () => new AppError('not_found', { message: 'No such schema' });

function flagsOf(input: Flags): Flags {
  const flags: Flags = {};
  if (input.orderMatters !== undefined) flags.orderMatters = input.orderMatters;
  if (input.additionalColumns !== undefined) flags.additionalColumns = input.additionalColumns;
  if (input.additionalProperties !== undefined) {
    flags.additionalProperties = input.additionalProperties;
  }
  // Cross-field rules (docs/decisions/201); [] clears them on an update.
  if (input.rules !== undefined) flags.rules = input.rules;
  return flags;
}

// ---- The web form (the dashboard) ----

/** A row as the dashboard reads it (SavedSchema). */
export function toSaved(row: SchemaRow): SavedSchema {
  return {
    id: row.id,
    name: row.name,
    fileType: row.fileType,
    fields: row.fields as SavedSchemaInput['fields'],
    ...(row.options as Flags),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The engine's verdict on a web-form schema (in a worker), then its stored form. */
export async function checkWebForm(
  pool: ValidationPool,
  input: WebFormSchema,
): Promise<StoredForm> {
  const verdict = await pool.check(JSON.stringify(input));
  if (!verdict.ok) throw invalidSchema(verdict.problems);
  return {
    name: input.name,
    fileType: input.fileType,
    fields: input.fields,
    flags: flagsOf(input),
  };
}

/** A stored schema with a dashboard update applied; the file type stays null unless set. */
export function mergeUpdate(row: SchemaRow, update: Partial<SavedSchemaInput>): WebFormSchema {
  const current = toSaved(row);
  return {
    name: update.name ?? current.name,
    fileType: update.fileType ?? current.fileType,
    fields: update.fields ?? current.fields,
    ...flagsOf(current),
    ...flagsOf(update),
  };
}

// ---- The /v1 form ----

/**
 * The engine's verdict (in a worker), then the schema in the web form the table stores. `text` is
 * the body as sent: the route's parsed body has lost the keys its contract does not name (a
 * misspelt rule must reach the engine to be refused) and the last digits of numbers past 2^53.
 */
export async function normalise(pool: ValidationPool, text: string): Promise<NormalisedSchema> {
  const verdict = await pool.check(text);
  if (!verdict.ok) throw invalidSchema(verdict.problems);
  const parsed = parseSchemaText(text);
  if (!parsed.ok) throw invalidSchema(parsed.problems);
  const web = toWebSchema(parsed.value);
  const form = detectSchemaFormat(JSON.parse(text) as unknown);
  // Table Schema describes tables and JSON Schema JSON documents; the web and API forms say
  // nothing by themselves (a minimal Table Schema reads as the web form), so without a type
  // each file is read by its name or first bytes, as with an inline schema (docs/decisions/134).
  const fileType =
    web.fileType ?? (form === 'tableschema' ? 'csv' : form === 'jsonschema' ? 'json' : null);
  return {
    name: web.name?.trim() || 'Untitled schema',
    fileType,
    fields: web.fields,
    flags: flagsOf(web as Flags),
    warnings: parsed.warnings.map((message) => ({ code: 'schema', message })),
  };
}

/**
 * The columns in the one form the API documents (storedColumnSchema): a schema saved from the
 * dashboard keeps the form's fields as the browser sent them (numbers as text, '' for unset), so
 * they are read through the engine, which writes them back with numbers as numbers
 * (docs/decisions/139). A row the engine cannot read (it checked it when it was saved) is
 * answered as stored.
 */
function columnsOf(row: SchemaRow): SchemaV1['rules']['columns'] {
  const parsed = parseSchema({ name: row.name, fields: row.fields }, 'web');
  const fields = parsed.ok ? toWebSchema(parsed.value).fields : row.fields;
  return fields as SchemaV1['rules']['columns'];
}

export function toV1(row: SchemaRow): SchemaV1 {
  return {
    schema_id: row.id,
    name: row.name,
    type: row.fileType,
    rules: { columns: columnsOf(row), ...(row.options as Omit<SchemaV1['rules'], 'columns'>) },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

// ---- The jobs and the validations ----

/** A stored schema as the validation service takes it. */
export function parsedFromRow(row: SchemaRow): ParsedSchema {
  const value = {
    name: row.name,
    ...(row.fileType ? { fileType: row.fileType } : {}),
    fields: row.fields,
    ...(row.options as Flags),
  };
  return {
    text: JSON.stringify(value),
    value,
    ...(row.fileType ? { fileType: row.fileType } : {}),
  };
}

// ---- The table ----

/** The user's schemas, newest first (the dashboard's list). */
export async function listSchemas(db: Db, userId: string): Promise<SchemaRow[]> {
  return db
    .select()
    .from(schemas)
    .where(eq(schemas.userId, userId))
    .orderBy(desc(schemas.createdAt), desc(schemas.id));
}

/** A page of the user's schemas, newest first, by number or cursor (docs/decisions/136). */
export async function listSchemaPage(
  db: Db,
  userId: string,
  query: ListQueryV1,
): Promise<ListPage<SchemaRow>> {
  return listPage<SchemaRow>(
    db,
    { table: schemas, id: schemas.id, createdAt: schemas.createdAt, userId: schemas.userId },
    userId,
    query,
    undefined,
    'schema',
  );
}

/** Stores a new schema, within MAX_SAVED_SCHEMAS per account (schema_limit past it). */
export async function createSchema(
  db: Db,
  userId: string,
  form: StoredForm,
  now: Date,
): Promise<SchemaRow> {
  const [{ n }] = (await db
    .select({ n: count() })
    .from(schemas)
    .where(eq(schemas.userId, userId))) as [{ n: number }];
  if (Number(n) >= MAX_SAVED_SCHEMAS) {
    throw new AppError('schema_limit', {
      message: `You can save up to ${MAX_SAVED_SCHEMAS} schemas. Delete one to save another.`,
    });
  }
  const [row] = await db
    .insert(schemas)
    .values({
      userId,
      name: form.name,
      fileType: form.fileType,
      fields: form.fields,
      options: form.flags,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

/** The user's schema by id; undefined for another user's, an unknown or an ill-formed id. */
export async function findOwnSchema(
  db: Db,
  userId: string,
  id: string,
): Promise<SchemaRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select()
    .from(schemas)
    .where(and(eq(schemas.id, id), eq(schemas.userId, userId)));
  return row;
}

/** Replaces the user's schema; undefined when there is no such schema of theirs. */
export async function replaceSchema(
  db: Db,
  userId: string,
  id: string,
  form: StoredForm,
  now: Date,
): Promise<SchemaRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .update(schemas)
    .set({
      name: form.name,
      fileType: form.fileType,
      fields: form.fields,
      options: form.flags,
      updatedAt: now,
    })
    .where(and(eq(schemas.id, id), eq(schemas.userId, userId)))
    .returning();
  return row;
}

/** Deletes the user's schema; false when there is no such schema of theirs. */
export async function deleteSchema(db: Db, userId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db
    .delete(schemas)
    .where(and(eq(schemas.id, id), eq(schemas.userId, userId)))
    .returning({ id: schemas.id });
  return rows.length > 0;
}
