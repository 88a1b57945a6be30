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
