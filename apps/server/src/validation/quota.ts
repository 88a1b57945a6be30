import {
  formatCount,
  formatLongDate,
  PLANS,
  usageResetDate,
  type SubscriptionTier,
  type UsageResponse,
} from '@schemacheck/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { usageCounters } from '../db/schema.ts';
import { AppError } from '../errors.ts';

// Monthly validations (docs/decisions/032): one row per user and calendar month in UTC. A
// validation reserves its unit with one atomic upsert before it starts, guarded by the limit in
// the same statement, so parallel requests can never pass the limit together; a validation that
// does not complete gives its unit back.

/** 'YYYY-MM' in UTC. */
export function monthOf(now: Date): string {
  return now.toISOString().slice(0, 7);
}

export interface Reservation {
  userId: string;
  month: string;
}

/** Takes one validation from this month's allowance, or returns null when it is used up. */
export async function reserveValidation(
  db: Db,
  userId: string,
  limit: number | null,
  now: Date,
): Promise<Reservation | null> {
  const month = monthOf(now);
  const rows = await db
    .insert(usageCounters)
    .values({ userId, month, count: 1 })
    .onConflictDoUpdate({
      target: [usageCounters.userId, usageCounters.month],
      set: { count: sql`${usageCounters.count} + 1` },
      ...(limit === null ? {} : { setWhere: sql`${usageCounters.count} < ${limit}` }),
    })
    .returning({ count: usageCounters.count });
  // A first validation with a limit of 0 would insert 1: treat as over (no plan has 0 today).
  if (rows.length === 0 || (limit !== null && rows[0]!.count > limit)) {
    if (rows.length > 0) await releaseValidation(db, { userId, month });
    return null;
  }
  return { userId, month };
}

/** Takes one validation from this month's allowance, or refuses with 429 and the reset date. */
export async function reserveOrRefuse(
  db: Db,
  userId: string,
  limit: number | null,
  now: Date,
): Promise<Reservation> {
  const reservation = await reserveValidation(db, userId, limit, now);
  if (!reservation) throw monthlyLimitError(limit ?? 0, now);
  return reservation;
}

/** Gives a reserved validation back (refused, failed or aborted: never charged). */
export async function releaseValidation(db: Db, r: Reservation): Promise<void> {
  await db
    .update(usageCounters)
    .set({ count: sql`greatest(${usageCounters.count} - 1, 0)` })
    .where(and(eq(usageCounters.userId, r.userId), eq(usageCounters.month, r.month)));
}

export async function usedThisMonth(db: Db, userId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ count: usageCounters.count })
    .from(usageCounters)
    .where(and(eq(usageCounters.userId, userId), eq(usageCounters.month, monthOf(now))));
  return row?.count ?? 0;
}

export async function usageFor(
  db: Db,
  userId: string,
  tier: SubscriptionTier,
  now: Date,
): Promise<UsageResponse> {
  const limit = PLANS[tier].limits.monthlyValidations;
  const used = await usedThisMonth(db, userId, now);
  return {
    hasLimit: limit !== null,
    used,
    limit,
    remaining: limit === null ? null : Math.max(0, limit - used),
    resetDate: usageResetDate(now).toISOString(),
  };
}

export function monthlyLimitError(limit: number, now: Date): AppError {
  const reset = usageResetDate(now);
  return new AppError('monthly_limit', {
    message: `You have used all ${formatCount(limit)} validations for this month. Your limit resets on ${formatLongDate(reset)}.`,
    headers: {
      'retry-after': String(Math.max(1, Math.ceil((reset.getTime() - now.getTime()) / 1000))),
    },
    extra: { reset_date: reset.toISOString() },
  });
}
