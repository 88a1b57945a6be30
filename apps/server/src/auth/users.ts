import type { PublicUser } from '@schemacheck/contracts';
import { eq, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users, type User } from '../db/schema.ts';
import { AppError } from '../errors.ts';

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

export async function findUserById(db: Db, id: string): Promise<User | null> {
  const [user] = await db.select().from(users).where(eq(users.id, id));
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
