import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { recordEvent, syncCustomer } from './sync.ts';

// Stripe events (docs/decisions/071). The signature is checked by the route before this runs.
// Each handled type only names the customer; the plan is then read again from Stripe, so the
// order in which events arrive does not matter. The event id is recorded in the same
// transaction as the change, so a second delivery of one event changes nothing.

export const HANDLED_EVENTS = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
]);

// Stripe's ids: a prefix, an underscore, letters and digits (evt_1Q…, cus_Q…); bounded, so every
// one fits the columns and indexes it is written to and holds nothing a text column refuses.
const STRIPE_ID = /^[A-Za-z0-9_]{1,255}$/;
const EVENT_TYPE = /^[a-z0-9_.]{1,100}$/;

export type EventCheck = { ok: true; event: Stripe.Event } | { ok: false; problem: string };

/**
 * The signed body as an event we can act on: an object with an id, a type and data.object, and
 * for the types we handle a customer id that is an id. Anything else is refused with what is
 * wrong (for the log), never left to fail deeper as a 500.
 */
export function readEvent(value: unknown): EventCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: 'not a JSON object' };
  }
  const event = value as Record<string, unknown>;
  if (typeof event.id !== 'string' || !STRIPE_ID.test(event.id)) {
    return { ok: false, problem: 'id is not a Stripe id' };
  }
  if (typeof event.type !== 'string' || !EVENT_TYPE.test(event.type)) {
    return { ok: false, problem: 'type is not an event type' };
  }
  const data = event.data as Record<string, unknown> | null | undefined;
  const object = typeof data === 'object' && data !== null ? data.object : undefined;
  if (typeof object !== 'object' || object === null || Array.isArray(object)) {
    return { ok: false, problem: 'data.object is not an object' };
  }
  const parsed = value as Stripe.Event;
  if (HANDLED_EVENTS.has(parsed.type)) {
    const customer = customerOf(parsed);
    if (customer !== null && !STRIPE_ID.test(customer)) {
      return { ok: false, problem: 'data.object.customer is not a Stripe id' };
    }
  }
  return { ok: true, event: parsed };
}

function customerOf(event: Stripe.Event): string | null {
  const object = event.data.object as { customer?: unknown };
  const customer = object.customer;
  if (typeof customer === 'string') return customer;
  if (typeof customer === 'object' && customer !== null && 'id' in customer) {
    return String((customer as { id: unknown }).id);
  }
  return null;
}

export type EventOutcome = 'synced' | 'duplicate' | 'ignored' | 'unknown-customer';

export async function handleEvent(
  app: FastifyInstance,
  event: Stripe.Event,
): Promise<EventOutcome> {
  const ref = { id: event.id, type: event.type };
  const now = app.now();
  const customer = HANDLED_EVENTS.has(event.type) ? customerOf(event) : null;
  if (!customer) return (await recordEvent(app.db, ref, now)) ? 'ignored' : 'duplicate';
  const result = await syncCustomer(app.db, app.billing, customer, { event: ref, now });
  if (result.kind === 'duplicate') return 'duplicate';
  if (result.kind === 'no-user') return 'unknown-customer';
  return 'synced';
}
