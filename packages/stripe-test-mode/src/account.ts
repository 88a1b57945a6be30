import { randomBytes } from 'node:crypto';
import { CHARGE_FAILED, type CardDecline } from './cards.ts';

// The Stripe account behind test mode: customers, two monthly GBP prices, Checkout Sessions,
// subscriptions, invoices, a test clock per customer, and the events Stripe would send. Objects
// have the JSON shapes of the API version the SDK pins (period fields on subscription items,
// the invoice's subscription under parent.subscription_details). Only what the app calls exists.
// It lives in memory and is written out whole (snapshot/restore) after every change, so that it
// survives restarts (docs/decisions/127).

export const API_VERSION = '2026-10-28.endive';
const MONTH_DAYS = 30;
const DAY = 86_400;

type Json = Record<string, unknown>;

/** A Stripe API error: the SDK turns `{error: {...}}` with this status into its error classes. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: 'invalid_request_error' | 'card_error' | 'api_error',
    message: string,
    readonly code?: string,
    readonly param?: string,
    readonly declineCode?: string,
  ) {
    super(message);
  }

  toJSON(): Json {
    return {
      error: {
        type: this.type,
        message: this.message,
        ...(this.code
          ? { code: this.code, doc_url: `https://stripe.com/docs/error-codes/${this.code}` }
          : {}),
        ...(this.param ? { param: this.param } : {}),
        ...(this.declineCode ? { decline_code: this.declineCode } : {}),
      },
    };
  }
}

function missing(kind: string, id: string, param = 'id'): StripeApiError {
  return new StripeApiError(
    404,
    'invalid_request_error',
    `No such ${kind}: '${id}'`,
    'resource_missing',
    param,
  );
}

function invalid(message: string, param?: string): StripeApiError {
  return new StripeApiError(400, 'invalid_request_error', message, 'parameter_invalid', param);
}

function cardError(decline: CardDecline): StripeApiError {
  return new StripeApiError(
    402,
    'card_error',
    decline.message,
    decline.code,
    undefined,
    decline.declineCode,
  );
}

export function newId(prefix: string): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const bytes = randomBytes(24);
  let s = '';
  for (const b of bytes) s += alphabet[b % 62];
  return `${prefix}_${s}`;
}

interface Card {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  chargesFail: boolean;
}

/**
 * A test clock: the frozen time of the objects attached to it. Every customer gets its own when
 * it is created (as a Stripe test clock is attached to a customer), so advancing one customer's
 * time renews nobody else's subscription (docs/decisions/128).
 */
interface Clock {
  id: string;
  created: number;
  frozenTime: number;
}

interface Customer {
  id: string;
  created: number;
  clock: string;
  email: string | null;
  name: string | null;
  metadata: Record<string, string>;
  /** Negative is credit (Stripe's convention). */
  balance: number;
  card: Card | null;
  deleted: boolean;
}

export interface PriceDef {
  id: string;
  lookupKey: string;
  nickname: string;
  unitAmount: number;
}

interface Session {
  id: string;
  created: number;
  expiresAt: number;
  customer: string;
  clientReferenceId: string | null;
  price: string;
  successUrl: string;
  cancelUrl: string;
  metadata: Record<string, string>;
  subscriptionMetadata: Record<string, string>;
  status: 'open' | 'complete' | 'expired';
  subscription: string | null;
  invoice: string | null;
}

interface Subscription {
  id: string;
  itemId: string;
  created: number;
  customer: string;
  price: string;
  status: 'active' | 'past_due' | 'canceled' | 'unpaid';
  periodStart: number;
  periodEnd: number;
  cancelAtPeriodEnd: boolean;
  canceledAt: number | null;
  endedAt: number | null;
  latestInvoice: string | null;
  metadata: Record<string, string>;
}

interface InvoiceLine {
  id: string;
  amount: number;
  description: string;
  price: string;
  proration: boolean;
  start: number;
  end: number;
}

interface Invoice {
  id: string;
  number: string;
  created: number;
  customer: string;
  subscription: string;
  billingReason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  lines: InvoiceLine[];
  startingBalance: number;
  status: 'draft' | 'open' | 'paid';
  attemptCount: number;
  paidAt: number | null;
  periodStart: number;
  periodEnd: number;
}

interface PortalSession {
  id: string;
  created: number;
  customer: string;
  returnUrl: string;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: Json; previous_attributes?: Json };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export interface AccountOptions {
  /** Where hosted pages live (the app's origin): checkout and portal URLs point there. */
  pagesUrl: string;
  prices: PriceDef[];
  /** The time a new customer's test clock starts at (seconds since the epoch). */
  now: () => number;
  /** Called with every event, in the order Stripe would create them. */
  onEvent: (event: StripeEvent) => void;
}

/** The months a period lasts here: Stripe bills monthly prices on the same day each month. */
function addMonth(epoch: number): number {
  const d = new Date(epoch * 1000);
  const next = new Date(d);
  next.setUTCMonth(d.getUTCMonth() + 1);
  // 31 January + 1 month is 3 March in JavaScript; Stripe clamps to the month's last day.
  if (next.getUTCDate() !== d.getUTCDate()) next.setUTCDate(0);
  return Math.floor(next.getTime() / 1000) || epoch + MONTH_DAYS * DAY;
}

/** Everything the account holds, as JSON (prices come from configuration, not from here). */
export interface AccountState {
  version: 1;
  invoiceCounter: number;
  clocks: Clock[];
  customers: Customer[];
  sessions: Session[];
  subscriptions: Subscription[];
  invoices: Invoice[];
  portalSessions: PortalSession[];
}

export class TestAccount {
  private readonly created: number;
  private readonly clocks = new Map<string, Clock>();
  private readonly customers = new Map<string, Customer>();
  private readonly sessions = new Map<string, Session>();
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly invoices = new Map<string, Invoice>();
  private readonly portalSessions = new Map<string, PortalSession>();
  private readonly prices = new Map<string, PriceDef>();
  private invoiceCounter = 0;

  constructor(private readonly options: AccountOptions) {
    this.created = options.now();
    for (const p of options.prices) this.prices.set(p.id, p);
  }

  // ---- persistence -------------------------------------------------------------------------

  snapshot(): AccountState {
    return {
      version: 1,
      invoiceCounter: this.invoiceCounter,
      clocks: [...this.clocks.values()],
      customers: [...this.customers.values()],
      sessions: [...this.sessions.values()],
      subscriptions: [...this.subscriptions.values()],
      invoices: [...this.invoices.values()],
      portalSessions: [...this.portalSessions.values()],
    };
  }

  /** Replaces everything with a snapshot (at start, before any request). */
  restore(state: AccountState): void {
    if (state.version !== 1) {
      throw new Error(`Unknown test-mode Stripe state version ${String(state.version)}`);
    }
    const fill = <T extends { id: string }>(map: Map<string, T>, items: T[]) => {
      map.clear();
      for (const item of items) map.set(item.id, item);
    };
    fill(this.clocks, state.clocks);
    fill(this.customers, state.customers);
    fill(this.sessions, state.sessions);
    fill(this.subscriptions, state.subscriptions);
    fill(this.invoices, state.invoices);
    fill(this.portalSessions, state.portalSessions);
    this.invoiceCounter = state.invoiceCounter;
  }

  // ---- time --------------------------------------------------------------------------------

  /** The frozen time of the customer's test clock. */
  timeOf(customerId: string): number {
    const clock = this.clocks.get(this.customers.get(customerId)?.clock ?? '');
    return clock?.frozenTime ?? this.options.now();
  }

  /** The time on a Checkout Session's page (its customer's clock), or null when unknown. */
  checkoutTime(sessionId: string): number | null {
    const s = this.sessions.get(sessionId);
    return s ? this.timeOf(s.customer) : null;
  }

  /** The time on a billing-portal page (its customer's clock), or null when unknown. */
  portalTime(portalId: string): number | null {
    const p = this.portalSessions.get(portalId);
    return p ? this.timeOf(p.customer) : null;
  }

  /** The test clock of the customer a billing-portal session is for. */
  portalClock(portalId: string): string | null {
    const p = this.portalSessions.get(portalId);
    return p ? (this.customers.get(p.customer)?.clock ?? null) : null;
  }

  // ---- JSON shapes ------------------------------------------------------------------------

  priceJson(id: string): Json {
    const p = this.prices.get(id)!;
    return {
      id: p.id,
      object: 'price',
      active: true,
      billing_scheme: 'per_unit',
      created: this.created,
      currency: 'gbp',
      custom_unit_amount: null,
      livemode: false,
      lookup_key: p.lookupKey,
      metadata: {},
      nickname: p.nickname,
      product: `prod_${p.lookupKey}`,
      recurring: { interval: 'month', interval_count: 1, meter: null, usage_type: 'licensed' },
      tax_behavior: 'unspecified',
      tiers_mode: null,
      transform_quantity: null,
      type: 'recurring',
      unit_amount: p.unitAmount,
      unit_amount_decimal: String(p.unitAmount),
    };
  }

  customerJson(c: Customer): Json {
    if (c.deleted) return { id: c.id, object: 'customer', deleted: true };
    return {
      id: c.id,
      object: 'customer',
      address: null,
      balance: c.balance,
      created: c.created,
      currency: 'gbp',
      default_source: null,
      delinquent: [...this.subscriptions.values()].some(
        (s) => s.customer === c.id && s.status === 'past_due',
      ),
      description: null,
      email: c.email,
      invoice_prefix: c.id.slice(4, 12).toUpperCase(),
      invoice_settings: {
        custom_fields: null,
        default_payment_method: c.card?.id ?? null,
        footer: null,
        rendering_options: null,
      },
      livemode: false,
      metadata: c.metadata,
      name: c.name,
      phone: null,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: c.clock,
    };
  }

  sessionJson(s: Session): Json {
    const amount = this.prices.get(s.price)!.unitAmount;
    return {
      id: s.id,
      object: 'checkout.session',
      amount_subtotal: amount,
      amount_total: amount,
      cancel_url: s.cancelUrl,
      client_reference_id: s.clientReferenceId,
      created: s.created,
      currency: 'gbp',
      customer: s.customer,
      customer_email: null,
      expires_at: s.expiresAt,
      invoice: s.invoice,
      livemode: false,
      metadata: s.metadata,
      mode: 'subscription',
      payment_method_types: ['card'],
      payment_status: s.status === 'complete' ? 'paid' : 'unpaid',
      status: s.status,
      subscription: s.subscription,
      success_url: s.successUrl,
      ui_mode: 'hosted',
      url: s.status === 'open' ? `${this.options.pagesUrl}/test-mode/checkout/${s.id}` : null,
    };
  }

  subscriptionJson(s: Subscription): Json {
    return {
      id: s.id,
      object: 'subscription',
      application: null,
      billing_cycle_anchor: s.created,
      cancel_at: s.cancelAtPeriodEnd ? s.periodEnd : null,
      cancel_at_period_end: s.cancelAtPeriodEnd,
      canceled_at: s.canceledAt,
      cancellation_details: { comment: null, feedback: null, reason: null },
      collection_method: 'charge_automatically',
      created: s.created,
      currency: 'gbp',
      customer: s.customer,
      default_payment_method: this.customers.get(s.customer)?.card?.id ?? null,
      discounts: [],
      ended_at: s.endedAt,
      items: {
        object: 'list',
        data: [
          {
            id: s.itemId,
            object: 'subscription_item',
            created: s.created,
            current_period_end: s.periodEnd,
            current_period_start: s.periodStart,
            discounts: [],
            metadata: {},
            price: this.priceJson(s.price),
            quantity: 1,
            subscription: s.id,
            tax_rates: [],
          },
        ],
        has_more: false,
        total_count: 1,
        url: `/v1/subscription_items?subscription=${s.id}`,
      },
      latest_invoice: s.latestInvoice,
      livemode: false,
      metadata: s.metadata,
      pause_collection: null,
      pending_update: null,
      schedule: null,
      start_date: s.created,
      status: s.status,
      test_clock: this.customers.get(s.customer)?.clock ?? null,
      trial_end: null,
      trial_start: null,
    };
  }

  invoiceJson(inv: Invoice, preview = false): Json {
    const total = inv.lines.reduce((sum, l) => sum + l.amount, 0);
    // Credit on the customer's balance pays what it can; a negative total becomes credit.
    const applied = total > 0 ? Math.max(-total, Math.min(0, inv.startingBalance)) : 0;
    const amountDue = Math.max(0, total + applied);
    const paid = inv.status === 'paid';
    const sub = this.subscriptions.get(inv.subscription);
    return {
      id: preview ? null : inv.id,
      object: 'invoice',
      amount_due: amountDue,
      amount_paid: paid ? amountDue : 0,
      amount_remaining: paid ? 0 : amountDue,
      attempt_count: inv.attemptCount,
      attempted: inv.attemptCount > 0,
      billing_reason: inv.billingReason,
      collection_method: 'charge_automatically',
      created: inv.created,
      currency: 'gbp',
      customer: inv.customer,
      ending_balance: preview ? null : inv.startingBalance + applied + Math.min(0, total),
      hosted_invoice_url: null,
      lines: {
        object: 'list',
        data: inv.lines.map((l) => ({
          id: l.id,
          object: 'line_item',
          amount: l.amount,
          currency: 'gbp',
          description: l.description,
          invoice: preview ? null : inv.id,
          livemode: false,
          metadata: {},
          parent: {
            type: 'subscription_item_details',
            invoice_item_details: null,
            subscription_item_details: {
              invoice_item: null,
              proration: l.proration,
              proration_details: { credited_items: null },
              subscription: inv.subscription,
              subscription_item: sub?.itemId ?? null,
            },
          },
          period: { start: l.start, end: l.end },
          pricing: {
            type: 'price_details',
            price_details: {
              price: l.price,
              product: `prod_${this.prices.get(l.price)?.lookupKey}`,
            },
            unit_amount_decimal: String(l.amount),
          },
          quantity: 1,
        })),
        has_more: false,
        url: `/v1/invoices/${inv.id}/lines`,
      },
      livemode: false,
      metadata: {},
      next_payment_attempt: null,
      number: preview ? null : inv.number,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: {
          metadata: sub?.metadata ?? {},
          subscription: inv.subscription,
          ...(preview ? { subscription_proration_date: inv.created } : {}),
        },
      },
      period_end: inv.periodEnd,
      period_start: inv.periodStart,
      starting_balance: inv.startingBalance,
      status: inv.status,
      status_transitions: {
        finalized_at: inv.status === 'draft' ? null : inv.created,
        marked_uncollectible_at: null,
        paid_at: inv.paidAt,
        voided_at: null,
      },
      subtotal: total,
      total,
      test_clock: this.customers.get(inv.customer)?.clock ?? null,
    };
  }

  /** An event about `customer`'s objects, created at the time of its clock. */
  private emit(customer: string, type: string, object: Json, previous?: Json): void {
    this.options.onEvent({
      id: newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: this.timeOf(customer),
      data: previous ? { object, previous_attributes: previous } : { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    });
  }

  // ---- customers ---------------------------------------------------------------------------

  createCustomer(params: Json): Json {
    const now = this.options.now();
    const clock: Clock = { id: newId('clock'), created: now, frozenTime: now };
    this.clocks.set(clock.id, clock);
    const c: Customer = {
      id: newId('cus'),
      created: now,
      clock: clock.id,
      email: typeof params.email === 'string' ? params.email : null,
      name: typeof params.name === 'string' ? params.name : null,
      metadata: stringRecord(params.metadata),
      balance: 0,
      card: null,
      deleted: false,
    };
    this.customers.set(c.id, c);
    this.emit(c.id, 'customer.created', this.customerJson(c));
    return this.customerJson(c);
  }

  private liveCustomer(id: string, param = 'customer'): Customer {
    const c = this.customers.get(id);
    if (!c || c.deleted) throw missing('customer', id, param);
    return c;
  }

  retrieveCustomer(id: string): Json {
    const c = this.customers.get(id);
    if (!c) throw missing('customer', id);
    return this.customerJson(c);
  }

  /** Deleting a customer cancels its subscriptions at once (as Stripe does). */
  deleteCustomer(id: string): Json {
    const c = this.liveCustomer(id, 'id');
    for (const s of this.subscriptions.values()) {
      if (s.customer === id && s.status !== 'canceled') this.endSubscription(s);
    }
    c.deleted = true;
    this.emit(c.id, 'customer.deleted', { ...this.customerJson({ ...c, deleted: false }) });
    return this.customerJson(c);
  }

  // ---- checkout ----------------------------------------------------------------------------

  createCheckoutSession(params: Json): Json {
    if (params.mode !== 'subscription')
      throw invalid('Only mode=subscription is supported here.', 'mode');
    const customer = this.liveCustomer(String(params.customer ?? ''));
    const items = Array.isArray(params.line_items) ? (params.line_items as Json[]) : [];
    const price = String(items[0]?.price ?? '');
    if (items.length !== 1 || !this.prices.has(price)) {
      throw missing('price', price, 'line_items[0][price]');
    }
    const successUrl = String(params.success_url ?? '');
    if (!/^https?:\/\//.test(successUrl)) throw invalid('Not a valid URL', 'success_url');
    const now = this.timeOf(customer.id);
    const s: Session = {
      id: newId('cs_test'),
      created: now,
      expiresAt: now + DAY,
      customer: customer.id,
      clientReferenceId:
        typeof params.client_reference_id === 'string' ? params.client_reference_id : null,
      price,
      successUrl,
      cancelUrl: String(params.cancel_url ?? this.options.pagesUrl),
      metadata: stringRecord(params.metadata),
      subscriptionMetadata: stringRecord((params.subscription_data as Json | undefined)?.metadata),
      status: 'open',
      subscription: null,
      invoice: null,
    };
    this.sessions.set(s.id, s);
    return this.sessionJson(s);
  }

  retrieveCheckoutSession(id: string): Json {
    const s = this.sessions.get(id);
    if (!s) throw missing('checkout.session', id, 'session');
    return this.sessionJson(s);
  }

  /** What the checkout page shows. */
  checkoutView(id: string) {
    const s = this.sessions.get(id);
    if (!s) return null;
    const price = this.prices.get(s.price)!;
    const customer = this.customers.get(s.customer);
    return {
      status: s.status,
      planName: price.nickname,
      amount: price.unitAmount,
      email: customer?.email ?? null,
      cancelUrl: s.cancelUrl,
      successUrl: s.successUrl.replace('{CHECKOUT_SESSION_ID}', s.id),
    };
  }

  /**
   * The customer paid on the checkout page: the card becomes the default, the subscription starts
   * with its first invoice paid, and the session completes. Events in Stripe's order.
   */
  completeCheckout(id: string, card: Omit<Card, 'id'>): { redirect: string } {
    const s = this.sessions.get(id);
    if (!s || s.status !== 'open') throw missing('checkout.session', id);
    const customer = this.liveCustomer(s.customer);
    const now = this.timeOf(customer.id);
    // The page's payment is made with the card as typed: it succeeds even for a card whose later
    // charges fail (4000 0000 0000 0341), which is what makes a failed renewal reproducible.
    customer.card = { ...card, id: newId('pm') };
    const sub: Subscription = {
      id: newId('sub'),
      itemId: newId('si'),
      created: now,
      customer: customer.id,
      price: s.price,
      status: 'active',
      periodStart: now,
      periodEnd: addMonth(now),
      cancelAtPeriodEnd: false,
      canceledAt: null,
      endedAt: null,
      latestInvoice: null,
      metadata: s.subscriptionMetadata,
    };
    this.subscriptions.set(sub.id, sub);
    const inv = this.newInvoice(sub, 'subscription_create', [this.fullPeriodLine(sub)]);
    this.settle(inv, { checkoutPayment: true });
    sub.latestInvoice = inv.id;
    s.status = 'complete';
    s.subscription = sub.id;
    s.invoice = inv.id;
    this.emit(customer.id, 'customer.subscription.created', this.subscriptionJson(sub));
    this.emit(customer.id, 'invoice.paid', this.invoiceJson(inv));
    this.emit(customer.id, 'checkout.session.completed', this.sessionJson(s));
    return { redirect: s.successUrl.replace('{CHECKOUT_SESSION_ID}', s.id) };
  }

  // ---- subscriptions -----------------------------------------------------------------------

  private sub(id: string): Subscription {
    const s = this.subscriptions.get(id);
    if (!s) throw missing('subscription', id);
    return s;
  }

  retrieveSubscription(id: string): Json {
    return this.subscriptionJson(this.sub(id));
  }

  /** GET /v1/prices: active prices, filtered by `lookup_keys` as Stripe does. */
  listPrices(params: Json): Json {
    const keys = Array.isArray(params.lookup_keys) ? params.lookup_keys.map(String) : null;
    const data = [...this.prices.values()]
      .filter((p) => !keys || keys.includes(p.lookupKey))
      .map((p) => this.priceJson(p.id));
    return { object: 'list', data, has_more: false, url: '/v1/prices' };
  }

  listSubscriptions(params: Json): Json {
    const customer = typeof params.customer === 'string' ? params.customer : null;
    const status = typeof params.status === 'string' ? params.status : null;
    const data = [...this.subscriptions.values()]
      .filter((s) => !customer || s.customer === customer)
      // Stripe's default list leaves out canceled subscriptions; status=all includes them.
      .filter((s) =>
        status === 'all' ? true : status ? s.status === status : s.status !== 'canceled',
      )
      .sort((a, b) => b.created - a.created)
      .map((s) => this.subscriptionJson(s));
    const limit = Math.min(100, Math.max(1, Number(params.limit ?? 10) || 10));
    return {
      object: 'list',
      data: data.slice(0, limit),
      has_more: data.length > limit,
      url: '/v1/subscriptions',
    };
  }

  private fullPeriodLine(s: Subscription): InvoiceLine {
    const p = this.prices.get(s.price)!;
    return {
      id: newId('il'),
      amount: p.unitAmount,
      description: `1 × ${p.nickname} (at £${(p.unitAmount / 100).toFixed(2)} / month)`,
      price: p.id,
      proration: false,
      start: s.periodStart,
      end: s.periodEnd,
    };
  }

  /** Credit for the unused time on the old price and a charge for the rest on the new one. */
  private prorationLines(s: Subscription, newPrice: string, at: number): InvoiceLine[] {
    const span = s.periodEnd - s.periodStart;
    const left = Math.min(span, Math.max(0, s.periodEnd - at));
    const oldP = this.prices.get(s.price)!;
    const newP = this.prices.get(newPrice)!;
    const date = new Date(at * 1000).toUTCString().slice(5, 16);
    return [
      {
        id: newId('il'),
        amount: -Math.round((oldP.unitAmount * left) / span),
        description: `Unused time on ${oldP.nickname} after ${date}`,
        price: oldP.id,
        proration: true,
        start: at,
        end: s.periodEnd,
      },
      {
        id: newId('il'),
        amount: Math.round((newP.unitAmount * left) / span),
        description: `Remaining time on ${newP.nickname} after ${date}`,
        price: newP.id,
        proration: true,
        start: at,
        end: s.periodEnd,
      },
    ];
  }

  private newInvoice(
    s: Subscription,
    reason: Invoice['billingReason'],
    lines: InvoiceLine[],
  ): Invoice {
    const customer = this.customers.get(s.customer)!;
    this.invoiceCounter += 1;
    const inv: Invoice = {
      id: newId('in'),
      number: `TEST-${String(this.invoiceCounter).padStart(4, '0')}`,
      created: this.timeOf(s.customer),
      customer: s.customer,
      subscription: s.id,
      billingReason: reason,
      lines,
      startingBalance: customer.balance,
      status: 'open',
      attemptCount: 0,
      paidAt: null,
      periodStart: s.periodStart,
      periodEnd: s.periodEnd,
    };
    this.invoices.set(inv.id, inv);
    return inv;
  }

  /**
   * Applies credit, charges the card for the rest; returns the decline when the charge fails.
   * `checkoutPayment`: the payment made on the Checkout page with the card just typed.
   */
  private settle(inv: Invoice, options: { checkoutPayment?: boolean } = {}): CardDecline | null {
    const customer = this.customers.get(inv.customer)!;
    const total = inv.lines.reduce((sum, l) => sum + l.amount, 0);
    inv.startingBalance = customer.balance;
    if (total <= 0) {
      customer.balance += total;
    } else {
      const applied = Math.max(-total, Math.min(0, customer.balance));
      const due = total + applied;
      if (due > 0) {
        inv.attemptCount += 1;
        if (!customer.card) return CHARGE_FAILED;
        if (customer.card.chargesFail && !options.checkoutPayment) return CHARGE_FAILED;
      }
      customer.balance -= applied;
    }
    inv.status = 'paid';
    inv.paidAt = this.timeOf(inv.customer);
    return null;
  }

  updateSubscription(id: string, params: Json): Json {
    const s = this.sub(id);
    if (s.status === 'canceled') {
      throw invalid(
        'A canceled subscription can only update its cancellation_details and metadata.',
      );
    }
    const before = this.subscriptionJson(s);
    const previous: Json = {};
    if (typeof params.metadata === 'object' && params.metadata) {
      previous.metadata = s.metadata;
      s.metadata = { ...s.metadata, ...stringRecord(params.metadata) };
    }
    if (params.cancel_at_period_end !== undefined) {
      const flag = params.cancel_at_period_end === 'true' || params.cancel_at_period_end === true;
      if (flag !== s.cancelAtPeriodEnd) {
        previous.cancel_at_period_end = s.cancelAtPeriodEnd;
        previous.cancel_at = before.cancel_at;
        s.cancelAtPeriodEnd = flag;
        s.canceledAt = flag ? this.timeOf(s.customer) : null;
      }
    }
    let invoice: Invoice | null = null;
    const items = Array.isArray(params.items) ? (params.items as Json[]) : [];
    if (items.length > 0) {
      const item = items[0]!;
      if (items.length !== 1 || item.id !== s.itemId) {
        throw missing('subscription_item', String(item.id ?? ''), 'items[0][id]');
      }
      const price = String(item.price ?? '');
      if (!this.prices.has(price)) throw missing('price', price, 'items[0][price]');
      if (price !== s.price) {
        const behavior = String(params.proration_behavior ?? 'create_prorations');
        const at =
          params.proration_date !== undefined
            ? Number(params.proration_date)
            : this.timeOf(s.customer);
        const lines = behavior === 'none' ? [] : this.prorationLines(s, price, at);
        if (behavior === 'always_invoice' && lines.length > 0) {
          const oldPrice = s.price;
          s.price = price;
          invoice = this.newInvoice(s, 'subscription_update', lines);
          const decline = this.settle(invoice);
          if (decline) {
            if (params.payment_behavior === 'error_if_incomplete') {
              // Nothing changes: the update is refused and the draft is dropped.
              s.price = oldPrice;
              this.invoices.delete(invoice.id);
              throw cardError(decline);
            }
            s.status = 'past_due';
          }
          s.latestInvoice = invoice.id;
        } else {
          s.price = price;
        }
        previous.items = before.items;
      }
    }
    const json = this.subscriptionJson(s);
    if (Object.keys(previous).length > 0) {
      this.emit(s.customer, 'customer.subscription.updated', json, previous);
      if (invoice?.status === 'paid')
        this.emit(s.customer, 'invoice.paid', this.invoiceJson(invoice));
      if (invoice?.status === 'open')
        this.emit(s.customer, 'invoice.payment_failed', this.invoiceJson(invoice));
    }
    return json;
  }

  private endSubscription(s: Subscription): void {
    const now = this.timeOf(s.customer);
    s.status = 'canceled';
    s.endedAt = now;
    s.canceledAt ??= now;
    this.emit(s.customer, 'customer.subscription.deleted', this.subscriptionJson(s));
  }

  cancelSubscription(id: string): Json {
    const s = this.sub(id);
    if (s.status === 'canceled') {
      throw invalid(`This subscription is already canceled.`);
    }
    this.endSubscription(s);
    return this.subscriptionJson(s);
  }

  /** invoices.createPreview for a price change on a subscription (what the app asks). */
  previewInvoice(params: Json): Json {
    const s = this.sub(String(params.subscription ?? ''));
    const details = (params.subscription_details ?? {}) as Json;
    const items = Array.isArray(details.items) ? (details.items as Json[]) : [];
    const price = String(items[0]?.price ?? s.price);
    if (!this.prices.has(price))
      throw missing('price', price, 'subscription_details[items][0][price]');
    const at =
      details.proration_date !== undefined
        ? Number(details.proration_date)
        : this.timeOf(s.customer);
    const behavior = String(details.proration_behavior ?? 'create_prorations');
    const customer = this.customers.get(s.customer)!;
    const lines = price === s.price || behavior === 'none' ? [] : this.prorationLines(s, price, at);
    const preview: Invoice = {
      id: 'upcoming',
      number: '',
      created: at,
      customer: s.customer,
      subscription: s.id,
      billingReason: 'subscription_update',
      lines:
        behavior === 'always_invoice'
          ? lines
          : [
              ...lines,
              this.fullPeriodLine({
                ...s,
                price,
                periodStart: s.periodEnd,
                periodEnd: addMonth(s.periodEnd),
              }),
            ],
      startingBalance: customer.balance,
      status: 'draft',
      attemptCount: 0,
      paidAt: null,
      periodStart: s.periodStart,
      periodEnd: s.periodEnd,
    };
    return this.invoiceJson(preview, true);
  }

  listInvoices(customerId: string): Json[] {
    return [...this.invoices.values()]
      .filter((i) => i.customer === customerId)
      .sort((a, b) => b.created - a.created)
      .map((i) => this.invoiceJson(i));
  }

  // ---- billing portal (test mode: a card form and the invoice list) -----------------------

  createPortalSession(params: Json): Json {
    const customer = this.liveCustomer(String(params.customer ?? ''));
    const p: PortalSession = {
      id: newId('bps'),
      created: this.timeOf(customer.id),
      customer: customer.id,
      returnUrl: String(params.return_url ?? this.options.pagesUrl),
    };
    this.portalSessions.set(p.id, p);
    return {
      id: p.id,
      object: 'billing_portal.session',
      configuration: 'bpc_testmode',
      created: p.created,
      customer: p.customer,
      flow: null,
      livemode: false,
      locale: null,
      on_behalf_of: null,
      return_url: p.returnUrl,
      url: `${this.options.pagesUrl}/test-mode/portal/${p.id}`,
    };
  }

  portalView(id: string) {
    const p = this.portalSessions.get(id);
    if (!p) return null;
    const customer = this.customers.get(p.customer);
    if (!customer || customer.deleted) return null;
    const subs = [...this.subscriptions.values()]
      .filter((s) => s.customer === customer.id && s.status !== 'canceled')
      .map((s) => ({
        id: s.id,
        plan: this.prices.get(s.price)!.nickname,
        status: s.status,
        periodEnd: s.periodEnd,
        cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      }));
    return {
      returnUrl: p.returnUrl,
      email: customer.email,
      card: customer.card,
      balance: customer.balance,
      subscriptions: subs,
      invoices: this.listInvoices(customer.id).map((i) => ({
        number: String(i.number),
        created: Number(i.created),
        total: Number(i.total),
        amountPaid: Number(i.amount_paid),
        status: String(i.status),
      })),
    };
  }

  /** The portal's card form: the new card becomes the default and pays any open invoice. */
  updateCard(portalId: string, card: Omit<Card, 'id'>): void {
    const p = this.portalSessions.get(portalId);
    if (!p) throw missing('billing_portal.session', portalId);
    const customer = this.liveCustomer(p.customer);
    customer.card = { ...card, id: newId('pm') };
    for (const inv of this.invoices.values()) {
      if (inv.customer !== customer.id || inv.status !== 'open') continue;
      if (this.settle(inv)) {
        this.emit(customer.id, 'invoice.payment_failed', this.invoiceJson(inv));
        continue;
      }
      this.emit(customer.id, 'invoice.paid', this.invoiceJson(inv));
      const s = this.subscriptions.get(inv.subscription);
      if (s && s.status === 'past_due') {
        s.status = 'active';
        this.emit(customer.id, 'customer.subscription.updated', this.subscriptionJson(s), {
          status: 'past_due',
        });
      }
    }
  }

  // ---- the test clock ----------------------------------------------------------------------

  /** Moves one test clock; the subscriptions of its customer renew at each period end. */
  advanceClock(id: string, frozenTime: number): Json {
    const clock = this.clocks.get(id);
    if (!clock) throw missing('test_helpers.test_clock', id);
    if (!Number.isInteger(frozenTime) || frozenTime <= clock.frozenTime) {
      throw invalid('The frozen_time must be later than the current frozen time.', 'frozen_time');
    }
    const onClock = (s: Subscription) => this.customers.get(s.customer)?.clock === id;
    // Walk period ends in order, so that several months pass as Stripe would bill them.
    for (let guard = 0; guard < 24; guard++) {
      const due = [...this.subscriptions.values()]
        .filter((s) => onClock(s) && s.status !== 'canceled' && s.periodEnd <= frozenTime)
        .sort((a, b) => a.periodEnd - b.periodEnd)[0];
      if (!due) break;
      clock.frozenTime = Math.max(clock.frozenTime, due.periodEnd);
      this.renew(due);
    }
    clock.frozenTime = frozenTime;
    return this.clockJson(clock);
  }

  retrieveClock(id: string): Json {
    const clock = this.clocks.get(id);
    if (!clock) throw missing('test_helpers.test_clock', id);
    return this.clockJson(clock);
  }

  private clockJson(clock: Clock): Json {
    return {
      id: clock.id,
      object: 'test_helpers.test_clock',
      created: clock.created,
      deletes_after: clock.frozenTime + 30 * DAY,
      frozen_time: clock.frozenTime,
      livemode: false,
      name: 'SchemaCheck test mode',
      status: 'ready',
    };
  }

  private renew(s: Subscription): void {
    if (s.cancelAtPeriodEnd || s.status === 'past_due' || s.status === 'unpaid') {
      // A cancelled subscription ends; an unpaid one is cancelled after its retries (Stripe's
      // default "cancel the subscription" setting), here at the next period end.
      this.endSubscription(s);
      return;
    }
    const previous = { items: this.subscriptionJson(s).items };
    s.periodStart = s.periodEnd;
    s.periodEnd = addMonth(s.periodEnd);
    const inv = this.newInvoice(s, 'subscription_cycle', [this.fullPeriodLine(s)]);
    s.latestInvoice = inv.id;
    const decline = this.settle(inv);
    if (decline) {
      s.status = 'past_due';
      this.emit(s.customer, 'customer.subscription.updated', this.subscriptionJson(s), {
        ...previous,
        status: 'active',
      });
      this.emit(s.customer, 'invoice.payment_failed', this.invoiceJson(inv));
    } else {
      this.emit(s.customer, 'customer.subscription.updated', this.subscriptionJson(s), previous);
      this.emit(s.customer, 'invoice.paid', this.invoiceJson(inv));
    }
  }
}

function stringRecord(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = String(v);
  return out;
}
