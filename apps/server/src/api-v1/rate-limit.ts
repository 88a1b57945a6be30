import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { apiKeys } from '../db/schema.ts';

// Per-key request rate limit (docs/decisions/083): a fixed one-minute window per API key, kept on
// the key's row, so every server process counts against the same window. The answer carries the
// IETF draft's RateLimit-Limit, -Remaining and -Reset (seconds) headers, and a 429 adds
// Retry-After.

export const WINDOW_SECONDS = 60;

/**
 * A key's requests a minute: its owner's contract limit when one is set (`npm run
 * set-rate-limit`, for Enterprise agreements), else the plan's (API_RATE_LIMIT_PER_MINUTE, or
 * API_RATE_LIMIT_ENTERPRISE_PER_MINUTE on Enterprise).
 */
export function rateLimitOf(
  limits: { perMinute: number; enterprisePerMinute: number },
  owner: { tier: string; rateLimitPerMinute: number | null },
): number {
  if (owner.rateLimitPerMinute !== null) return owner.rateLimitPerMinute;
  return owner.tier === 'enterprise' ? limits.enterprisePerMinute : limits.perMinute;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
}

/**
 * Counts one request of `apiKeyId` in its window, opening a new window when the last one has
 * ended, and records the key's last use. One atomic UPDATE: concurrent requests on any server
 * each get their own count.
 */
export async function takeRequest(
  db: Db,
  apiKeyId: string,
  limit: number,
  now: Date,
): Promise<RateDecision> {
  const windowMs = WINDOW_SECONDS * 1000;
  const cutoff = new Date(now.getTime() - windowMs);
  const expired = sql`(${apiKeys.rateWindowStart} is null or ${apiKeys.rateWindowStart} <= ${cutoff})`;
  const [row] = await db
    .update(apiKeys)
    .set({
      lastUsedAt: now,
      rateWindowStart: sql`case when ${expired} then ${now} else ${apiKeys.rateWindowStart} end`,
      rateWindowCount: sql`case when ${expired} then 1 else ${apiKeys.rateWindowCount} + 1 end`,
    })
    .where(eq(apiKeys.id, apiKeyId))
    .returning({ start: apiKeys.rateWindowStart, count: apiKeys.rateWindowCount });
  const start = row?.start?.getTime() ?? now.getTime();
  const count = row?.count ?? 1;
  const reset = Math.max(1, Math.ceil((start + windowMs - now.getTime()) / 1000));
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), reset };
}
