import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

// One account's counted things (webhooks, API keys, webhook attempts in flight, test events)
// are checked and changed under a lock on that account, so that a count and the insert that
// relies on it are one step for every server process (docs/decisions/121). A transaction-scoped
// advisory lock: released at commit or rollback, never left behind by a dead process, and it
// touches no row (the users row is written by logins and billing). PGlite runs one transaction
// at a time, so there it is uncontended.

/** The first half of the lock's key: ours, distinct from the migration lock (db/client.ts). */
const ACCOUNT_LOCK_SPACE = 726_354_022;

/** Locks `userId`'s account until the end of the transaction `tx`. */
export async function lockAccount(tx: Pick<Db, 'execute'>, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ACCOUNT_LOCK_SPACE}, hashtext(${userId}))`);
}
