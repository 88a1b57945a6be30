import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PaidTier } from '@schemacheck/contracts';

// The price a user was shown for a plan change, as a token the server signed (docs/decisions/125).
// Stripe prorates a change to the second; to charge exactly what the preview showed, the change
// must use the preview's proration time. That time is the server's: the preview signs it into a
// quote with everything it was computed for (user, subscription, current price and period, new
// plan), the browser only hands the quote back, and the change takes the time from a quote that
// verifies, is this user's, is for this very change and is still fresh. A client-chosen integer
// never reaches Stripe. Signed, not stored: any server of several verifies it, nothing to sweep.

/** How long a shown price may be confirmed: a few minutes of prorated time at most. */
export const QUOTE_TTL_MS = 10 * 60 * 1000;

export interface QuoteClaims {
  userId: string;
  subscriptionId: string;
  /** The price the subscription is on (a change since makes the quote stale). */
  fromPrice: string;
  /** Start of the current period (a renewal since makes the quote stale). */
  periodStart: number;
  tier: PaidTier;
  /** Seconds since the epoch, as Stripe takes it. */
  prorationDate: number;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/** A key of its own, derived from the session secret, so a quote's MAC is good for nothing else. */
function key(secret: string): Buffer {
  return createHmac('sha256', secret).update('schemacheck billing quote v1').digest();
}

function mac(secret: string, body: string): Buffer {
  return createHmac('sha256', key(secret)).update(body).digest();
}

export function signQuote(secret: string, claims: QuoteClaims): string {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${body}.${mac(secret, body).toString('base64url')}`;
}

/** The claims of a quote this server signed and that has not expired at `now`; else null. */
export function readQuote(secret: string, quote: string, now: Date): QuoteClaims | null {
  const [body, signature, extra] = quote.split('.');
  if (!body || !signature || extra !== undefined) return null;
  const expected = mac(secret, body);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let claims: QuoteClaims;
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as QuoteClaims;
  } catch {
    return null;
  }
  if (typeof claims.expiresAt !== 'number' || claims.expiresAt <= now.getTime()) return null;
  return claims;
}
