import {
  PLANS,
  type CheckoutSessionResult,
  type PaidTier,
  type PlanChangePreview,
  type RedirectResponse,
  type SubscriptionState,
} from '@schemacheck/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { users, type User } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { isPaidTier } from '../plans.ts';
import { isMissingResource, stripeCall, tierOfPrice } from './gateway.ts';
import { QUOTE_TTL_MS, readQuote, signQuote } from './quote.ts';
import { BUSINESS_GRACE_MS, syncCustomer } from './sync.ts';

// What the billing routes do, one function per action. The browser only ever names a plan; what
// a user has comes from Stripe through syncCustomer (docs/decisions/071, 072).

function iso(d: Date | null): string | null {
  return d ? d.toISOString() : null;
}

export function subscriptionState(app: FastifyInstance, user: User): SubscriptionState {
  const status = user.subscriptionStatus;
  const known = ['active', 'past_due', 'canceled', 'unpaid', 'incomplete'] as const;
  const live = user.stripeSubscriptionId !== null;
  const pastDue = live && (status === 'past_due' || status === 'unpaid');
  return {
    tier: user.subscriptionTier,
    status: !live ? 'none' : (known.find((k) => k === status) ?? 'other'),
    subscribedTier: null,
    cancelAtPeriodEnd: live && user.cancelAtPeriodEnd,
    currentPeriodEnd: live ? iso(user.currentPeriodEnd) : null,
    pastDueSince: pastDue ? iso(user.pastDueSince) : null,
    graceEndsAt:
      pastDue && user.pastDueSince && user.subscriptionTier === 'business'
        ? iso(new Date(user.pastDueSince.getTime() + BUSINESS_GRACE_MS))
        : null,
    mode: app.billing.mode,
    canManageBilling: user.stripeCustomerId !== null,
    setByOperator: user.tierSource === 'operator' && !live,
  };
}

/** The state with the plan the live subscription pays for (read from Stripe). */
export async function subscriptionStateWithPlan(
  app: FastifyInstance,
  user: User,
): Promise<SubscriptionState> {
  const state = subscriptionState(app, user);
  if (!user.stripeSubscriptionId) return state;
  if (state.status === 'active' && isPaidTier(state.tier)) {
    return { ...state, subscribedTier: state.tier };
  }
  // Past due: the limits may be Free while the subscription is still for a paid plan.
  const sub = await liveSubscription(app, user).catch(() => null);
  return {
    ...state,
    subscribedTier: sub ? tierOfPrice(app.billing, sub.items.data[0]?.price.id) : null,
  };
}

async function sync(app: FastifyInstance, user: User): Promise<User> {
  if (!user.stripeCustomerId) return user;
  const result = await stripeCall(() =>
    syncCustomer(app.db, app.billing, user.stripeCustomerId!, { now: app.now() }),
  );
  return result.kind === 'synced' ? result.user : user;
}

/** The customer for this user, created (with the user's id in its metadata) on first need. */
async function ensureCustomer(app: FastifyInstance, user: User): Promise<string> {
  if (user.stripeCustomerId) return user.stripeCustomerId;
  const customer = await stripeCall(() =>
    app.billing.stripe.customers.create(
      { email: user.email, name: user.username, metadata: { userId: user.id } },
      // Two clicks at once get one customer (Stripe replays the first answer for 24 hours).
      { idempotencyKey: `schemacheck-customer-${user.id}` },
    ),
  );
  const [row] = await app.db
    .update(users)
    .set({ stripeCustomerId: customer.id })
    .where(and(eq(users.id, user.id), isNull(users.stripeCustomerId)))
    .returning({ id: users.stripeCustomerId });
  if (row?.id) return row.id;
  const [again] = await app.db.select().from(users).where(eq(users.id, user.id));
  return again!.stripeCustomerId!;
}

/** The user's live subscription as Stripe has it now, or null. */
async function liveSubscription(
  app: FastifyInstance,
  user: User,
): Promise<Stripe.Subscription | null> {
  if (!user.stripeSubscriptionId) return null;
  try {
    const sub = await stripeCall(() =>
      app.billing.stripe.subscriptions.retrieve(user.stripeSubscriptionId!),
    );
    return sub.status === 'canceled' || sub.status === 'incomplete_expired' ? null : sub;
  } catch (err) {
    if (isMissingResource(err)) return null;
    throw err;
  }
}

async function requireLiveSubscription(
  app: FastifyInstance,
  user: User,
): Promise<Stripe.Subscription> {
  const sub = await liveSubscription(app, user);
  if (!sub) {
    await sync(app, user);
    throw new AppError('no_subscription');
  }
  return sub;
}

export async function createCheckout(
  app: FastifyInstance,
  user: User,
  tier: PaidTier,
): Promise<RedirectResponse> {
  if (user.subscriptionTier === 'enterprise')
    throw new AppError('same_plan', {
      message: 'Your Enterprise plan is managed by our sales team.',
    });
  if (await liveSubscription(app, user)) throw new AppError('already_subscribed');
  const customer = await ensureCustomer(app, user);
  const appUrl = app.config.appUrl;
  const session = await stripeCall(() =>
    app.billing.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: user.id,
      line_items: [{ price: app.billing.prices[tier], quantity: 1 }],
      success_url: `${appUrl}/stripe/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${appUrl}/profile?upgrade=${tier}#plans`,
      metadata: { userId: user.id, tier },
      subscription_data: { metadata: { userId: user.id } },
    }),
  );
  if (!session.url) throw new Error('Stripe returned a Checkout Session without a url');
  return { url: session.url };
}

const SESSION_ID = /^cs_[A-Za-z0-9_]{1,250}$/;

/**
 * The payment return page: the session must belong to this user (404 otherwise, as for anything
 * of another user's); a completed one runs the same sync as the webhook.
 */
export async function checkoutResult(
  app: FastifyInstance,
  user: User,
  sessionId: string,
): Promise<CheckoutSessionResult> {
  if (!SESSION_ID.test(sessionId) || !user.stripeCustomerId) throw new AppError('not_found');
  let session: Stripe.Checkout.Session;
  try {
    session = await stripeCall(() => app.billing.stripe.checkout.sessions.retrieve(sessionId));
  } catch (err) {
    if (isMissingResource(err)) throw new AppError('not_found');
    throw err;
  }
  const customer = typeof session.customer === 'string' ? session.customer : session.customer?.id;
  if (customer !== user.stripeCustomerId || session.client_reference_id !== user.id) {
    throw new AppError('not_found');
  }
  if (session.status !== 'complete' || session.payment_status !== 'paid') {
    return { success: false, tier: user.subscriptionTier };
  }
  const synced = await sync(app, user);
  return { success: synced.subscriptionTier !== 'free', tier: synced.subscriptionTier };
}

/** Proration lines only: what the switch itself charges or credits. */
function prorationAmount(invoice: Stripe.Invoice): number {
  return invoice.lines.data
    .filter((l) => l.parent?.subscription_item_details?.proration === true)
    .reduce((sum, l) => sum + l.amount, 0);
}

export async function previewChange(
  app: FastifyInstance,
  user: User,
  tier: PaidTier,
): Promise<PlanChangePreview> {
  const sub = await requireLiveSubscription(app, user);
  const item = sub.items.data[0]!;
  if (tierOfPrice(app.billing, item.price.id) === tier) throw new AppError('same_plan');
  const invoice = await stripeCall(() =>
    app.billing.stripe.invoices.createPreview({
      customer: typeof sub.customer === 'string' ? sub.customer : sub.customer.id,
      subscription: sub.id,
      subscription_details: {
        items: [{ id: item.id, price: app.billing.prices[tier] }],
        proration_behavior: 'always_invoice',
      },
    }),
  );
  const prorationDate =
    invoice.parent?.subscription_details?.subscription_proration_date ??
    Math.floor(app.now().getTime() / 1000);
  const expiresAt = app.now().getTime() + QUOTE_TTL_MS;
  const quote = signQuote(app.config.sessionSecret, {
    userId: user.id,
    subscriptionId: sub.id,
    fromPrice: item.price.id,
    periodStart: item.current_period_start,
    tier,
    prorationDate,
    expiresAt,
  });
  return {
    tier,
    amountPence: prorationAmount(invoice),
    monthlyPence: PLANS[tier].pricePence!,
    currency: 'gbp',
    nextInvoiceDate: new Date(item.current_period_end * 1000).toISOString(),
    quote,
    quoteExpiresAt: new Date(expiresAt).toISOString(),
  };
}

/**
 * The proration time of a quote from previewChange, when it is genuine, fresh, this user's and
 * for exactly this change of this subscription as it is now; otherwise 409 preview_expired (the
 * price shown may no longer be the price, so the user must look again).
 */
function quotedProrationDate(
  app: FastifyInstance,
  user: User,
  sub: Stripe.Subscription,
  tier: PaidTier,
  quote: string,
): number {
  const claims = readQuote(app.config.sessionSecret, quote, app.now());
  const item = sub.items.data[0]!;
  const matches =
    claims !== null &&
    claims.userId === user.id &&
    claims.subscriptionId === sub.id &&
    claims.fromPrice === item.price.id &&
    claims.periodStart === item.current_period_start &&
    claims.tier === tier &&
    Number.isInteger(claims.prorationDate) &&
    claims.prorationDate >= item.current_period_start &&
    claims.prorationDate < item.current_period_end;
  if (!matches) throw new AppError('preview_expired');
  return claims.prorationDate;
}

/**
 * Between paid plans: the price changes now and the difference is invoiced at once (a charge, or
 * a credit for the next invoices); a declined card changes nothing. The proration time is the
 * confirmed preview's (from its signed quote) or, without a quote, Stripe's now. To Free: cancel
 * at the end of the period. A user without a subscription is refused: a plan is only ever bought
 * in Checkout.
 */
export async function changePlan(
  app: FastifyInstance,
  user: User,
  tier: 'free' | PaidTier,
  quote?: string,
): Promise<User> {
  if (tier === 'free') return cancelAtPeriodEnd(app, user);
  const sub = await requireLiveSubscription(app, user);
  const item = sub.items.data[0]!;
  if (tierOfPrice(app.billing, item.price.id) === tier) throw new AppError('same_plan');
  const prorationDate =
    quote === undefined ? undefined : quotedProrationDate(app, user, sub, tier, quote);
  await stripeCall(() =>
    app.billing.stripe.subscriptions.update(sub.id, {
      items: [{ id: item.id, price: app.billing.prices[tier] }],
      proration_behavior: 'always_invoice',
      ...(prorationDate ? { proration_date: prorationDate } : {}),
      payment_behavior: 'error_if_incomplete',
      cancel_at_period_end: false,
    }),
  );
  return sync(app, user);
}

export async function cancelAtPeriodEnd(app: FastifyInstance, user: User): Promise<User> {
  const sub = await requireLiveSubscription(app, user);
  if (!sub.cancel_at_period_end) {
    await stripeCall(() =>
      app.billing.stripe.subscriptions.update(sub.id, { cancel_at_period_end: true }),
    );
  }
  return sync(app, user);
}

export async function resume(app: FastifyInstance, user: User): Promise<User> {
  const sub = await requireLiveSubscription(app, user);
  if (sub.cancel_at_period_end) {
    await stripeCall(() =>
      app.billing.stripe.subscriptions.update(sub.id, { cancel_at_period_end: false }),
    );
  }
  return sync(app, user);
}

export async function portalUrl(app: FastifyInstance, user: User): Promise<RedirectResponse> {
  if (!user.stripeCustomerId)
    throw new AppError('no_subscription', {
      message: 'There is no billing account yet: choose a plan first.',
    });
  const session = await stripeCall(() =>
    app.billing.stripe.billingPortal.sessions.create({
      customer: user.stripeCustomerId!,
      return_url: `${app.config.appUrl}/profile`,
    }),
  );
  return { url: session.url };
}

/**
 * Before an account is deleted: delete the Stripe customer, which cancels its subscriptions at
 * once. If Stripe fails, this throws and nothing of the account is deleted; once it succeeds the
 * row no longer points at the customer, so a later failure cannot leave a paid plan behind.
 */
export async function deleteCustomer(app: FastifyInstance, user: User): Promise<void> {
  if (!user.stripeCustomerId) return;
  try {
    await stripeCall(() => app.billing.stripe.customers.del(user.stripeCustomerId!));
  } catch (err) {
    if (!isMissingResource(err)) throw err;
  }
  await app.db
    .update(users)
    .set({
      subscriptionTier: 'free',
      tierSource: 'stripe',
      stripeCustomerId: null,
      stripeSubscriptionId: null,
      subscriptionStatus: 'canceled',
      cancelAtPeriodEnd: false,
      currentPeriodEnd: null,
      pastDueSince: null,
    })
    .where(eq(users.id, user.id));
}
