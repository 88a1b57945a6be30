import { eq, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { sessions, users, type Session, type User } from '../db/schema.ts';
import { randomToken, sha256Hex } from '../lib/crypto.ts';

// Server-side sessions (docs/decisions/012). The browser holds a random 256-bit token in an
// HttpOnly cookie; the database holds only its SHA-256, so a leaked table cannot be replayed.

/** A session ends after this long without a request… */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
/** …and this long after sign-in, whatever happens. */
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
/** lastSeenAt is written at most this often, not on every request. */
const TOUCH_EVERY_MS = 60 * 1000;

export function sessionCookieName(secure: boolean): string {
  // The __Host- prefix makes the browser refuse the cookie unless it is Secure, has Path=/ and no
  // Domain, so a sibling subdomain cannot plant or overwrite it. Browsers refuse Secure cookies
  // over plain http (except some on localhost), so over http the plain name is used.
  return secure ? '__Host-sc_session' : 'sc_session';
}

export async function createSession(
  db: Db,
  userId: string,
  now: Date,
): Promise<{ token: string; id: string; expiresAt: Date }> {
  const token = randomToken(32);
  const id = sha256Hex(token);
  const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
  await db.insert(sessions).values({ id, userId, createdAt: now, lastSeenAt: now, expiresAt });
  return { token, id, expiresAt };
}

/** The live session of a cookie token with its user; an expired one is deleted and gives null. */
export async function findSession(
  db: Db,
  token: string,
  now: Date,
): Promise<{ session: Session; user: User } | null> {
  // Tokens we issue are 43 characters; anything else cannot match, so skip the query.
  if (token.length !== 43) return null;
  const id = sha256Hex(token);
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, id));
  if (!row) return null;
  const t = now.getTime();
  if (
    row.session.expiresAt.getTime() <= t ||
    row.session.lastSeenAt.getTime() + SESSION_IDLE_MS <= t
  ) {
    await deleteSession(db, id);
    return null;
  }
  if (t - row.session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
    row.session.lastSeenAt = now;
  }
  return row;
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, id));
}

export async function deleteSessionByToken(db: Db, token: string): Promise<void> {
  await deleteSession(db, sha256Hex(token));
}

export async function sweepSessions(db: Db, now: Date): Promise<void> {
  const idleBefore = new Date(now.getTime() - SESSION_IDLE_MS).toISOString();
  await db
    .delete(sessions)
    .where(
      or(lt(sessions.expiresAt, now), sql`${sessions.lastSeenAt} < ${idleBefore}::timestamptz`),
    );
}
