import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import {
  API_KEY_PREFIX,
  API_KEY_TEST_PREFIX,
  PLANS,
  type ApiKeyItem,
  type ApiKeyMode,
  type CreatedApiKey,
  type SubscriptionTier,
} from '@schemacheck/contracts';
import { and, asc, count, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { apiKeys, users } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { lockAccount } from '../lib/account-lock.ts';
import { sha256Hex } from '../lib/crypto.ts';

// API keys: the one module that makes, stores, lists, revokes and looks up keys (docs/decisions/180),
// for the web routes (routes/api-keys.ts) and the public API's authentication (api-v1/auth.ts).
// The format (docs/decisions/081): `sc_` + 43 base62 characters of 256 random bits + a 6-character
// base62 CRC32 of the body. The checksum lets a mistyped or made-up key be refused without a
// database lookup (and lets secret scanners recognise ours). Only the SHA-256 of the whole key
// is stored; a fast hash suffices for 256 random bits. The prefix shown in lists is `sc_` and
// the first 8 characters. A test-mode key (docs/decisions/174) is the same with `sc_test_` in
// front: its mode is read from the key itself (and from the stored prefix), so no lookup or column
// is needed to tell the modes apart.

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_CHARS = 43;
const CHECK_CHARS = 6;
const KEY_RE = new RegExp(
  `^(?:${API_KEY_TEST_PREFIX}|${API_KEY_PREFIX})([0-9A-Za-z]{${BODY_CHARS}})([0-9A-Za-z]{${CHECK_CHARS}})$`,
);
const SHOWN_BODY_CHARS = 8;

const prefixOf = (mode: ApiKeyMode) => (mode === 'test' ? API_KEY_TEST_PREFIX : API_KEY_PREFIX);

/** A key's (or a stored key prefix's) mode. */
export function modeOfKey(keyOrPrefix: string): ApiKeyMode {
  return keyOrPrefix.startsWith(API_KEY_TEST_PREFIX) ? 'test' : 'live';
}

function base62(value: bigint, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = BASE62[Number(value % 62n)]! + out;
    value /= 62n;
  }
  return out;
}

function checksum(body: string): string {
  return base62(BigInt(crc32(body)), CHECK_CHARS);
}

/** A new key: 256 random bits, base62, with its checksum. */
export function generateApiKey(mode: ApiKeyMode = 'live'): string {
  const body = base62(BigInt(`0x${randomBytes(32).toString('hex')}`), BODY_CHARS);
  return `${prefixOf(mode)}${body}${checksum(body)}`;
}

/** Well-formed with a matching checksum: worth a database lookup. */
export function isWellFormedKey(key: string): boolean {
  const m = KEY_RE.exec(key);
  return m !== null && checksum(m[1]!) === m[2];
}

export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

type Row = typeof apiKeys.$inferSelect;

function toItem(row: Row): ApiKeyItem {
  return {
    id: row.id,
    name: row.name,
    keyPrefix: row.keyPrefix,
    mode: modeOfKey(row.keyPrefix),
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/**
 * A new key for the user, within their plan's number of active keys (PLANS' `activeApiKeys`:
 * 10 on Business, 50 on Enterprise; docs/decisions/123). The count and the insert run under the
 * account's lock, so parallel creates cannot pass the cap together.
 */
export async function createApiKey(
  db: Db,
  userId: string,
  name: string,
  now: Date,
  mode: ApiKeyMode = 'live',
): Promise<CreatedApiKey> {
  const key = generateApiKey(mode);
  const row = await db.transaction(async (tx) => {
    await lockAccount(tx, userId);
    const [owner] = await tx
      .select({ tier: users.subscriptionTier })
      .from(users)
      .where(eq(users.id, userId));
    const plan = PLANS[(owner?.tier ?? 'free') as SubscriptionTier];
    const [active] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
    if ((active?.n ?? 0) >= plan.limits.activeApiKeys) {
      throw new AppError('validation', {
        message: `An account on the ${plan.label} plan can have at most ${plan.limits.activeApiKeys} active API keys. Revoke one you no longer use first.`,
      });
    }
    const [inserted] = await tx
      .insert(apiKeys)
      .values({
        userId,
        name,
        keyPrefix: key.slice(0, prefixOf(mode).length + SHOWN_BODY_CHARS),
        keyHash: hashApiKey(key),
        createdAt: now,
      })
      .returning();
    return inserted!;
  });
  return { ...toItem(row), key };
}

/** Active keys first (newest first), then revoked ones (most recently revoked first). */
export async function listApiKeys(db: Db, userId: string): Promise<ApiKeyItem[]> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.userId, userId))
    .orderBy(asc(apiKeys.createdAt));
  const items = rows.map(toItem).reverse();
  return [
    ...items.filter((k) => k.revokedAt === null),
    ...items
      .filter((k) => k.revokedAt !== null)
      .sort((a, b) => b.revokedAt!.localeCompare(a.revokedAt!)),
  ];
}

/** Revokes the user's key; false when there is no such key of theirs. Revoking twice is fine. */
export async function revokeApiKey(
  db: Db,
  userId: string,
  id: string,
  now: Date,
): Promise<ApiKeyItem | null> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning();
  if (row) return toItem(row);
  const [existing] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)));
  return existing ? toItem(existing) : null;
}

export interface KeyOwner {
  apiKeyId: string;
  userId: string;
  tier: SubscriptionTier;
  /** A contract's own rate limit (set-rate-limit), or null for the plan's. */
  rateLimitPerMinute: number | null;
  revoked: boolean;
  /** False for a test-mode key. */
  livemode: boolean;
}

/** The key's owner by the key's hash, or null for an unknown key. */
export async function findKey(db: Db, key: string): Promise<KeyOwner | null> {
  const [row] = await db
    .select({
      apiKeyId: apiKeys.id,
      userId: apiKeys.userId,
      revokedAt: apiKeys.revokedAt,
      tier: users.subscriptionTier,
      rateLimitPerMinute: users.apiRateLimitPerMinute,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, hashApiKey(key)));
  if (!row) return null;
  return {
    apiKeyId: row.apiKeyId,
    userId: row.userId,
    tier: row.tier as SubscriptionTier,
    rateLimitPerMinute: row.rateLimitPerMinute,
    revoked: row.revokedAt !== null,
    livemode: modeOfKey(key) === 'live',
  };
}
