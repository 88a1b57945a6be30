import { PLANS, usageResetDate, type SubscriptionTier, type UsageV1 } from '@schemacheck/contracts';
import { and, count, eq, gte, lt, sum } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { apiUsage } from '../db/schema.ts';
import { usedThisMonth } from '../validation/quota.ts';

// One api_usage row per public API call (endpoint pattern, method, rows, bytes, status, key), and
// the month's figures for GET /v1/usage. The validation count is the web's (usage_counters).

export interface UsageRow {
  userId: string;
  apiKeyId: string;
  endpoint: string;
  method: string;
  rows: number;
  bytes: number;
  status: number;
  at: Date;
}

export async function recordApiCall(db: Db, r: UsageRow): Promise<void> {
  await db.insert(apiUsage).values({
    userId: r.userId,
    apiKeyId: r.apiKeyId,
    endpoint: r.endpoint,
    method: r.method,
    rowsProcessed: r.rows,
    bytesProcessed: r.bytes,
    responseStatus: r.status,
    timestamp: r.at,
  });
}

export async function usageV1(
  db: Db,
  userId: string,
  tier: SubscriptionTier,
  now: Date,
  rateLimit: { limit: number; windowSeconds: number },
): Promise<UsageV1> {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const reset = usageResetDate(now);
  const limit = PLANS[tier].limits.monthlyValidations;
  const used = await usedThisMonth(db, userId, now);
  const [calls] = await db
    .select({
      calls: count(),
      rows: sum(apiUsage.rowsProcessed),
      bytes: sum(apiUsage.bytesProcessed),
    })
    .from(apiUsage)
    .where(
      and(
        eq(apiUsage.userId, userId),
        gte(apiUsage.timestamp, start),
        lt(apiUsage.timestamp, reset),
      ),
    );
  return {
    plan: tier === 'enterprise' ? 'enterprise' : 'business',
    validations: {
      used,
      limit,
      remaining: limit === null ? null : Math.max(0, limit - used),
      reset_date: reset.toISOString(),
    },
    api: {
      calls: Number(calls?.calls ?? 0),
      rows: Number(calls?.rows ?? 0),
      bytes: Number(calls?.bytes ?? 0),
    },
    rate_limit: { limit: rateLimit.limit, window_seconds: rateLimit.windowSeconds },
  };
}
