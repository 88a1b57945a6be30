import type { ListQueryV1 } from '@schemacheck/contracts';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { isUuid } from './uuid.ts';

// Every /v1 list, one way (docs/decisions/136): newest first by (created_at, id) descending, a
// total, and a page chosen by number or by cursor (`starting_after`, as Stripe). The cursor is
// compared in SQL against the cursor row's own created_at, so the comparison keeps the
// database's microseconds (a JavaScript Date would round them to milliseconds and could repeat
// or skip an item created in the same millisecond).

interface Listable {
  table: PgTable;
  id: PgColumn;
  createdAt: PgColumn;
  userId: PgColumn;
}

export interface ListPage<Row> {
  rows: Row[];
  page: number | null;
  limit: number;
  total: number;
  has_more: boolean;
}

export async function listPage<Row>(
  db: Db,
  on: Listable,
  userId: string,
  query: ListQueryV1,
  /** Narrows the list (e.g. a job status); the cursor item must match it too. */
  filter: SQL | undefined,
  /** What the item is called in messages: "schema", "job". */
  noun: string,
): Promise<ListPage<Row>> {
  const owned = and(eq(on.userId, userId), filter);
  const [counted] = await db.select({ n: count() }).from(on.table).where(owned);
  const total = Number(counted?.n ?? 0);
  const order = [desc(on.createdAt), desc(on.id)];

  if (query.starting_after !== undefined) {
    if (query.page !== undefined) {
      throw new AppError('validation', {
        message: 'Use either page or starting_after, not both',
        extra: { issues: [{ path: 'starting_after', message: 'Not with page' }] },
      });
    }
    const cursor = query.starting_after;
    const [found] = isUuid(cursor)
      ? await db
          .select({ id: on.id })
          .from(on.table)
          .where(and(owned, eq(on.id, cursor)))
      : [];
    if (!found) {
      const message = `starting_after: no such ${noun} in this list (use the id of the last item of the previous page)`;
      throw new AppError('validation', {
        message,
        extra: { issues: [{ path: 'starting_after', message }] },
      });
    }
    // Row comparison: strictly after the cursor in (created_at desc, id desc) order.
    const after = sql`(${on.createdAt}, ${on.id}) < (select c.created_at, c.id from ${on.table} c where c.id = ${cursor})`;
    const rows = (await db
      .select()
      .from(on.table)
      .where(and(owned, after))
      .orderBy(...order)
      .limit(query.limit + 1)) as Row[];
    return {
      rows: rows.slice(0, query.limit),
      page: null,
      limit: query.limit,
      total,
      has_more: rows.length > query.limit,
    };
  }

  const page = query.page ?? 1;
  const rows = (await db
    .select()
    .from(on.table)
    .where(owned)
    .orderBy(...order)
    .limit(query.limit)
    .offset((page - 1) * query.limit)) as Row[];
  return { rows, page, limit: query.limit, total, has_more: page * query.limit < total };
}
