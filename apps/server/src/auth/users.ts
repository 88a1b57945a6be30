import type { PublicUser } from '@schemacheck/contracts';
import { and, eq, gt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rateLimitBuckets, sessions, users, type User } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import type { AccountDeletionHook } from '../types.ts';
import { accountBucketKey } from './throttle.ts';

// Accounts: the one module that reads and writes the users table for sign-up, sign-in, password
// resets and account deletion (docs/decisions/180). The routes (routes/auth.ts, routes/account.ts)
// translate HTTP and call these.

export function toPublicUser(user: User): PublicUser {
  return { username: user.username, email: user.email, subscriptionTier: user.subscriptionTier };
}

const lower = (v: string) => v.normalize('NFC').toLowerCase();

/** Usernames never contain '@' (contracts), so an '@' means an email address. */
export async function findUserByLogin(db: Db, usernameOrEmail: string): Promise<User | null> {
  const v = lower(usernameOrEmail);
  const [user] = await db
    .select()
    .from(users)
    .where(
      v.includes('@') ? sql`lower(${users.email}) = ${v}` : sql`lower(${users.username}) = ${v}`,
    );
  return user ?? null;
}

export async function findUserByEmail(db: Db, email: string): Promise<User | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${lower(email)}`);
  return user ?? null;
}

/** 409 when the username or the email is already registered (ignoring case). */
export async function assertAvailable(db: Db, username: string, email: string): Promise<void> {
  const taken = await db
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(
      or(
        sql`lower(${users.username}) = ${lower(username)}`,
        sql`lower(${users.email}) = ${lower(email)}`,
      ),
    );
  if (taken.some((u) => lower(u.username) === lower(username)))
    throw new AppError('username_taken');
  if (taken.length > 0) throw new AppError('email_taken');
}

export async function createUser(
  db: Db,
  values: { username: string; email: string; passwordHash: string; now: Date },
): Promise<User> {
  try {
    const [user] = await db
      .insert(users)
      .values({
        username: values.username.normalize('NFC'),
        email: values.email.normalize('NFC'),
        passwordHash: values.passwordHash,
        passwordChangedAt: values.now,
        createdAt: values.now,
      })
      .returning();
    return user!;
  } catch (err) {
    // Two registrations raced past assertAvailable.
    const constraint = uniqueViolation(err);
    if (constraint === 'users_username_lower_uq') throw new AppError('username_taken');
    if (constraint === 'users_email_lower_uq') throw new AppError('email_taken');
    throw err;
  }
}

/** The constraint name when `err` is a unique violation (SQLSTATE 23505) from either driver. */
export function uniqueViolation(err: unknown): string | null {
  for (
    let e: unknown = err, depth = 0;
    e && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return typeof constraint === 'string' ? constraint : '';
  }
  return null;
}

/** A new hash for the same password (its parameters were raised since it was stored). */
export async function updatePasswordHash(
  db: Db,
  userId: string,
  passwordHash: string,
): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

/** Stores the SHA-256 of a new reset token (replacing any earlier one) until `expiresAt`. */
export async function setResetToken(
  db: Db,
  userId: string,
  tokenHash: string,
  expiresAt: Date,
): Promise<void> {
  await db
    .update(users)
    .set({ resetTokenHash: tokenHash, resetTokenExpiresAt: expiresAt })
    .where(eq(users.id, userId));
}

const liveToken = (tokenHash: string, now: Date) =>
  and(eq(users.resetTokenHash, tokenHash), gt(users.resetTokenExpiresAt, now));

/** Whether a reset token with this hash is outstanding and unexpired (a cheap look, no scrypt). */
export async function resetTokenIsLive(db: Db, tokenHash: string, now: Date): Promise<boolean> {
  const [candidate] = await db
    .select({ id: users.id })
    .from(users)
    .where(liveToken(tokenHash, now));
  return candidate !== undefined;
}

/**
 * Sets the new password and spends the token in one transaction: the UPDATE both checks and spends
 * it, so of two concurrent uses one matches a row. The user's sessions and failed sign-in count
 * go with it. Null when the token is unknown, used or expired.
 */
export async function resetPassword(
  db: Db,
  tokenHash: string,
  passwordHash: string,
  now: Date,
): Promise<User | null> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(users)
      .set({
        passwordHash,
        passwordChangedAt: now,
        resetTokenHash: null,
        resetTokenExpiresAt: null,
      })
      .where(liveToken(tokenHash, now))
      .returning();
    if (!updated) return null;
    await tx.delete(sessions).where(eq(sessions.userId, updated.id));
    await tx
      .delete(rateLimitBuckets)
      .where(eq(rateLimitBuckets.key, accountBucketKey('login', updated.id)));
    return updated;
  });
}

/**
 * Deletes the user and, through ON DELETE CASCADE, everything they own. The hooks run first, in
 * order (billing deletes the Stripe customer there; if it fails nothing else is touched).
 */
export async function deleteAccount(
  db: Db,
  user: User,
  hooks: readonly AccountDeletionHook[],
): Promise<void> {
  for (const hook of hooks) await hook(user);
  await db.delete(users).where(eq(users.id, user.id));
}
