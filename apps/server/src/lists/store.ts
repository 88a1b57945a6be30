import {
  MAX_LISTS,
  PLANS,
  type ListQueryV1,
  type ListSummaryV1,
  type ListV1,
  type SubscriptionTier,
} from '@schemacheck/contracts';
import { parseSchemaText } from '@schemacheck/engine';
import { and, count, eq, inArray } from 'drizzle-orm';
import { listPage } from '../lib/pagination.ts';
import type { Db } from '../db/client.ts';
import { referenceLists, users } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { storableJson } from '../lib/unicode.ts';
import { isUuid } from '../lib/uuid.ts';

// Reference lists (docs/decisions/200): saved per account, named as schemas name them in
// `inList`, capped per plan (PLANS' `listValues`; the Free plan has none) and MAX_LISTS per
// account. The /v1 routes and the web's /api/lists routes call only this module; validations
// load the lists their schema names through listsForSchema. A list over the plan's limit (after a
// change of plan) is kept but not checked (docs/decisions/260).

type Row = typeof referenceLists.$inferSelect;
type Summary = Omit<Row, 'values'>;

const summaryColumns = {
  id: referenceLists.id,
  userId: referenceLists.userId,
  name: referenceLists.name,
  valueCount: referenceLists.valueCount,
  createdAt: referenceLists.createdAt,
  updatedAt: referenceLists.updatedAt,
};

export const listNotFound = () => new AppError('not_found', { message: 'No such list' });

/** The plan's list limits, as the API and the Profile page show them. */
export function listLimits(tier: SubscriptionTier): { values_per_list: number; lists: number } {
  const values = PLANS[tier].limits.listValues;
  return { values_per_list: values, lists: values > 0 ? MAX_LISTS : 0 };
}

/**
 * More values than the plan allows a list: saved on a bigger plan, or any saved list on a plan
 * without them. Kept, shown as such, and not checked by validations (docs/decisions/260).
 */
export function isOverLimit(tier: SubscriptionTier, valueCount: number): boolean {
  const limit = PLANS[tier].limits.listValues;
  return limit === 0 || valueCount > limit;
}

function toSummary(row: Summary, tier: SubscriptionTier): ListSummaryV1 {
  return {
    list_id: row.id,
    name: row.name,
    value_count: row.valueCount,
    over_limit: isOverLimit(tier, row.valueCount),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function toList(row: Row, tier: SubscriptionTier): ListV1 {
  return { ...toSummary(row, tier), values: row.values as string[] };
}

/** Distinct values in the order first given. */
function distinct(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** Refuses a plan without saved lists. */
export function assertListsAllowed(tier: SubscriptionTier): void {
  const plan = PLANS[tier];
  if (plan.limits.listValues === 0) {
    const withLists = Object.values(PLANS)
      .filter((p) => p.limits.listValues > 0)
      .map((p) => p.label);
    throw new AppError('plan_required', {
      message: `Saved lists are part of the ${withLists.join(', ')} plans; on the ${plan.label} plan use a field's allowed values instead.`,
    });
  }
}

/** Refuses values over the plan's limit (and any list on a plan without saved lists). */
function checkSize(tier: SubscriptionTier, n: number): void {
  assertListsAllowed(tier);
  const plan = PLANS[tier];
  const limit = plan.limits.listValues;
  if (n > limit) {
    throw new AppError('list_too_large', {
      message: `The list has ${n.toLocaleString('en-GB')} values; the ${plan.label} plan allows ${limit.toLocaleString('en-GB')} values a list.`,
      extra: { limit },
    });
  }
}

/**
 * The id of this account's list addressed by `key`: its id (a UUID) or its name. A name may
 * itself look like a UUID, even another list's id: the list with that id comes first, so that a
 * key never addresses two lists.
 */
async function idOf(db: Db, userId: string, key: string): Promise<string> {
  const mine = eq(referenceLists.userId, userId);
  if (isUuid(key)) {
    const [byId] = await db
      .select({ id: referenceLists.id })
      .from(referenceLists)
      .where(and(mine, eq(referenceLists.id, key)));
    if (byId) return byId.id;
  }
  const [byName] = await db
    .select({ id: referenceLists.id })
    .from(referenceLists)
    .where(and(mine, eq(referenceLists.name, key)));
  if (!byName) throw listNotFound();
  return byName.id;
}

export async function listPageOf(
  db: Db,
  userId: string,
  tier: SubscriptionTier,
  query: ListQueryV1,
) {
  const { rows, ...page } = await listPage<Row>(
    db,
    {
      table: referenceLists,
      id: referenceLists.id,
      createdAt: referenceLists.createdAt,
      userId: referenceLists.userId,
    },
    userId,
    query,
    undefined,
    'list',
  );
  return { data: rows.map((row) => toSummary(row, tier)), ...page };
}

/** Every list of the account, newest first, without values (the Profile page). */
export async function allLists(
  db: Db,
  userId: string,
  tier: SubscriptionTier,
): Promise<ListSummaryV1[]> {
  const rows = await db
    .select(summaryColumns)
    .from(referenceLists)
    .where(eq(referenceLists.userId, userId));
  return rows
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
    .map((row) => toSummary(row, tier));
}

export async function getList(
  db: Db,
  userId: string,
  tier: SubscriptionTier,
  key: string,
): Promise<ListV1> {
  const id = await idOf(db, userId, key);
  const [row] = await db.select().from(referenceLists).where(eq(referenceLists.id, id));
  if (!row) throw listNotFound();
  return toList(row, tier);
}

export interface SaveList {
  name: string;
  values: readonly string[];
  /** Replace the values of the list of that name instead of refusing the name. */
  replace?: boolean;
  /** What the caller's client can do about a name in use (each way of saving has its own). */
  existsHint?: string;
}

export async function createList(
  db: Db,
  userId: string,
  tier: SubscriptionTier,
  input: SaveList,
  now: Date,
): Promise<{ list: ListSummaryV1; created: boolean }> {
  const values = distinct(input.values);
  checkSize(tier, values.length);
  const [existing] = await db
    .select(summaryColumns)
    .from(referenceLists)
    .where(and(eq(referenceLists.userId, userId), eq(referenceLists.name, input.name)));
  if (existing) {
    if (!input.replace) {
      throw new AppError('list_exists', {
        message: `A list named ${input.name} exists.${input.existsHint ? ` ${input.existsHint}` : ''}`,
      });
    }
    const [row] = await db
      .update(referenceLists)
      .set({ values: storableJson(values), valueCount: values.length, updatedAt: now })
      .where(eq(referenceLists.id, existing.id))
      .returning(summaryColumns);
    return { list: toSummary(row!, tier), created: false };
  }
  const [{ n }] = (await db
    .select({ n: count() })
    .from(referenceLists)
    .where(eq(referenceLists.userId, userId))) as [{ n: number }];
  if (Number(n) >= MAX_LISTS) {
    throw new AppError('list_limit', {
      message: `You can save up to ${MAX_LISTS} lists. Delete one to save another.`,
    });
  }
  try {
    const [row] = await db
      .insert(referenceLists)
      .values({
        userId,
        name: input.name,
        values: storableJson(values),
        valueCount: values.length,
        createdAt: now,
        updatedAt: now,
      })
      .returning(summaryColumns);
    return { list: toSummary(row!, tier), created: true };
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new AppError('list_exists', { message: `A list named ${input.name} exists.` });
    }
    throw err;
  }
}

export async function replaceList(
  db: Db,
  userId: string,
  tier: SubscriptionTier,
  key: string,
  input: { name?: string | undefined; values: readonly string[] },
  now: Date,
): Promise<ListSummaryV1> {
  const values = distinct(input.values);
  checkSize(tier, values.length);
  const id = await idOf(db, userId, key);
  return updateList(db, userId, tier, id, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    values: storableJson(values),
    valueCount: values.length,
    updatedAt: now,
  });
}

/** A new name, the values kept (a list too long to send again can be renamed). */
export async function renameList(
  db: Db,
  userId: string,
  tier: SubscriptionTier,
  key: string,
  name: string,
  now: Date,
): Promise<ListSummaryV1> {
  const id = await idOf(db, userId, key);
  return updateList(db, userId, tier, id, { name, updatedAt: now });
}

/** Writes `set` to this account's list `id` (a new name in use: list_exists). */
async function updateList(
  db: Db,
  userId: string,
  tier: SubscriptionTier,
  id: string,
  set: Partial<typeof referenceLists.$inferInsert>,
): Promise<ListSummaryV1> {
  try {
    const [row] = await db
      .update(referenceLists)
      .set(set)
      .where(and(eq(referenceLists.userId, userId), eq(referenceLists.id, id)))
      .returning(summaryColumns);
    if (!row) throw listNotFound();
    return toSummary(row, tier);
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new AppError('list_exists', { message: `A list named ${set.name} exists.` });
    }
    throw err;
  }
}

export async function deleteList(db: Db, userId: string, key: string): Promise<void> {
  const id = await idOf(db, userId, key);
  const rows = await db
    .delete(referenceLists)
    .where(and(eq(referenceLists.userId, userId), eq(referenceLists.id, id)))
    .returning({ id: referenceLists.id });
  if (rows.length === 0) throw listNotFound();
}

/** What a validation is given of the account's lists (the worker's `open`). */
export interface ValidationLists {
  /** The lists the schema names that the account has within the plan's limit, name → values. */
  values: Record<string, string[]>;
  /**
   * The lists the schema names that are not checked, name → the result's warning: the account has
   * none of that name, or it is over the plan's limit (docs/decisions/260). The worker drops
   * those `inList` checks and adds the warnings, worded here for the web and the API (the
   * engine's own "was not given" speaks of the caller that passes lists, the CLI's --list).
   */
  withheld: Record<string, string>;
}

const nf = (value: number) => value.toLocaleString('en-GB');

/**
 * When a warning is read: in a validation's result (the check was left out) or in the answer of
 * a schema's save (validations will leave it out).
 */
type When = 'validation' | 'save';

/** "so field 'a' was not checked against it" / "so validations will not check fields 'a' and 'b' against it". */
function notChecked(fields: readonly string[], when: When): string {
  const quoted = fields.map((f) => `'${f}'`);
  const many = quoted.length > 1;
  const named = many
    ? `fields ${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`
    : `field ${quoted[0] ?? ''}`;
  return when === 'save'
    ? `so validations will not check ${named} against it`
    : `so ${named} ${many ? 'were' : 'was'} not checked against it`;
}

/** The warning of a list the account has over its plan's limit. */
export function overLimitWarning(
  tier: SubscriptionTier,
  name: string,
  valueCount: number,
  fields: readonly string[],
  when: When = 'validation',
): string {
  const plan = PLANS[tier];
  const limit = plan.limits.listValues;
  const not = notChecked(fields, when);
  if (limit === 0) {
    const withLists = Object.values(PLANS)
      .filter((p) => p.limits.listValues > 0)
      .map((p) => p.label);
    return `The list '${name}' has ${nf(valueCount)} values, but the ${plan.label} plan has no saved lists, ${not}. The list is kept: change to a plan with saved lists (${withLists.join(', ')}) to use it, or give the field its allowed values instead.`;
  }
  return `The list '${name}' has ${nf(valueCount)} values, more than the ${nf(limit)} a list the ${plan.label} plan allows, ${not}. The list is kept: replace it with a list of at most ${nf(limit)} values, or change to a plan that allows more.`;
}

/** The warning of a list the account does not have. */
export function missingListWarning(
  name: string,
  fields: readonly string[],
  when: When = 'validation',
): string {
  return `This account has no list named '${name}', ${notChecked(fields, when)}. Save a list of that name, or correct the list's name in the schema.`;
}

/**
 * The lists a schema names in `inList` that the account cannot use now, name → warning (none of
 * that name, or over the current plan's limit), and those it can.
 */
async function usableLists(
  db: Db,
  userId: string,
  schemaText: string,
  when: When,
): Promise<{ within: string[]; withheld: Record<string, string> }> {
  const named = inListFields(schemaText);
  const out = { within: [] as string[], withheld: {} as Record<string, string> };
  if (named.size === 0) return out;
  const [owner] = await db
    .select({ tier: users.subscriptionTier })
    .from(users)
    .where(eq(users.id, userId));
  const tier = (owner?.tier ?? 'free') as SubscriptionTier;
  const saved = await db
    .select({ name: referenceLists.name, valueCount: referenceLists.valueCount })
    .from(referenceLists)
    .where(and(eq(referenceLists.userId, userId), inArray(referenceLists.name, [...named.keys()])));
  const counts = new Map(saved.map((row) => [row.name, row.valueCount]));
  for (const [name, fields] of named) {
    const count = counts.get(name);
    if (count === undefined) out.withheld[name] = missingListWarning(name, fields, when);
    else if (isOverLimit(tier, count)) {
      out.withheld[name] = overLimitWarning(tier, name, count, fields, when);
    } else out.within.push(name);
  }
  return out;
}

/**
 * The account's lists a schema names in `inList`, for a validation: the values of those within
 * the account's current plan's limit, and a warning for each other name (not saved, or over the
 * limit), whose check the validation leaves out. Read when the validation runs, so a change of
 * plan applies to the next one.
 */
export async function listsForSchema(
  db: Db,
  userId: string,
  schemaText: string,
): Promise<ValidationLists> {
  const { within, withheld } = await usableLists(db, userId, schemaText, 'validation');
  const lists: ValidationLists = { values: {}, withheld };
  // The values only of the lists checked: a list over the limit may be long.
  if (within.length > 0) {
    const rows = await db
      .select({ name: referenceLists.name, values: referenceLists.values })
      .from(referenceLists)
      .where(and(eq(referenceLists.userId, userId), inArray(referenceLists.name, within)));
    for (const row of rows) lists.values[row.name] = row.values as string[];
  }
  return lists;
}

/**
 * The warnings of a schema's save for the lists it names that validations will not check (none
 * of that name, or over the plan's limit). The schema is saved all the same: the list may be
 * saved after it.
 */
export async function listWarningsOnSave(
  db: Db,
  userId: string,
  schemaText: string,
): Promise<{ code: 'schema'; message: string }[]> {
  const { withheld } = await usableLists(db, userId, schemaText, 'save');
  return Object.values(withheld).map((message) => ({ code: 'schema', message }));
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/**
 * The list names a schema's fields use in `inList`, each with the fields that name it, in the
 * schema's order (none for a schema the engine refuses).
 */
export function inListFields(schemaText: string): Map<string, string[]> {
  const parsed = parseSchemaText(schemaText);
  const names = new Map<string, string[]>();
  if (!parsed.ok) return names;
  for (const field of parsed.value.fields) {
    const name = field.rules.inList;
    if (name === undefined) continue;
    const fields = names.get(name);
    if (fields) fields.push(field.name);
    else names.set(name, [field.name]);
  }
  return names;
}
