import { SUBSCRIPTION_TIERS, type SubscriptionTier } from '@schemacheck/contracts';
import { eq } from 'drizzle-orm';
import { findUserByLogin } from '../auth/users.ts';
import { users } from '../db/schema.ts';
import { fail, openConfiguredDatabase } from '../startup.ts';

// npm run set-tier -- <username-or-email> <free|pro|business|enterprise>
// Sets a user's plan directly in the configured database (an operator's tool: support, tests,
// enterprise contracts). With the embedded database it refuses to run while the server holds
// DATA_DIR; with DATABASE_URL it works beside running servers.

const USAGE = `Usage: npm run set-tier -- <username-or-email> <${SUBSCRIPTION_TIERS.join('|')}>`;

const [who, tier] = process.argv.slice(2);
if (!who || !tier || process.argv.length > 4) fail(USAGE, 2);
if (!(SUBSCRIPTION_TIERS as readonly string[]).includes(tier)) {
  fail(`Unknown tier "${tier}". ${USAGE}`, 2);
}

const { database } = await openConfiguredDatabase(
  'The server is running: stop it before using set-tier (or use DATABASE_URL).',
);

try {
  await database.migrate();
  const user = await findUserByLogin(database.db, who);
  if (user) {
    await database.db
      .update(users)
      // Recorded as set by hand: billing's sync keeps it while no Stripe subscription exists
      // (docs/decisions/074).
      .set({
        subscriptionTier: tier as SubscriptionTier,
        tierSource: 'operator',
        tierUpdatedAt: new Date(),
      })
      .where(eq(users.id, user.id));
    process.stdout.write(`${user.username} <${user.email}>: ${user.subscriptionTier} → ${tier}\n`);
  } else {
    process.stderr.write(`No account with username or email "${who}"\n`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
