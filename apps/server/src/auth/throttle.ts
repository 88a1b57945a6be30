import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rateLimitBuckets } from '../db/schema.ts';
import { hmacBase64url } from '../lib/crypto.ts';

// Fixed-window counters (docs/decisions/014).
// - In the database (rate_limit_buckets), for limits every server must agree on: failed sign-ins
//   per account, reset mails per address. One upsert per hit, so parallel hits cannot both slip
//   under the limit.
// - In memory (MemoryCounter), for per-client-IP failure counts: cheap, per process.
// Request-rate limits per IP (requests per minute on a route) use @fastify/rate-limit instead.

export interface Window {
  /** Hits allowed in one window; the next one is refused. */
  limit: number;
  windowMs: number;
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export const LIMITS = {
  /** Failed sign-ins (and wrong passwords at account deletion) per account. */
  loginFailuresPerAccount: { limit: 10, windowMs: 15 * MINUTE },
  /** Failed sign-ins per client IP, over all accounts. */
  loginFailuresPerIp: { limit: 50, windowMs: 15 * MINUTE },
  /** Reset mails asked for one address. */
  resetRequestsPerEmail: { limit: 5, windowMs: HOUR },
} as const satisfies Record<string, Window>;

/**
 * The bucket key of a user-supplied name (an email or a username). HMAC'd so that the table never
 * holds typed identifiers (people type passwords into the username field).
 */
export function bucketKey(key: Buffer, kind: string, value: string): string {
  return `${kind}:${hmacBase64url(key, value.normalize('NFC').toLowerCase())}`;
}

export function accountBucketKey(kind: string, userId: string): string {
  return `${kind}:user:${userId}`;
}

/** Seconds until the bucket accepts hits again, or null when it accepts them now. */
export async function blockedFor(
  db: Db,
  key: string,
  w: Window,
  now: Date,
): Promise<number | null> {
  const [row] = await db
    .select({ count: rateLimitBuckets.count, start: rateLimitBuckets.windowStartedAt })
    .from(rateLimitBuckets)
    .where(eq(rateLimitBuckets.key, key));
  if (!row) return null;
  const endsAt = row.start.getTime() + w.windowMs;
  if (endsAt <= now.getTime() || row.count < w.limit) return null;
  return Math.ceil((endsAt - now.getTime()) / 1000);
}

/**
 * Counts one hit. Returns the count in the current window and the seconds until it ends; a count
 * above `limit` means this hit went over.
 */
export async function hit(
  db: Db,
  key: string,
  w: Window,
  now: Date,
  userId: string | null = null,
): Promise<{ count: number; retryAfterSeconds: number }> {
  const windowOpenedAfter = new Date(now.getTime() - w.windowMs).toISOString();
  const nowIso = now.toISOString();
  const expired = sql`${rateLimitBuckets.windowStartedAt} <= ${windowOpenedAfter}::timestamptz`;
  const [row] = await db
    .insert(rateLimitBuckets)
    .values({ key, userId, count: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: rateLimitBuckets.key,
      set: {
        count: sql`case when ${expired} then 1 else ${rateLimitBuckets.count} + 1 end`,
        windowStartedAt: sql`case when ${expired} then ${nowIso}::timestamptz else ${rateLimitBuckets.windowStartedAt} end`,
      },
    })
    .returning({ count: rateLimitBuckets.count, start: rateLimitBuckets.windowStartedAt });
  const endsAt = row!.start.getTime() + w.windowMs;
  return {
    count: row!.count,
    retryAfterSeconds: Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000)),
  };
}

export async function clear(db: Db, key: string): Promise<void> {
  await db.delete(rateLimitBuckets).where(eq(rateLimitBuckets.key, key));
}

/** Deletes buckets whose window ended long ago. */
export async function sweepBuckets(db: Db, now: Date): Promise<void> {
  const longestWindow = Math.max(...Object.values(LIMITS).map((w) => w.windowMs));
  const before = new Date(now.getTime() - longestWindow).toISOString();
  await db
    .delete(rateLimitBuckets)
    .where(sql`${rateLimitBuckets.windowStartedAt} < ${before}::timestamptz`);
}

/** Per-process fixed-window counter, keyed by anything (client IPs). */
export class MemoryCounter {
  private readonly buckets = new Map<string, { count: number; start: number }>();
  private lastSweep = 0;

  constructor(private readonly w: Window) {}

  blockedFor(key: string, now: Date): number | null {
    const b = this.buckets.get(key);
    if (!b) return null;
    const endsAt = b.start + this.w.windowMs;
    if (endsAt <= now.getTime() || b.count < this.w.limit) return null;
    return Math.ceil((endsAt - now.getTime()) / 1000);
  }

  hit(key: string, now: Date): void {
    const t = now.getTime();
    this.sweep(t);
    const b = this.buckets.get(key);
    if (!b || b.start + this.w.windowMs <= t) this.buckets.set(key, { count: 1, start: t });
    else b.count++;
  }

  private sweep(t: number): void {
    if (t - this.lastSweep < this.w.windowMs) return;
    this.lastSweep = t;
    for (const [k, b] of this.buckets) if (b.start + this.w.windowMs <= t) this.buckets.delete(k);
  }
}
