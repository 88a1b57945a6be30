import type { SubscriptionTier } from '@schemacheck/contracts';
import { and, eq, lt, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '../db/client.ts';
import { stripeEvents, users, type User } from '../db/schema.ts';
import { tierOfPrice, type Billing } from './gateway.ts';

// The one place a plan comes from: Stripe's own record of the customer's subscriptions, read
// again on every trigger (a webhook event of any kind and order, the payment return page, a plan
// change). Events are triggers, never data, so duplicates and out-of-order deliveries converge on
// what Stripe says now (docs/decisions/071).

/** Business keeps its limits this long after a renewal first fails (docs/decisions/073). */
export const BUSINESS_GRACE_MS = 7 * 24 * 60 * 60 * 1000;

/** Statuses in which a subscription is still the customer's (paid, or being retried). */
const LIVE_STATUSES = new Set(['active', 'trialing', 'past_due', 'unpaid']);

export interface SyncOptions {
  /** The webhook event this sync answers: recorded in the same transaction, once. */
  event?: { id: string; type: string };
  now: Date;
}

export type SyncResult =
  { kind: 'duplicate' } | { kind: 'no-user' } | { kind: 'synced'; user: User };

/** The subscription that decides the plan: the newest live one, else the newest of any. */
function currentSubscription(subs: Stripe.Subscription[]): Stripe.Subscription | null {
  const sorted = [...subs].sort((a, b) => b.created - a.created);
  return sorted.find((s) => LIVE_STATUSES.has(s.status)) ?? sorted[0] ?? null;
}

function graceHolds(tier: SubscriptionTier | null, since: Date, now: Date): boolean {
  return tier === 'business' && now.getTime() < since.getTime() + BUSINESS_GRACE_MS;
}

/** The user's row as Stripe's subscriptions say it should be. */
export function stateFrom(
  billing: Billing,
  user: User,
  subs: Stripe.Subscription[],
  now: Date,
): Partial<User> {
  const sub = currentSubscription(subs);
  const live = sub !== null && LIVE_STATUSES.has(sub.status);
  if (!live) {
    // No subscription: Free, unless an operator set the plan by hand (npm run set-tier).
    const keep = user.tierSource === 'operator';
    return {
      subscriptionTier: keep ? user.subscriptionTier : 'free',
      tierSource: keep ? 'operator' : 'stripe',
      stripeSubscriptionId: null,
      subscriptionStatus: sub?.status ?? null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      pastDueSince: null,
    };
  }
  const item = sub.items.data[0];
  const paidTier = tierOfPrice(billing, item?.price.id);
  const periodEnd = item ? new Date(item.current_period_end * 1000) : null;
  const pastDueSince =
    sub.status === 'past_due' || sub.status === 'unpaid' ? (user.pastDueSince ?? now) : null;
  let tier: SubscriptionTier = 'free';
  if (sub.status === 'active' || sub.status === 'trialing') tier = paidTier ?? 'free';
  else if (sub.status === 'past_due' && graceHolds(paidTier, pastDueSince!, now)) tier = 'business';
  return {
    subscriptionTier: tier,
    tierSource: 'stripe',
    stripeSubscriptionId: sub.id,
    subscriptionStatus: sub.status,
    currentPeriodEnd: periodEnd,
    cancelAtPeriodEnd: sub.cancel_at_period_end || sub.cancel_at !== null,
    pastDueSince,
  };
}

/**
 * Reads the customer's subscriptions from Stripe and writes the plan to the user who owns the
 * customer, inside one transaction that holds the user's row (so two triggers at once apply in
 * turn) and, for a webhook, records the event id (a second delivery changes nothing).
 */
export async function syncCustomer(
  db: Db,
  billing: Billing,
  customerId: string,
  options: SyncOptions,
): Promise<SyncResult> {
  return db.transaction(async (tx) => {
    if (options.event) {
      const inserted = await tx
        .insert(stripeEvents)
        .values({ id: options.event.id, type: options.event.type, processedAt: options.now })
        .onConflictDoNothing()
        .returning({ id: stripeEvents.id });
      if (inserted.length === 0) return { kind: 'duplicate' } as const;
    }
    const [user] = await tx
      .select()
      .from(users)
      .where(eq(users.stripeCustomerId, customerId))
      .for('update');
    if (!user) return { kind: 'no-user' } as const;

    const list = await billing.stripe.subscriptions.list({
      customer: customerId,
      status: 'all',
      limit: 20,
    });
    const next = stateFrom(billing, user, list.data, options.now);
    const changedTier = next.subscriptionTier !== user.subscriptionTier;
    const [updated] = await tx
      .update(users)
      .set({ ...next, ...(changedTier ? { tierUpdatedAt: options.now } : {}) })
      .where(eq(users.id, user.id))
      .returning();
    return { kind: 'synced', user: updated! } as const;
  });
}

/** Records an event that needs no sync (a type we do not act on); false when seen before. */
export async function recordEvent(
  db: Db,
  event: { id: string; type: string },
  now: Date,
): Promise<boolean> {
  const inserted = await db
    .insert(stripeEvents)
    .values({ id: event.id, type: event.type, processedAt: now })
    .onConflictDoNothing()
    .returning({ id: stripeEvents.id });
  return inserted.length > 0;
}

/**
 * Business accounts whose renewal has been unpaid for longer than the grace period drop to Free
 * limits (no Stripe event marks that moment). Returns how many changed.
 */
export async function expireGracePeriods(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - BUSINESS_GRACE_MS);
  const changed = await db
    .update(users)
    .set({ subscriptionTier: 'free', tierUpdatedAt: now })
    .where(
      and(
        eq(users.tierSource, 'stripe'),
        eq(users.subscriptionTier, 'business'),
        sql`${users.subscriptionStatus} in ('past_due', 'unpaid')`,
        lt(users.pastDueSince, cutoff),
      ),
    )
    .returning({ id: users.id });
  return changed.length;
}
