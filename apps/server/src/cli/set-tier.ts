import { SUBSCRIPTION_TIERS, type SubscriptionTier } from '@schemacheck/contracts';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema.ts';
import { fail } from '../startup.ts';
import { changeUser } from './operator.ts';

// npm run set-tier -- <username-or-email> <free|pro|business|enterprise>
// Sets a user's plan directly in the configured database (an operator's tool: support, tests,
// enterprise contracts).

const USAGE = `Usage: npm run set-tier -- <username-or-email> <${SUBSCRIPTION_TIERS.join('|')}>`;

const [who, tier] = process.argv.slice(2);
if (!who || !tier || process.argv.length > 4) fail(USAGE, 2);
if (!(SUBSCRIPTION_TIERS as readonly string[]).includes(tier)) {
  fail(`Unknown tier "${tier}". ${USAGE}`, 2);
}

await changeUser('set-tier', who, async (db, user) => {
  await db
    .update(users)
    // Recorded as set by hand: billing's sync keeps it while no Stripe subscription exists
    // (docs/decisions/074).
    .set({
      subscriptionTier: tier as SubscriptionTier,
      tierSource: 'operator',
      tierUpdatedAt: new Date(),
    })
    .where(eq(users.id, user.id));
  return `${user.username} <${user.email}>: ${user.subscriptionTier} → ${tier}`;
});
