import { MAX_SAVED_SCHEMAS, type SchemaV1 } from '@schemacheck/contracts';
import { detectSchemaFormat, parseSchema, parseSchemaText, toWebSchema } from '@schemacheck/engine';
import { and, count, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { schemas } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import type { ValidationPool } from '../validation/pool.ts';
import { isUuid } from '../validation/results.ts';
import { invalidSchema, type ParsedSchema } from '../validation/service.ts';

// Schemas of the public API (docs/decisions/085). Any form the engine reads is accepted; each is
// checked by the engine in a worker first (problems by path), then stored in the web form, so a
// schema made through the API shows up in the dashboard and the reverse. Reads are owner-only:
// another user's id is "not found", like an unknown one.

type Row = typeof schemas.$inferSelect;
type Flags = {
  orderMatters?: boolean;
  additionalColumns?: boolean;
  additionalProperties?: boolean;
};

export interface StoredForm {
  name: string;
  /** Null: the schema names no type and its form implies none, so each file decides. */
  fileType: 'csv' | 'json' | null;
  fields: unknown[];
  flags: Flags;
  /** What the engine warned about the sent document: rules the stored form does not keep. */
  warnings: { code: 'schema'; message: string }[];
}

export const notFound = () => new AppError('not_found', { message: 'No such schema' });

/**
 * The engine's verdict (in a worker), then the schema in the web form the table stores. `text` is
 * the body as sent: the route's parsed body has lost the keys its contract does not name (a
 * misspelt rule must reach the engine to be refused) and the last digits of numbers past 2^53.
 */
export async function normalise(pool: ValidationPool, text: string): Promise<StoredForm> {
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
  const flags: Flags = {};
  if (web.orderMatters !== undefined) flags.orderMatters = web.orderMatters;
  if (web.additionalColumns !== undefined) flags.additionalColumns = web.additionalColumns;
  if (web.additionalProperties !== undefined) flags.additionalProperties = web.additionalProperties;
  return {
    name: web.name?.trim() || 'Untitled schema',
    fileType,
    fields: web.fields,
    flags,
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
function columnsOf(row: Row): SchemaV1['rules']['columns'] {
  const parsed = parseSchema({ name: row.name, fields: row.fields }, 'web');
  const fields = parsed.ok ? toWebSchema(parsed.value).fields : row.fields;
  return fields as SchemaV1['rules']['columns'];
}

export function toV1(row: Row): SchemaV1 {
  return {
    schema_id: row.id,
    name: row.name,
    type: row.fileType,
    rules: { columns: columnsOf(row), ...(row.options as Flags) },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function createSchema(
  db: Db,
  userId: string,
  form: StoredForm,
  now: Date,
): Promise<Row> {
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

export async function findOwnSchema(db: Db, userId: string, id: string): Promise<Row | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select()
    .from(schemas)
    .where(and(eq(schemas.id, id), eq(schemas.userId, userId)));
  return row;
}

export async function replaceSchema(
  db: Db,
  userId: string,
  id: string,
  form: StoredForm,
  now: Date,
): Promise<Row | undefined> {
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

export async function deleteSchema(db: Db, userId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db
    .delete(schemas)
    .where(and(eq(schemas.id, id), eq(schemas.userId, userId)))
    .returning({ id: schemas.id });
  return rows.length > 0;
}

/** A stored schema as the validation service takes it. */
export function parsedFromRow(row: Row): ParsedSchema {
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
