import Fastify, { type FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  API_VERSION,
  checkCard,
  decodeForm,
  testModePages,
  TestModeStripe,
  type TestModeStore,
} from '../src/index.ts';

// The test-mode Stripe on its own, as an app sees it: the official `stripe` SDK talking HTTP to
// it on a loopback port, its Checkout page mounted on a Fastify app, and the events it sends
// checked with the SDK's own `webhooks.constructEvent`, the call a live app makes.

const PAGES_URL = 'http://app.test';
const PRICE = 'price_test_pro';

/** The store an app gives it (the server keeps the same text in its database). */
function memoryStore(): TestModeStore & { state: string | null; saves: number } {
  return {
    state: null,
    saves: 0,
    async load() {
      return this.state;
    },
    async save(state) {
      this.state = state;
      this.saves++;
    },
  };
}

interface Received {
  type: string;
  object: Record<string, unknown>;
}

/** A TestModeStripe started as the server starts it, with the SDK pointed at it. */
async function start(store: TestModeStore, received: Received[] = []) {
  const testMode = new TestModeStripe({
    pagesUrl: PAGES_URL,
    now: () => Math.floor(Date.now() / 1000),
    store,
    prices: [{ id: PRICE, lookupKey: 'pro_monthly', nickname: 'Pro', unitAmount: 900 }],
  });
  await testMode.load();
  const port = await testMode.listen();
  const sdk = (key: string) =>
    new Stripe(key, {
      apiVersion: API_VERSION as Stripe.LatestApiVersion,
      host: '127.0.0.1',
      port,
      protocol: 'http',
      maxNetworkRetries: 0,
      telemetry: false,
    });
  // The app's webhook: accepts only what the SDK verifies with the shared secret.
  testMode.setDeliver(async (payload, signature) => {
    const event = Stripe.webhooks.constructEvent(payload, signature, testMode.webhookSecret);
    received.push({
      type: event.type,
      object: event.data.object as unknown as Record<string, unknown>,
    });
    return { status: 200 };
  });
  const pages: FastifyInstance = Fastify();
  await pages.register(testModePages(testMode));
  return {
    testMode,
    stripe: sdk(testMode.secretKey),
    sdk,
    pages,
    received,
    async close() {
      await pages.close();
      await testMode.close();
    },
  };
}

type Started = Awaited<ReturnType<typeof start>>;

function pay(pages: FastifyInstance, sessionId: string, number: string) {
  return pages.inject({
    method: 'POST',
    url: `/test-mode/checkout/${sessionId}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ number, expiry: '12 / 34', cvc: '123', name: 'A' }).toString(),
  });
}

async function openCheckout(s: Started) {
  const customer = await s.stripe.customers.create({ email: 'buyer@example.com' });
  const session = await s.stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    line_items: [{ price: PRICE, quantity: 1 }],
    success_url: `${PAGES_URL}/stripe/success?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${PAGES_URL}/profile`,
    metadata: { userId: 'u1' },
  });
  return { customer, session };
}

let s: Started;
const store = memoryStore();

beforeAll(async () => {
  s = await start(store);
});

afterAll(async () => {
  await s?.close();
});

describe('checkout', () => {
  it('completes on its page and sends signed events that constructEvent accepts', async () => {
    const { customer, session } = await openCheckout(s);
    expect(session.url).toBe(`${PAGES_URL}/test-mode/checkout/${session.id}`);
    expect(session.status).toBe('open');

    const page = await s.pages.inject({ method: 'GET', url: `/test-mode/checkout/${session.id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('TEST MODE: no real payment is taken');
    expect(page.body).toContain('£9.00');

    s.received.length = 0;
    const paid = await pay(s.pages, session.id, '4242 4242 4242 4242');
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`${PAGES_URL}/stripe/success?session_id=${session.id}`);
    await s.testMode.settled();

    // Stripe's order, each one verified by the SDK with the webhook secret.
    expect(s.received.map((e) => e.type)).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'checkout.session.completed',
    ]);
    const completed = s.received[2]!.object;
    expect(completed).toMatchObject({ id: session.id, status: 'complete', customer: customer.id });

    const done = await s.stripe.checkout.sessions.retrieve(session.id);
    expect(done.status).toBe('complete');
    const sub = await s.stripe.subscriptions.retrieve(String(done.subscription));
    expect(sub.status).toBe('active');
    expect(sub.items.data[0]!.price.id).toBe(PRICE);
  });

  it('a delivered event fails verification with another secret or a changed body', async () => {
    const record = s.testMode.delivered.at(-1)!;
    expect(() =>
      Stripe.webhooks.constructEvent(record.payload, record.signature, 'whsec_other'),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(() =>
      Stripe.webhooks.constructEvent(
        record.payload.replace('complete', 'open'),
        record.signature,
        s.testMode.webhookSecret,
      ),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError);
  });

  it('a declined test card is refused with Stripe’s message and starts nothing', async () => {
    const { customer, session } = await openCheckout(s);
    const declined = await pay(s.pages, session.id, '4000 0000 0000 0002');
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Your card was declined.');
    expect((await s.stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
    const subs = await s.stripe.subscriptions.list({ customer: customer.id });
    expect(subs.data).toEqual([]);
  });
});

describe('the API', () => {
  it('answers a wrong key, an unknown object and an unknown URL as Stripe does', async () => {
    await expect(s.sdk('sk_test_wrong').customers.create({})).rejects.toBeInstanceOf(
      Stripe.errors.StripeAuthenticationError,
    );
    await expect(s.stripe.customers.retrieve('cus_missing')).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'resource_missing',
      statusCode: 404,
    });
    await expect(s.stripe.products.list()).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      message: 'Unrecognized request URL (GET: /v1/products).',
    });
  });

  it('finds a price by its lookup key', async () => {
    const prices = await s.stripe.prices.list({ lookup_keys: ['pro_monthly'] });
    expect(prices.data.map((p) => [p.id, p.unit_amount, p.currency])).toEqual([
      [PRICE, 900, 'gbp'],
    ]);
    expect((await s.stripe.prices.list({ lookup_keys: ['nope'] })).data).toEqual([]);
  });

  it('keeps its account in the store: a new start on the same store knows the subscription', async () => {
    const { session } = await openCheckout(s);
    expect((await pay(s.pages, session.id, '4242424242424242')).statusCode).toBe(303);
    expect(store.saves).toBeGreaterThan(0);

    const again = await start(store);
    try {
      const done = await again.stripe.checkout.sessions.retrieve(session.id);
      expect(done.status).toBe('complete');
      const sub = await again.stripe.subscriptions.retrieve(String(done.subscription));
      expect(sub.status).toBe('active');
    } finally {
      await again.close();
    }
  });

  it('retries an event the webhook did not accept', async () => {
    const testMode = new TestModeStripe({
      pagesUrl: PAGES_URL,
      now: () => Math.floor(Date.now() / 1000),
      prices: [],
      retryDelaysMs: [10],
    });
    const answers = [500, 200];
    testMode.setDeliver(async () => ({ status: answers.shift() ?? 200 }));
    try {
      testMode.account.createCustomer({ email: 'a@example.com' });
      await vi.waitFor(() =>
        expect(testMode.delivered.map((d) => [d.event.type, d.statuses])).toEqual([
          ['customer.created', [500, 200]],
        ]),
      );
    } finally {
      await testMode.close();
    }
  });
});

describe('its parts', () => {
  it('decodes Stripe’s bracketed form encoding, and no key reaches a prototype', () => {
    const decoded = decodeForm(
      'line_items[0][price]=price_x&line_items[0][quantity]=1&metadata[userId]=u1&expand[0]=a&__proto__[polluted]=1&constructor[prototype][p]=1',
    );
    expect(decoded).toMatchObject({
      line_items: [{ price: 'price_x', quantity: '1' }],
      metadata: { userId: 'u1' },
      expand: ['a'],
    });
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).p).toBeUndefined();
  });

  it('knows Stripe’s test cards and their messages', () => {
    const now = new Date('2026-03-10T12:00:00Z');
    const card = (number: string) => checkCard({ number, expiry: '12/30', cvc: '123' }, now);
    expect(card('4242 4242 4242 4242')).toMatchObject({ ok: true, last4: '4242' });
    expect(card('4000000000000341')).toMatchObject({ ok: true, card: { chargesFail: true } });
    expect(card('4000000000009995')).toMatchObject({
      ok: false,
      decline: { declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    });
    expect(card('4000000000000127')).toMatchObject({
      ok: false,
      decline: { code: 'incorrect_cvc' },
    });
    expect(card('4242424242424241')).toMatchObject({ ok: false, field: 'number' });
    // A real card number (Luhn-valid, not a test card) is refused as Stripe's test mode does.
    expect(card('4111111111111111')).toMatchObject({
      ok: false,
      decline: { declineCode: 'test_mode_live_card' },
    });
  });
});
