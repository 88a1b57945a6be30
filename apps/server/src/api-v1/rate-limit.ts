import { TEST_MODE_RATE_PER_MINUTE } from '@schemacheck/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { accountRateWindows, apiKeys } from '../db/schema.ts';

// The API request rate limit, per account (docs/decisions/083, 123): a fixed one-minute window
// that every key of the account counts against, kept in `account_rate_windows`, so that every
// server process counts against the same window and a second key is no second allowance. The
// answer carries the IETF draft's RateLimit-Limit, -Remaining and -Reset (seconds) headers, and a
// 429 adds Retry-After.

export const WINDOW_SECONDS = 60;

/**
 * An account's requests a minute: its contract limit when one is set (`npm run set-rate-limit`,
 * for Enterprise agreements), else the plan's (API_RATE_LIMIT_PER_MINUTE, or
 * API_RATE_LIMIT_ENTERPRISE_PER_MINUTE on Enterprise). A test-mode key's requests count in the
 * same window but are refused past TEST_MODE_RATE_PER_MINUTE (docs/decisions/174), so tests can
 * never use up what production needs beyond that.
 */
export function rateLimitOf(
  limits: { perMinute: number; enterprisePerMinute: number },
  owner: { tier: string; rateLimitPerMinute: number | null; livemode?: boolean },
): number {
  const live =
    owner.rateLimitPerMinute ??
    (owner.tier === 'enterprise' ? limits.enterprisePerMinute : limits.perMinute);
  return owner.livemode === false ? Math.min(live, TEST_MODE_RATE_PER_MINUTE) : live;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
}

/**
 * Counts one request made with `apiKeyId` in its account's window, opening a new window when the
 * last one has ended, and records the key's last use. One statement (an UPDATE of the key whose
 * owner feeds an upsert of the account's window): concurrent requests on any server, with any
 * of the account's keys, each get their own count.
 */
export async function takeRequest(
  db: Db,
  apiKeyId: string,
  limit: number,
  now: Date,
): Promise<RateDecision> {
  const windowMs = WINDOW_SECONDS * 1000;
  const cutoff = new Date(now.getTime() - windowMs);
  const w = accountRateWindows;
  // Timestamps as ISO text with a cast: the same on node-postgres and PGlite in a raw statement.
  const at = sql`${now.toISOString()}::timestamptz`;
  const expired = sql`${w}.${sql.identifier('window_start')} <= ${cutoff.toISOString()}::timestamptz`;
  const result = await db.execute<{ start_ms: number | string; count: number | string }>(sql`
    with used as (
      update ${apiKeys} set ${sql.identifier('last_used_at')} = ${at}
      where ${apiKeys.id} = ${apiKeyId}
      returning ${apiKeys.userId} as user_id
    )
    insert into ${w} (${sql.identifier('user_id')}, ${sql.identifier('window_start')}, ${sql.identifier('count')})
    select user_id, ${at}, 1 from used
    on conflict (${sql.identifier('user_id')}) do update set
      ${sql.identifier('window_start')} =
        case when ${expired} then excluded.window_start else ${w}.window_start end,
      ${sql.identifier('count')} = case when ${expired} then 1 else ${w}.count + 1 end
    returning (extract(epoch from ${sql.identifier('window_start')}) * 1000)::float8 as start_ms,
      ${sql.identifier('count')}
  `);
  const row = (
    result as unknown as { rows: { start_ms: number | string; count: number | string }[] }
  ).rows[0];
  const start = row ? Number(row.start_ms) : now.getTime();
  const count = row ? Number(row.count) : 1;
  const reset = Math.max(1, Math.ceil((start + windowMs - now.getTime()) / 1000));
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), reset };
}
