import { SUBSCRIPTION_TIERS, type SubscriptionTier } from '@schemacheck/contracts';
import { eq } from 'drizzle-orm';
import { findUserByLogin } from '../auth/users.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { DataDirInUseError } from '../db/lock.ts';
import { users } from '../db/schema.ts';

// npm run set-tier -- <username-or-email> <free|pro|business|enterprise>
// Sets a user's plan directly in the configured database (an operator's tool: support, tests,
// enterprise contracts). With the embedded database it refuses to run while the server holds
// DATA_DIR; with DATABASE_URL it works beside running servers.

const USAGE = `Usage: npm run set-tier -- <username-or-email> <${SUBSCRIPTION_TIERS.join('|')}>`;

function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

const [who, tier] = process.argv.slice(2);
if (!who || !tier || process.argv.length > 4) fail(USAGE, 2);
if (!(SUBSCRIPTION_TIERS as readonly string[]).includes(tier)) {
  fail(`Unknown tier "${tier}". ${USAGE}`, 2);
}

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) fail(err.message);
  throw err;
}

let database;
try {
  database = await openDatabase(config);
} catch (err) {
  if (err instanceof DataDirInUseError) {
    fail(
      `${err.message}\nThe server is running: stop it before using set-tier (or use DATABASE_URL).`,
    );
  }
  fail(`Cannot open the database: ${(err as Error).message}`);
}

try {
  await database.migrate();
  const user = await findUserByLogin(database.db, who);
  if (user) {
    await database.db
      .update(users)
      .set({ subscriptionTier: tier as SubscriptionTier })
      .where(eq(users.id, user.id));
    process.stdout.write(`${user.username} <${user.email}>: ${user.subscriptionTier} → ${tier}\n`);
  } else {
    process.stderr.write(`No account with username or email "${who}"\n`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
