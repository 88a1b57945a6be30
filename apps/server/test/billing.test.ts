import { createServer } from 'node:net';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCard, type TestModeStripe } from '@schemacheck/stripe-test-mode';
import { liveBilling } from '../src/billing/gateway.ts';
import { BUSINESS_GRACE_MS, expireGracePeriods } from '../src/billing/sync.ts';
import { ConfigError } from '../src/config.ts';
import { stripeEvents, users } from '../src/db/schema.ts';
import {
  Client,
  clientsOf,
  createTestDatabase,
  LogCapture,
  newUser,
  removeTempDirs,
  startTestApp,
  STRONG_PASSWORD,
  type TestApp,
} from './helpers.ts';

// Billing end to end in test mode: the real Stripe SDK talking HTTP to the shipped Stripe-protocol
// server, Checkout paid on its page with Stripe's test cards, signed events delivered over HTTP to
// the app's webhook (the app listens on a loopback port), on PGlite or PostgreSQL.

let t: TestApp;
let client: () => Client;
let fake: TestModeStripe;
const DAY_S = 86_400;

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  client = clientsOf(t, 31);
  fake = t.app.billing.testMode!;
});

afterAll(async () => {
  await t?.close();
  removeTempDirs();
});

const db = () => t.db.database.db;

async function row(username: string) {
  const [u] = await db().select().from(users).where(eq(users.username, username));
  return u!;
}

async function signedUp() {
  const c = client();
  const u = await c.register(newUser('bill'));
  return { c, u };
}

function sessionIdOf(url: string): string {
  const m = /\/test-mode\/checkout\/(cs_test_\w+)$/.exec(url);
  if (!m) throw new Error(`not a test checkout url: ${url}`);
  return m[1]!;
}

/** Fills the test checkout page's form as a browser would. */
async function payOnPage(c: Client, sessionId: string, number = '4242 4242 4242 4242') {
  return c.request({
    method: 'POST',
    url: `/test-mode/checkout/${sessionId}`,
    csrf: false,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      number,
      expiry: '12 / 34',
      cvc: '123',
      name: 'A Tester',
    }).toString(),
  });
}

async function checkout(c: Client, tier: 'pro' | 'business') {
  const res = await c.post('/api/create-checkout-session', { tier });
  expect(res.statusCode, res.body).toBe(200);
  return sessionIdOf(res.json().url);
}

/** A user who bought `tier` through Checkout, with every event delivered. */
async function subscriber(tier: 'pro' | 'business') {
  const { c, u } = await signedUp();
  const id = await checkout(c, tier);
  const paid = await payOnPage(c, id);
  expect(paid.statusCode).toBe(303);
  await fake.flush();
  expect((await row(u.username)).subscriptionTier).toBe(tier);
  return { c, u, sessionId: id };
}

async function tierOf(c: Client): Promise<string> {
  return (await c.get('/api/auth/me')).json().user.subscriptionTier;
}

/** Signs and posts `payload` to the webhook like Stripe, optionally with another secret/time. */
function postEvent(payload: string, options: { secret?: string; timestamp?: number } = {}) {
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? fake.webhookSecret,
    ...(options.timestamp ? { timestamp: options.timestamp } : {}),
  });
  return t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
}

/** Moves the test clock of `username`'s Stripe customer (each customer has its own). */
async function advanceStripeClock(username: string, seconds: number) {
  const stripe = t.app.billing.stripe;
  const clock = await clockOf(username);
  await stripe.testHelpers.testClocks.advance(clock.id, {
    frozen_time: clock.frozen_time + seconds,
  });
}

async function clockOf(username: string) {
  const stripe = t.app.billing.stripe;
  const customer = await stripe.customers.retrieve((await row(username)).stripeCustomerId!);
  if (customer.deleted) throw new Error('customer deleted');
  return stripe.testHelpers.testClocks.retrieve(String(customer.test_clock));
}

async function eventCount(id: string) {
  return (await db().select().from(stripeEvents).where(eq(stripeEvents.id, id))).length;
}

describe('checkout', () => {
  it('pays on the test checkout page, and the webhook raises the plan', async () => {
    const { c, u } = await signedUp();
    const id = await checkout(c, 'pro');
    const before = await row(u.username);
    expect(before.stripeCustomerId).toMatch(/^cus_/);
    expect(before.subscriptionTier).toBe('free');

    const page = await c.get(`/test-mode/checkout/${id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('TEST MODE');
    expect(page.body).toContain('£12.00');
    expect(page.body).not.toMatch(/<script/i);

    const paid = await payOnPage(c, id);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`${t.config.appUrl}/stripe/success?session_id=${id}`);
    await fake.flush();
    const types = fake.delivered.slice(-3).map((d) => d.event.type);
    expect(types).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'checkout.session.completed',
    ]);
    expect(fake.delivered.slice(-3).every((d) => d.statuses.at(-1) === 200)).toBe(true);

    const after = await row(u.username);
    expect(after).toMatchObject({
      subscriptionTier: 'pro',
      tierSource: 'stripe',
      subscriptionStatus: 'active',
      cancelAtPeriodEnd: false,
    });
    expect(after.stripeSubscriptionId).toMatch(/^sub_/);
    // The period end comes from the subscription item (current API version).
    expect(after.currentPeriodEnd!.toISOString()).toBe('2026-04-10T12:00:00.000Z');
    expect(await tierOf(c)).toBe('pro');
    const usage = (await c.get('/api/auth/usage')).json();
    expect(usage.limit).toBe(500);
  });

  it('a declined card shows Stripe’s message and raises nothing', async () => {
    const { c, u } = await signedUp();
    const id = await checkout(c, 'pro');
    const declined = await payOnPage(c, id, '4000 0000 0000 0002');
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Your card was declined.');
    const funds = await payOnPage(c, id, '4000 0000 0000 9995');
    expect(funds.body).toContain('Your card has insufficient funds.');
    const wrong = await payOnPage(c, id, '4242 4242 4242 4241');
    expect(wrong.body).toContain('Your card number is incorrect.');
    await fake.flush();
    expect((await row(u.username)).subscriptionTier).toBe('free');
    expect((await c.get(`/api/stripe/session/${id}`)).json()).toEqual({
      success: false,
      tier: 'free',
    });
  });

  it('the payment return page activates the plan before the webhook arrives', async () => {
    fake.delivery = 'manual';
    try {
      const { c, u } = await signedUp();
      const id = await checkout(c, 'business');
      expect((await payOnPage(c, id)).statusCode).toBe(303);
      expect(fake.queue.length).toBeGreaterThan(0);
      expect((await row(u.username)).subscriptionTier).toBe('free');

      const res = await c.get(`/api/stripe/session/${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, tier: 'business' });
      expect((await row(u.username)).subscriptionTier).toBe('business');
    } finally {
      fake.delivery = 'auto';
      await fake.flush();
    }
  });

  it('refuses another user’s session, signed-out callers and made-up ids', async () => {
    const a = await subscriber('pro');
    const { c: other } = await signedUp();
    // The other user needs a customer of their own to get past the first check.
    await checkout(other, 'pro');
    expect((await other.get(`/api/stripe/session/${a.sessionId}`)).statusCode).toBe(404);
    expect((await client().get(`/api/stripe/session/${a.sessionId}`)).statusCode).toBe(401);
    expect((await a.c.get('/api/stripe/session/cs_test_nope')).statusCode).toBe(404);
    expect((await a.c.get('/api/stripe/session/..%2Fv1%2Fcustomers')).statusCode).toBe(404);
  });

  it('never raises a plan without a payment', async () => {
    const { c, u } = await signedUp();
    const change = await c.request({
      method: 'PATCH',
      url: '/api/auth/subscription',
      payload: { tier: 'business' },
    });
    expect(change.statusCode).toBe(409);
    expect(change.json().code).toBe('no_subscription');
    expect((await c.post('/api/create-checkout-session', { tier: 'enterprise' })).statusCode).toBe(
      400,
    );
    const id = await checkout(c, 'pro');
    // An open (unpaid) session verifies as not paid.
    expect((await c.get(`/api/stripe/session/${id}`)).json()).toEqual({
      success: false,
      tier: 'free',
    });
    // A made-up event with a made-up signature is refused.
    const forged = JSON.stringify({
      id: 'evt_forged',
      type: 'checkout.session.completed',
      data: { object: { customer: (await row(u.username)).stripeCustomerId } },
    });
    expect((await postEvent(forged, { secret: 'whsec_not_the_secret' })).statusCode).toBe(400);
    // Without a CSRF token nothing changes either.
    expect(
      (await c.post('/api/create-checkout-session', { tier: 'pro' }, { csrf: false })).statusCode,
    ).toBe(403);
    expect((await row(u.username)).subscriptionTier).toBe('free');
    expect(await tierOf(c)).toBe('free');
  });

  it('refuses a second Checkout for a subscriber', async () => {
    const { c } = await subscriber('pro');
    const res = await c.post('/api/create-checkout-session', { tier: 'business' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('already_subscribed');
  });
});

describe('webhook', () => {
  it('refuses a bad signature, a changed body and a missing header, and changes nothing', async () => {
    const { u } = await subscriber('pro');
    const customer = (await row(u.username)).stripeCustomerId!;
    const payload = JSON.stringify({
      id: 'evt_bad_sig_1',
      object: 'event',
      type: 'customer.subscription.deleted',
      data: { object: { customer } },
    });
    const wrong = await postEvent(payload, { secret: 'whsec_wrong' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      error: 'Invalid Stripe signature',
      code: 'invalid_signature',
    });

    const header = fake.sign(payload);
    const tampered = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      payload: payload.replace('deleted', 'updated'),
    });
    expect(tampered.statusCode).toBe(400);
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(none.statusCode).toBe(400);
    expect(await eventCount('evt_bad_sig_1')).toBe(0);
    expect((await row(u.username)).subscriptionTier).toBe('pro');
  });

  it('refuses a replay of an old signed event (timestamp outside the tolerance)', async () => {
    const { u } = await subscriber('pro');
    const old = fake.delivered.at(-1)!;
    const stale = await postEvent(old.payload, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(stale.statusCode).toBe(400);
    expect(await eventCount(old.event.id)).toBe(1);
    expect((await row(u.username)).subscriptionTier).toBe('pro');
  });

  it('handles a duplicate delivery once', async () => {
    const { u } = await subscriber('pro');
    const last = fake.delivered.at(-1)!;
    expect(last.event.type).toBe('checkout.session.completed');
    // Pretend something else changed the row since; a second handling would sync it back.
    await db()
      .update(users)
      .set({ subscriptionTier: 'free' })
      .where(eq(users.username, u.username));
    const again = await postEvent(last.payload);
    expect(again.statusCode).toBe(200);
    expect(await eventCount(last.event.id)).toBe(1);
    expect((await row(u.username)).subscriptionTier).toBe('free');
    // A new event is handled (and syncs from Stripe).
    const fresh = JSON.stringify({ ...last.event, id: 'evt_fresh_after_duplicate' });
    expect((await postEvent(fresh)).statusCode).toBe(200);
    expect((await row(u.username)).subscriptionTier).toBe('pro');
  });

  it('is safe against out-of-order delivery: an old "updated" after "deleted" keeps Free', async () => {
    const { c, u } = await subscriber('pro');
    fake.delivery = 'manual';
    try {
      expect((await c.post('/api/cancel-subscription')).statusCode).toBe(200);
      await advanceStripeClock(u.username, 40 * DAY_S);
      const updated = fake.queue.find((e) => e.type === 'customer.subscription.updated')!;
      const deleted = fake.queue.find((e) => e.type === 'customer.subscription.deleted')!;
      expect(updated && deleted).toBeTruthy();
      fake.queue.splice(0);
      expect(await fake.deliver(deleted)).toBe(200);
      expect((await row(u.username)).subscriptionTier).toBe('free');
      // The stale "updated" still says active, cancel_at_period_end: true.
      expect((updated.data.object as { status: string }).status).toBe('active');
      expect(await fake.deliver(updated)).toBe(200);
      const after = await row(u.username);
      expect(after.subscriptionTier).toBe('free');
      expect(after.stripeSubscriptionId).toBeNull();
      expect(after.subscriptionStatus).toBe('canceled');
    } finally {
      fake.delivery = 'auto';
    }
  });

  it('records and answers 200 for events it does not act on', async () => {
    const payload = JSON.stringify({
      id: 'evt_other_type',
      object: 'event',
      type: 'charge.refunded',
      data: { object: { id: 'ch_1' } },
    });
    expect((await postEvent(payload)).statusCode).toBe(200);
    expect(await eventCount('evt_other_type')).toBe(1);
  });
});

describe('plan changes', () => {
  it('previews and makes an upgrade with proration, charging exactly the preview', async () => {
    const { c, u } = await subscriber('pro');
    await advanceStripeClock(u.username, 15 * DAY_S);
    const preview = await c.post('/api/auth/subscription/preview', { tier: 'business' });
    expect(preview.statusCode, preview.body).toBe(200);
    const p = preview.json();
    const customer = (await row(u.username)).stripeCustomerId!;
    const sub = await t.app.billing.stripe.subscriptions.retrieve(
      (await row(u.username)).stripeSubscriptionId!,
    );
    const item = sub.items.data[0]!;
    const left =
      (item.current_period_end - (await clockOf(u.username)).frozen_time) /
      (item.current_period_end - item.current_period_start);
    expect(p.amountPence).toBe(Math.round(3900 * left) - Math.round(1200 * left));
    expect(p.amountPence).toBeGreaterThan(0);
    expect(p.amountPence).toBeLessThan(2700);
    expect(p.monthlyPence).toBe(3900);
    expect(p.nextInvoiceDate).toBe(new Date(item.current_period_end * 1000).toISOString());

    const change = await c.request({
      method: 'PATCH',
      url: '/api/auth/subscription',
      payload: { tier: 'business', quote: p.quote },
    });
    expect(change.statusCode, change.body).toBe(200);
    expect(change.json()).toMatchObject({
      tier: 'business',
      status: 'active',
      subscribedTier: 'business',
    });
    expect(await tierOf(c)).toBe('business');
    const invoice = fake.account.listInvoices(customer)[0]!;
    expect(invoice.billing_reason).toBe('subscription_update');
    expect(invoice.amount_paid).toBe(p.amountPence);

    // Down again: a credit, not a charge.
    const down = (await c.post('/api/auth/subscription/preview', { tier: 'pro' })).json();
    expect(down.amountPence).toBeLessThan(0);
    const same = await c.post('/api/auth/subscription/preview', { tier: 'business' });
    expect(same.json().code).toBe('same_plan');
  });

  it('a declined card on an upgrade changes nothing', async () => {
    const { c, u } = await subscriber('pro');
    const portal = (await c.post('/api/billing-portal')).json().url as string;
    const portalId = /\/test-mode\/portal\/(bps_\w+)$/.exec(portal)![1]!;
    const update = await c.request({
      method: 'POST',
      url: `/test-mode/portal/${portalId}/card`,
      csrf: false,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'number=4000000000000341&expiry=12%2F34&cvc=123',
    });
    expect(update.statusCode).toBe(200);
    const change = await c.request({
      method: 'PATCH',
      url: '/api/auth/subscription',
      payload: { tier: 'business' },
    });
    expect(change.statusCode).toBe(402);
    expect(change.json()).toMatchObject({
      error: 'Your card was declined.',
      code: 'payment_failed',
    });
    expect((await row(u.username)).subscriptionTier).toBe('pro');
  });

  it('cancels at period end, resumes, and drops to Free when the period ends', async () => {
    const { c, u } = await subscriber('pro');
    const cancel = await c.post('/api/cancel-subscription');
    expect(cancel.statusCode).toBe(200);
    const state = cancel.json();
    expect(state).toMatchObject({ tier: 'pro', status: 'active', cancelAtPeriodEnd: true });
    await fake.flush();
    expect((await row(u.username)).cancelAtPeriodEnd).toBe(true);

    const resumed = (await c.post('/api/resume-subscription')).json();
    expect(resumed.cancelAtPeriodEnd).toBe(false);
    // To Free through the plan change is the same cancellation.
    const toFree = await c.request({
      method: 'PATCH',
      url: '/api/auth/subscription',
      payload: { tier: 'free' },
    });
    expect(toFree.json()).toMatchObject({ tier: 'pro', cancelAtPeriodEnd: true });

    await advanceStripeClock(u.username, 10 * DAY_S);
    await fake.flush();
    expect(await tierOf(c)).toBe('pro');
    await advanceStripeClock(u.username, 25 * DAY_S);
    await fake.flush();
    expect(await tierOf(c)).toBe('free');
    expect((await c.get('/api/auth/usage')).json().limit).toBe(100);
    const after = (await c.get('/api/auth/subscription')).json();
    expect(after).toMatchObject({
      tier: 'free',
      status: 'none',
      cancelAtPeriodEnd: false,
      canManageBilling: true,
    });
    expect((await c.post('/api/cancel-subscription')).json().code).toBe('no_subscription');
  });

  it('a failed renewal marks the plan past due; Business keeps its limits for the grace period', async () => {
    const { c, u } = await subscriber('business');
    const portal = (await c.post('/api/billing-portal')).json().url as string;
    const portalId = /\/test-mode\/portal\/(bps_\w+)$/.exec(portal)![1]!;
    const card = (number: string) =>
      c.request({
        method: 'POST',
        url: `/test-mode/portal/${portalId}/card`,
        csrf: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ number, expiry: '12/34', cvc: '123' }).toString(),
      });
    expect((await card('4000 0000 0000 0341')).statusCode).toBe(200);
    await advanceStripeClock(u.username, 31 * DAY_S);
    await fake.flush();
    expect(fake.delivered.some((d) => d.event.type === 'invoice.payment_failed')).toBe(true);
    const pastDue = await row(u.username);
    expect(pastDue.subscriptionStatus).toBe('past_due');
    expect(pastDue.pastDueSince).not.toBeNull();
    expect(pastDue.subscriptionTier).toBe('business');
    const state = (await c.get('/api/auth/subscription')).json();
    expect(state.status).toBe('past_due');
    expect(state.graceEndsAt).toBe(
      new Date(pastDue.pastDueSince!.getTime() + BUSINESS_GRACE_MS).toISOString(),
    );

    t.clock.advance(BUSINESS_GRACE_MS - 60_000);
    expect(await expireGracePeriods(db(), t.clock.now())).toBe(0);
    t.clock.advance(120_000);
    expect(await expireGracePeriods(db(), t.clock.now())).toBeGreaterThanOrEqual(1);
    // A week passed: the session has timed out, so sign in again.
    c.csrfToken = null;
    expect((await c.login(u.username, STRONG_PASSWORD)).statusCode).toBe(200);
    expect(await tierOf(c)).toBe('free');
    expect((await c.get('/api/auth/subscription')).json().subscribedTier).toBe('business');

    // Paying with a working card settles the invoice and restores the plan.
    expect((await card('4242 4242 4242 4242')).body).toContain('Your card was updated.');
    await fake.flush();
    const paid = await row(u.username);
    expect(paid).toMatchObject({
      subscriptionTier: 'business',
      subscriptionStatus: 'active',
      pastDueSince: null,
    });
  });

  it('a failed Pro renewal drops to Free limits at once', async () => {
    const { c, u } = await subscriber('pro');
    const portalId = /(bps_\w+)$/.exec((await c.post('/api/billing-portal')).json().url)![1]!;
    await c.request({
      method: 'POST',
      url: `/test-mode/portal/${portalId}/card`,
      csrf: false,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'number=4000000000000341&expiry=12%2F34&cvc=123',
    });
    await advanceStripeClock(u.username, 31 * DAY_S);
    await fake.flush();
    expect(await tierOf(c)).toBe('free');
    expect((await c.get('/api/auth/subscription')).json()).toMatchObject({
      status: 'past_due',
      subscribedTier: 'pro',
      graceEndsAt: null,
    });
  });
});

describe('plans set by an operator', () => {
  it('a sync keeps a plan set with set-tier while there is no subscription', async () => {
    const { c, u } = await signedUp();
    await checkout(c, 'pro'); // a customer, never paid
    await db()
      .update(users)
      .set({ subscriptionTier: 'enterprise', tierSource: 'operator' })
      .where(eq(users.username, u.username));
    const customer = (await row(u.username)).stripeCustomerId!;
    const payload = JSON.stringify({
      id: 'evt_operator_kept',
      object: 'event',
      type: 'customer.subscription.updated',
      data: { object: { customer } },
    });
    expect((await postEvent(payload)).statusCode).toBe(200);
    expect(await eventCount('evt_operator_kept')).toBe(1);
    expect(await row(u.username)).toMatchObject({
      subscriptionTier: 'enterprise',
      tierSource: 'operator',
    });
    expect((await c.get('/api/auth/subscription')).json()).toMatchObject({
      tier: 'enterprise',
      status: 'none',
      setByOperator: true,
    });
    // The same event for a tier Stripe set puts the user back on Free.
    await db().update(users).set({ tierSource: 'stripe' }).where(eq(users.username, u.username));
    expect(
      (await postEvent(payload.replace('evt_operator_kept', 'evt_operator_gone'))).statusCode,
    ).toBe(200);
    expect((await row(u.username)).subscriptionTier).toBe('free');
  });
});

describe('account deletion', () => {
  it('deletes the Stripe customer, which cancels the subscription at once', async () => {
    const { c, u } = await subscriber('pro');
    const { stripeCustomerId, stripeSubscriptionId } = await row(u.username);
    const res = await c.post('/api/delete-account', { password: STRONG_PASSWORD });
    expect(res.statusCode).toBe(200);
    await fake.flush();
    const sub = await t.app.billing.stripe.subscriptions.retrieve(stripeSubscriptionId!);
    expect(sub.status).toBe('canceled');
    const customer = await t.app.billing.stripe.customers.retrieve(stripeCustomerId!);
    expect(customer.deleted).toBe(true);
    expect(await db().select().from(users).where(eq(users.username, u.username))).toHaveLength(0);
  });

  it('keeps the whole account when Stripe cannot be reached', async () => {
    const { c, u } = await subscriber('pro');
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const port = (probe.address() as { port: number }).port;
        probe.close(() => resolve(port));
      });
    });
    const real = t.app.billing.stripe;
    t.app.billing.stripe = new Stripe(fake.secretKey, {
      host: '127.0.0.1',
      port: closedPort,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    try {
      const res = await c.post('/api/delete-account', { password: STRONG_PASSWORD });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('billing_unavailable');
    } finally {
      t.app.billing.stripe = real;
    }
    expect(await tierOf(c)).toBe('pro');
    const kept = await row(u.username);
    expect(kept.stripeCustomerId).toMatch(/^cus_/);
    const sub = await real.subscriptions.retrieve(kept.stripeSubscriptionId!);
    expect(sub.status).toBe('active');
  });
});

describe('live configuration', () => {
  it('takes the plans’ prices by id or by lookup key, and names a lookup key that has no price', async () => {
    // The SDK pointed at the shipped Stripe-protocol server, as at a real account.
    const stripe = () => t.app.billing.stripe;
    const config = (pro: string, business: string) => ({
      secretKey: fake.secretKey,
      webhookSecret: fake.webhookSecret,
      prices: { pro, business },
    });
    const ids = t.app.billing.prices;
    const byKey = await liveBilling(config('pro_monthly', 'business_monthly'), stripe());
    expect(byKey.prices).toEqual(ids);
    const byId = await liveBilling(config(ids.pro, ids.business), stripe());
    expect(byId.prices).toEqual(ids);
    const missing = liveBilling(config('pro_monthly', 'business_yearly'), stripe());
    await expect(missing).rejects.toThrow(ConfigError);
    await expect(missing).rejects.toThrow(
      'STRIPE_PRICE_BUSINESS: no active Stripe price has the lookup key "business_yearly"',
    );
  });
});

/** PATCH /api/auth/subscription with `payload` as `c`. */
function patchPlan(c: Client, payload: object) {
  return c.request({ method: 'PATCH', url: '/api/auth/subscription', payload });
}

/** The quote's payload with `change` applied, signed with a key that is not the server's. */
function forgeQuote(quote: string, change: Record<string, unknown>): string {
  const [body, mac] = quote.split('.');
  const claims = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8'));
  const forged = Buffer.from(JSON.stringify({ ...claims, ...change })).toString('base64url');
  return `${forged}.${mac}`;
}

describe('the proration date is the server’s', () => {
  it('a client integer cannot make an upgrade free: the charge is the server’s', async () => {
    const { c, u } = await subscriber('pro');
    await advanceStripeClock(u.username, 10 * DAY_S);
    const before = await row(u.username);
    const sub = await t.app.billing.stripe.subscriptions.retrieve(before.stripeSubscriptionId!);
    const periodEnd = sub.items.data[0]!.current_period_end;
    const preview = (await c.post('/api/auth/subscription/preview', { tier: 'business' })).json();
    expect(preview.amountPence).toBeGreaterThan(0);
    // The period's last second as the proration date would make the upgrade cost nothing.
    const change = await patchPlan(c, { tier: 'business', prorationDate: periodEnd });
    expect(change.statusCode, change.body).toBe(200);
    const invoice = fake.account.listInvoices(before.stripeCustomerId!)[0]!;
    expect(invoice.billing_reason).toBe('subscription_update');
    expect(invoice.amount_paid).toBe(preview.amountPence);
  });

  it('a forged, another user’s or an old quote is refused and charges nothing', async () => {
    const { c, u } = await subscriber('pro');
    const other = await subscriber('pro');
    await advanceStripeClock(u.username, 10 * DAY_S);
    const customer = (await row(u.username)).stripeCustomerId!;
    const sub = await t.app.billing.stripe.subscriptions.retrieve(
      (await row(u.username)).stripeSubscriptionId!,
    );
    const periodEnd = sub.items.data[0]!.current_period_end;
    const p = (await c.post('/api/auth/subscription/preview', { tier: 'business' })).json();
    expect(typeof p.quote).toBe('string');
    expect(p).not.toHaveProperty('prorationDate');
    const invoicesBefore = fake.account.listInvoices(customer).length;

    // The quote's date moved to the period's end (which would make the upgrade free).
    const forged = forgeQuote(p.quote, { prorationDate: periodEnd });
    const refused = await patchPlan(c, { tier: 'business', quote: forged });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('preview_expired');
    expect(await patchPlan(c, { tier: 'business', quote: 'nonsense' })).toMatchObject({
      statusCode: 409,
    });
    // Another user's genuine quote is not this user's.
    const theirs = (
      await other.c.post('/api/auth/subscription/preview', { tier: 'business' })
    ).json();
    expect((await patchPlan(c, { tier: 'business', quote: theirs.quote })).statusCode).toBe(409);
    // A quote for another plan is not this change's.
    expect((await patchPlan(c, { tier: 'pro', quote: p.quote })).statusCode).toBe(409);
    // A genuine quote older than its life is refused too.
    t.clock.advance(11 * 60_000);
    const old = await patchPlan(c, { tier: 'business', quote: p.quote });
    expect(old.statusCode).toBe(409);
    expect(old.json().code).toBe('preview_expired');
    expect(fake.account.listInvoices(customer)).toHaveLength(invoicesBefore);
    expect((await row(u.username)).subscriptionTier).toBe('pro');

    // A fresh quote charges exactly what its preview showed.
    const fresh = (await c.post('/api/auth/subscription/preview', { tier: 'business' })).json();
    const ok = await patchPlan(c, { tier: 'business', quote: fresh.quote });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(fake.account.listInvoices(customer)[0]!.amount_paid).toBe(fresh.amountPence);
    // A quote is used once: the plan it priced has changed.
    expect((await patchPlan(c, { tier: 'business', quote: fresh.quote })).statusCode).toBe(409);
  });
});

describe('test mode', () => {
  it('keeps its Stripe account across a restart on the same data', async () => {
    const shared = await createTestDatabase();
    let first: TestApp | null = await startTestApp({ db: shared });
    let second: TestApp | null = null;
    try {
      const c1 = new Client(first.app, '10.77.0.1');
      const u = await c1.register(newUser('restart'));
      const id = sessionIdOf(
        (await c1.post('/api/create-checkout-session', { tier: 'pro' })).json().url,
      );
      expect((await payOnPage(c1, id)).statusCode).toBe(303);
      await first.app.billing.testMode!.flush();
      // A billing-portal session, and another user's Checkout left open, from before the restart.
      const portal = (await c1.post('/api/billing-portal')).json().url as string;
      const later = new Client(first.app, '10.77.0.3');
      const v = await later.register(newUser('restart'));
      const openId = sessionIdOf(
        (await later.post('/api/create-checkout-session', { tier: 'business' })).json().url,
      );
      await first.close();
      first = null;

      second = await startTestApp({ db: shared });
      const c2 = new Client(second.app, '10.77.0.2');
      expect((await c2.login(u.username, STRONG_PASSWORD)).statusCode).toBe(200);
      const state = (await c2.get('/api/auth/subscription')).json();
      expect(state).toMatchObject({ tier: 'pro', status: 'active', subscribedTier: 'pro' });
      // The portal link from before the restart, and a new one, still open.
      const oldPortal = await c2.get(new URL(portal).pathname);
      expect(oldPortal.statusCode).toBe(200);
      expect(oldPortal.body).toContain('SchemaCheck Pro');
      const newPortal = await c2.post('/api/billing-portal');
      expect(newPortal.statusCode).toBe(200);
      expect((await c2.get(new URL(newPortal.json().url).pathname)).statusCode).toBe(200);
      // The subscription is still Stripe's: a priced change and a cancellation work.
      const preview = await c2.post('/api/auth/subscription/preview', { tier: 'business' });
      expect(preview.statusCode, preview.body).toBe(200);
      const change = await patchPlan(c2, { tier: 'business', quote: preview.json().quote });
      expect(change.statusCode, change.body).toBe(200);
      expect((await c2.post('/api/cancel-subscription')).json()).toMatchObject({
        tier: 'business',
        cancelAtPeriodEnd: true,
      });
      // The open Checkout can still be paid, and raises that user's plan.
      expect((await c2.get(`/test-mode/checkout/${openId}`)).statusCode).toBe(200);
      expect((await payOnPage(c2, openId)).statusCode).toBe(303);
      await second.app.billing.testMode!.flush();
      const [paidLater] = await second.db.database.db
        .select()
        .from(users)
        .where(eq(users.username, v.username));
      expect(paidLater!.subscriptionTier).toBe('business');
      // Invoice numbers go on from where they were.
      const customer = (
        await second.db.database.db.select().from(users).where(eq(users.username, u.username))
      )[0]!.stripeCustomerId!;
      const numbers = second.app.billing
        .testMode!.account.listInvoices(customer)
        .map((i) => i.number);
      expect(new Set(numbers).size).toBe(numbers.length);
    } finally {
      await first?.close();
      await second?.close();
      await shared.drop();
    }
  });

  it('gives each customer its own test clock', async () => {
    const a = await subscriber('pro');
    const b = await subscriber('pro');
    const clockA = await clockOf(a.u.username);
    const clockB = await clockOf(b.u.username);
    expect(clockA.id).not.toBe(clockB.id);
    const aBefore = await row(a.u.username);
    const bBefore = await row(b.u.username);
    // B's card would fail a renewal: if B's period ended, B would be past due.
    const portalB = /(bps_\w+)$/.exec((await b.c.post('/api/billing-portal')).json().url)![1]!;
    await b.c.request({
      method: 'POST',
      url: `/test-mode/portal/${portalB}/card`,
      csrf: false,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'number=4000000000000341&expiry=12%2F34&cvc=123',
    });
    // A advances to the end of A's period on the billing page.
    const portalA = /(bps_\w+)$/.exec((await a.c.post('/api/billing-portal')).json().url)![1]!;
    const advanced = await a.c.request({
      method: 'POST',
      url: `/test-mode/portal/${portalA}/advance`,
      csrf: false,
    });
    expect(advanced.statusCode).toBe(303);
    await fake.flush();
    // A's period renewed: a month later.
    expect((await row(a.u.username)).currentPeriodEnd!.getTime()).toBeGreaterThan(
      aBefore.currentPeriodEnd!.getTime() + 27 * DAY_S * 1000,
    );
    expect((await clockOf(a.u.username)).frozen_time).toBeGreaterThan(clockA.frozen_time);
    // B's clock, period and status have not moved.
    expect((await clockOf(b.u.username)).frozen_time).toBe(clockB.frozen_time);
    expect(await row(b.u.username)).toMatchObject({
      subscriptionTier: 'pro',
      subscriptionStatus: 'active',
      currentPeriodEnd: bBefore.currentPeriodEnd,
    });
    expect(fake.account.listInvoices(bBefore.stripeCustomerId!)).toHaveLength(1);
  });
});

describe('a malformed event with a valid signature', () => {
  it('is answered 400 and logged, and nothing is recorded', async () => {
    const logs = new LogCapture();
    const own = await startTestApp({ env: { LOG_LEVEL: 'info' }, deps: { logStream: logs } });
    try {
      const secret = own.app.billing.webhookSecret;
      const post = (payload: string) =>
        own.app.inject({
          method: 'POST',
          url: '/api/stripe/webhook',
          headers: {
            'content-type': 'application/json',
            'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }),
          },
          payload,
        });
      const bad = [
        'null',
        '[]',
        '"evt"',
        '{}',
        JSON.stringify({ id: 'evt_no_type', data: { object: {} } }),
        JSON.stringify({ id: 42, type: 'invoice.paid', data: { object: { customer: 'cus_1' } } }),
        JSON.stringify({ id: 'evt_no_data', type: 'invoice.paid', data: null }),
        JSON.stringify({ id: 'evt_no_object', type: 'invoice.paid', data: {} }),
        JSON.stringify({ id: 'evt_\u0000nul', type: 'charge.refunded', data: { object: {} } }),
        JSON.stringify({
          id: `evt_${'x'.repeat(300)}`,
          type: 'charge.refunded',
          data: { object: {} },
        }),
        JSON.stringify({
          id: 'evt_bad_customer',
          type: 'invoice.paid',
          data: { object: { customer: 'cus_\u0000' } },
        }),
      ];
      for (const payload of bad) {
        const res = await post(payload);
        expect(res.statusCode, payload).toBe(400);
        expect(res.json().code, payload).toBe('invalid_event');
      }
      expect(await own.db.database.db.select().from(stripeEvents)).toHaveLength(0);
      const warnings = logs.lines.filter((l) => l.includes('Malformed Stripe event'));
      expect(warnings).toHaveLength(bad.length);
      // A well-formed event still gets 200.
      const good = JSON.stringify({
        id: 'evt_fine',
        object: 'event',
        type: 'charge.refunded',
        data: { object: { id: 'ch_1' } },
      });
      expect((await post(good)).statusCode).toBe(200);
    } finally {
      await own.close();
    }
  });
});

describe('test cards', () => {
  it('4000 0000 0000 0341 pays at checkout and fails at renewal', async () => {
    const { c, u } = await signedUp();
    const id = await checkout(c, 'pro');
    const paid = await payOnPage(c, id, '4000 0000 0000 0341');
    expect(paid.statusCode, paid.body).toBe(303);
    await fake.flush();
    expect(await row(u.username)).toMatchObject({
      subscriptionTier: 'pro',
      subscriptionStatus: 'active',
    });
    await advanceStripeClock(u.username, 31 * DAY_S);
    await fake.flush();
    expect(await row(u.username)).toMatchObject({ subscriptionStatus: 'past_due' });
    expect(fake.delivered.some((d) => d.event.type === 'invoice.payment_failed')).toBe(true);
  });

  it('4000 0000 0000 0002 is declined at once', async () => {
    const { c, u } = await signedUp();
    const id = await checkout(c, 'pro');
    const declined = await payOnPage(c, id, '4000 0000 0000 0002');
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Your card was declined.');
    expect((await row(u.username)).subscriptionTier).toBe('free');
  });

  it('takes the expiry as MM/YY, MMYY or MM / YY, in the future only', async () => {
    const now = new Date('2026-03-10T12:00:00Z');
    const card = (expiry: string) =>
      checkCard({ number: '4242424242424242', expiry, cvc: '123' }, now);
    for (const expiry of ['1230', '12/30', '12 / 30', '12/2030', ' 12 /30 ', '0326', '3/27']) {
      const check = card(expiry);
      expect(check.ok, expiry).toBe(true);
    }
    expect(card('1230')).toMatchObject({ ok: true, expMonth: 12, expYear: 2030 });
    expect(card('0326')).toMatchObject({ ok: true, expMonth: 3, expYear: 2026 });
    for (const expiry of ['0226', '02/26', '12/25']) {
      expect(card(expiry)).toMatchObject({ ok: false, field: 'expiry' });
      expect(card(expiry).ok === false && card(expiry)).toMatchObject({
        decline: { message: "Your card's expiration date is in the past." },
      });
    }
    for (const expiry of ['', '1', '123', '13/30', '00/30', '12/3', '12-30x', '1230 1']) {
      expect(card(expiry), expiry).toMatchObject({ ok: false, field: 'expiry' });
    }

    // On the checkout page, as typed in a browser.
    const { c, u } = await signedUp();
    const id = await checkout(c, 'pro');
    const paid = await c.request({
      method: 'POST',
      url: `/test-mode/checkout/${id}`,
      csrf: false,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        number: '4242424242424242',
        expiry: '1230',
        cvc: '123',
      }).toString(),
    });
    expect(paid.statusCode, paid.body).toBe(303);
    await fake.flush();
    expect((await row(u.username)).subscriptionTier).toBe('pro');
  });
});
