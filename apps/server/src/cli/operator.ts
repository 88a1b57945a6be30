import { findUserByLogin } from '../auth/users.ts';
import type { Db } from '../db/client.ts';
import type { User } from '../db/schema.ts';
import { openConfiguredDatabase } from '../startup.ts';

// What the operator commands (set-tier, set-rate-limit) share: the configured database, migrated,
// and one account found by username or email. With the embedded database they refuse to run while
// the server holds DATA_DIR, or when DATA_DIR holds no database; with DATABASE_URL they work
// beside running servers.

/** Runs `change` on the account `who` and prints the line it returns; exit 1 when there is none. */
export async function changeUser(
  command: string,
  who: string,
  change: (db: Db, user: User) => Promise<string>,
): Promise<void> {
  const { database } = await openConfiguredDatabase(
    `The server is running: stop it before using ${command} (or use DATABASE_URL).`,
    // A mistyped DATA_DIR is refused, not created empty with the change made there.
    { existingDatabase: true },
  );
  try {
    await database.migrate();
    const user = await findUserByLogin(database.db, who);
    if (user) {
      process.stdout.write(`${await change(database.db, user)}\n`);
    } else {
      process.stderr.write(`No account with username or email "${who}"\n`);
      process.exitCode = 1;
    }
  } finally {
    await database.close();
  }
}
