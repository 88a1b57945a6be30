import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema.ts';
import { fromStorableJsonb, toStorableJsonb } from '../lib/unicode.ts';

// Idempotency-Key on every public API POST (docs/decisions/084). The first request with a key
// claims it; its response (status and JSON body) is stored and replayed to any repeat of the same
// request for 24 hours. A repeat while the first still runs gets 409; the same key with a
// different request gets 422. Responses that say "try again" (429, 5xx) release the key instead.

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A claim without a response this old belongs to a process that died: it may be taken over. */
const ABANDONED_MS = 10 * 60 * 1000;
export const MAX_KEY_LENGTH = 255;

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'in_progress' }
  | { kind: 'mismatch' };

/** JSON with object keys sorted, so {a,b} and {b,a} are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What makes two requests "the same": method, URL (with its query) and the JSON body; for a
 * multipart upload, the SHA-256 of its content computed as it streams (body-hash.ts), which is
 * not known before the body is read: until then `bodyHash` is absent and the fingerprint only
 * marks the key as taken (docs/decisions/133).
 */
export function requestFingerprint(r: {
  method: string;
  url: string;
  contentType: string | undefined;
  body: unknown;
  bodyHash?: string;
}): string {
  const type = (r.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const body =
    type === 'multipart/form-data'
      ? `multipart:${r.bodyHash ?? 'unread'}`
      : `${type}:${canonical(r.body ?? null)}`;
  return createHash('sha256').update(`${r.method} ${r.url}\n${body}`).digest('hex');
}

export async function claimIdempotencyKey(
  db: Db,
  userId: string,
  key: string,
  requestHash: string,
  now: Date,
): Promise<Claim> {
  const where = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));
  await db
    .delete(idempotencyKeys)
    .where(and(where, lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_TTL_MS))));
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ userId, key, requestHash, createdAt: now })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length > 0) return { kind: 'claimed' };
    const [row] = await db.select().from(idempotencyKeys).where(where);
    if (!row) continue; // released meanwhile: try to claim again
    if (row.requestHash !== requestHash) return { kind: 'mismatch' };
    if (row.responseStatus !== null) {
      return {
        kind: 'replay',
        status: row.responseStatus,
        body: fromStorableJsonb(row.responseBody),
      };
    }
    if (now.getTime() - row.createdAt.getTime() > ABANDONED_MS) {
      await db
        .delete(idempotencyKeys)
        .where(and(where, eq(idempotencyKeys.createdAt, row.createdAt)));
      continue;
    }
    return { kind: 'in_progress' };
  }
  return { kind: 'in_progress' };
}

/**
 * Stores the answer to replay. An answer may quote the user's file (a value with U+0000 or a
 * lone surrogate, which jsonb refuses): it is stored as its JSON text so that the replay is the
 * same answer, byte for byte, and the key is never left claimed without one.
 */
export async function completeIdempotencyKey(
  db: Db,
  userId: string,
  key: string,
  status: number,
  body: unknown,
  /** The request's full fingerprint, where it was known only once its body was read. */
  requestHash?: string,
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({
      responseStatus: status,
      responseBody: toStorableJsonb(body),
      ...(requestHash ? { requestHash } : {}),
    })
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
}

export async function releaseIdempotencyKey(db: Db, userId: string, key: string): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
}
