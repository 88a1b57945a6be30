import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import Stripe from 'stripe';
import {
  StripeApiError,
  TestAccount,
  type AccountState,
  type PriceDef,
  type StripeEvent,
} from './account.ts';
import { decodeForm } from './form.ts';

// Test mode's Stripe: the HTTP API the SDK reaches through its documented host/port/protocol
// options (loopback, http), over the TestAccount, plus the delivery of signed events to the
// app's webhook, signed with the SDK's own stripe.webhooks.generateTestHeaderString. Only the
// calls the app makes are routed; anything else is Stripe's 404 for an unknown URL. The account
// is read from its store at start and written back after every change (docs/decisions/127).

export interface DeliveryResult {
  status: number;
}

/** Posts one signed event to the app; returns the HTTP status (0 when unreachable). */
export type Deliver = (payload: string, signature: string) => Promise<DeliveryResult>;

export interface DeliveredEvent {
  event: StripeEvent;
  payload: string;
  /** The Stripe-Signature header of the last attempt. */
  signature: string;
  statuses: number[];
}

/**
 * Where the account's state lives between starts (the app keeps it in its database). Writes
 * come one at a time, in order; each holds the whole account.
 */
export interface TestModeStore {
  load(): Promise<string | null>;
  save(state: string): Promise<void>;
}

export interface TestModeOptions {
  pagesUrl: string;
  prices: PriceDef[];
  /** Now, in seconds since the epoch: where a new customer's test clock starts. */
  now: () => number;
  /** Without one the account lives in memory only (and is lost on close). */
  store?: TestModeStore;
  /** 'auto' delivers each event as soon as it exists; 'manual' queues them (tests). */
  delivery?: 'auto' | 'manual';
  /** Delays between retries of an event the app did not accept (ms). */
  retryDelaysMs?: number[];
  log?: { warn: (obj: object, msg: string) => void };
}

export class TestModeStripe {
  readonly secretKey = `sk_test_${randomBytes(18).toString('base64url')}`;
  readonly webhookSecret = `whsec_${randomBytes(24).toString('base64url')}`;
  readonly account: TestAccount;
  /** Every event delivered so far, in order (tests replay and reorder them). */
  readonly delivered: DeliveredEvent[] = [];
  /** Events waiting for delivery (manual mode, or the app not ready yet). */
  readonly queue: StripeEvent[] = [];
  private server: FastifyInstance | null = null;
  private deliverFn: Deliver | null = null;
  private chain: Promise<void> = Promise.resolve();
  private saving: Promise<void> = Promise.resolve();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;
  port = 0;

  constructor(private readonly options: TestModeOptions) {
    this.account = new TestAccount({
      pagesUrl: options.pagesUrl,
      prices: options.prices,
      now: options.now,
      onEvent: (event) => this.enqueue(event),
    });
  }

  get delivery(): 'auto' | 'manual' {
    return this.options.delivery ?? 'auto';
  }

  set delivery(mode: 'auto' | 'manual') {
    this.options.delivery = mode;
    if (mode === 'auto') void this.flush();
  }

  /** Where events go; until set, they wait in the queue. */
  setDeliver(fn: Deliver): void {
    this.deliverFn = fn;
    if (this.delivery === 'auto') void this.flush();
  }

  private enqueue(event: StripeEvent): void {
    this.queue.push(event);
    if (this.delivery === 'auto') void this.flush();
  }

  /**
   * Resolves once the events that exist now have had their first delivery attempt (auto mode).
   * The test-mode pages wait for it before they answer, so the app has heard of a change by
   * the time the person returns to it.
   */
  settled(): Promise<void> {
    return this.delivery === 'auto' ? this.flush() : Promise.resolve();
  }

  /** Delivers every queued event, one after another, in creation order. */
  flush(): Promise<void> {
    this.chain = this.chain.then(async () => {
      while (this.deliverFn && this.queue.length > 0 && !this.closed) {
        await this.deliverWithRetries(this.queue.shift()!);
      }
    });
    return this.chain;
  }

  /** Signs `payload` as Stripe does: t=<timestamp>,v1=HMAC-SHA256(secret, "t.payload"). */
  sign(payload: string, timestamp = Math.floor(Date.now() / 1000)): string {
    return Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: this.webhookSecret,
      timestamp,
    });
  }

  /** One delivery attempt of `event` (signed now); recorded in `delivered`. */
  async deliver(event: StripeEvent): Promise<number> {
    if (!this.deliverFn) throw new Error('No webhook endpoint to deliver to');
    const payload = JSON.stringify(event, null, 2);
    const signature = this.sign(payload);
    let record = this.delivered.find((d) => d.event.id === event.id);
    if (!record) {
      record = { event, payload, signature, statuses: [] };
      this.delivered.push(record);
    }
    record.signature = signature;
    let status = 0;
    try {
      status = (await this.deliverFn(payload, signature)).status;
    } catch {
      status = 0;
    }
    record.statuses.push(status);
    return status;
  }

  private async deliverWithRetries(event: StripeEvent): Promise<void> {
    const status = await this.deliver(event);
    if (status >= 200 && status < 300) return;
    const delays = this.options.retryDelaysMs ?? [1_000, 5_000, 25_000];
    const retry = (attempt: number) => {
      if (attempt >= delays.length || this.closed) {
        this.options.log?.warn(
          { eventId: event.id, type: event.type },
          'Test-mode event not accepted by the webhook',
        );
        return;
      }
      const timer = setTimeout(async () => {
        this.timers.delete(timer);
        const s = await this.deliver(event);
        if (s < 200 || s >= 300) retry(attempt + 1);
      }, delays[attempt]);
      timer.unref();
      this.timers.add(timer);
    };
    retry(0);
  }

  /** Reads the account's state from the store (before `listen`). */
  async load(): Promise<void> {
    const text = await this.options.store?.load();
    if (text) this.account.restore(JSON.parse(text) as AccountState);
  }

  /**
   * Writes the account as it is now to the store, after the writes before it; resolves once it
   * is written. Whatever changed the account awaits this before it answers, so a change that was
   * answered survives a restart.
   */
  commit(): Promise<void> {
    const store = this.options.store;
    if (!store) return Promise.resolve();
    // The state is taken now, synchronously, so each write holds every change made before it.
    const state = JSON.stringify(this.account.snapshot());
    const write = this.saving.catch(() => undefined).then(() => store.save(state));
    this.saving = write;
    return write;
  }

  /** Starts the API on a loopback port. */
  async listen(): Promise<number> {
    const app = Fastify({ logger: false, bodyLimit: 256 * 1024 });
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => done(null, decodeForm(body as string)),
    );
    app.setErrorHandler((err, _request, reply) => {
      if (err instanceof StripeApiError) return reply.code(err.status).send(err.toJSON());
      return reply
        .code(500)
        .send(new StripeApiError(500, 'api_error', (err as Error).message).toJSON());
    });
    app.setNotFoundHandler((request, reply) =>
      reply
        .code(404)
        .send(
          new StripeApiError(
            404,
            'invalid_request_error',
            `Unrecognized request URL (${request.method}: ${request.url.split('?')[0]}).`,
          ).toJSON(),
        ),
    );
    // A change is answered only once it is stored (GETs change nothing).
    app.addHook('onSend', async (request) => {
      if (request.method !== 'GET') await this.commit();
    });
    app.addHook('onRequest', async (request, reply) => {
      reply.header('request-id', `req_${randomBytes(8).toString('hex')}`);
      reply.header('stripe-version', request.headers['stripe-version'] ?? '');
      if (request.headers.authorization !== `Bearer ${this.secretKey}`) {
        throw new StripeApiError(
          401,
          'invalid_request_error',
          'Invalid API Key provided.',
          'api_key_invalid',
        );
      }
    });

    const a = this.account;
    const body = (r: FastifyRequest) => (r.body ?? {}) as Record<string, unknown>;
    const query = (r: FastifyRequest) =>
      decodeForm(r.url.includes('?') ? r.url.slice(r.url.indexOf('?') + 1) : '');
    const id = (r: FastifyRequest) => (r.params as { id: string }).id;

    app.get('/v1/prices', async (r) => a.listPrices(query(r)));
    app.post('/v1/customers', async (r) => a.createCustomer(body(r)));
    app.get('/v1/customers/:id', async (r) => a.retrieveCustomer(id(r)));
    app.delete('/v1/customers/:id', async (r) => a.deleteCustomer(id(r)));
    app.post('/v1/checkout/sessions', async (r) => a.createCheckoutSession(body(r)));
    app.get('/v1/checkout/sessions/:id', async (r) => a.retrieveCheckoutSession(id(r)));
    app.get('/v1/subscriptions', async (r) => a.listSubscriptions(query(r)));
    app.get('/v1/subscriptions/:id', async (r) => a.retrieveSubscription(id(r)));
    app.post('/v1/subscriptions/:id', async (r) => a.updateSubscription(id(r), body(r)));
    app.delete('/v1/subscriptions/:id', async (r) => a.cancelSubscription(id(r)));
    app.post('/v1/invoices/create_preview', async (r) => a.previewInvoice(body(r)));
    app.post('/v1/billing_portal/sessions', async (r) => a.createPortalSession(body(r)));
    app.get('/v1/test_helpers/test_clocks/:id', async (r) => a.retrieveClock(id(r)));
    app.post('/v1/test_helpers/test_clocks/:id/advance', async (r) =>
      a.advanceClock(id(r), Number(body(r).frozen_time)),
    );

    await app.listen({ port: 0, host: '127.0.0.1' });
    this.server = app;
    const address = app.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return this.port;
  }

  /** Stops delivering and closes the API (pending retries are dropped). */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await this.chain.catch(() => undefined);
    await this.saving.catch(() => undefined);
    await this.server?.close();
  }
}
