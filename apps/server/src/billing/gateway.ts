import { PAID_TIERS, PLANS, type PaidTier } from '@schemacheck/contracts';
import { API_VERSION, TestModeStripe, type TestModeStore } from '@schemacheck/stripe-test-mode';
import Stripe from 'stripe';
import { ConfigError, type StripeConfig } from '../config.ts';
import { AppError } from '../errors.ts';

// The one Stripe client of the app (docs/decisions/070). Live: api.stripe.com with the configured
// key. Test mode: the same SDK, pointed with its documented host/port/protocol options at the
// Stripe-protocol server of packages/stripe-test-mode on a loopback port, started here and only
// here, when no STRIPE_SECRET_KEY is set. Everything above this file is the same code in both
// modes.

/** The API version the SDK pins; the test-mode server answers in its shapes. */
export const STRIPE_API_VERSION = API_VERSION;

export interface Billing {
  mode: 'test' | 'live';
  stripe: Stripe;
  webhookSecret: string;
  /** Price id of each paid plan. */
  prices: Record<PaidTier, string>;
  /** The in-process Stripe of test mode (null when live). */
  testMode: TestModeStripe | null;
}

/** Test-mode price ids; their amounts come from contracts' PLANS. */
export const TEST_PRICES: Record<PaidTier, string> = {
  pro: 'price_testmode_pro_monthly',
  business: 'price_testmode_business_monthly',
};

/**
 * Live billing. `stripe` defaults to Stripe's servers; prices given by lookup key are resolved
 * to their ids once, here, so that a missing price stops the start with its name.
 */
export async function liveBilling(
  config: StripeConfig,
  stripe = new Stripe(config.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'SchemaCheck' },
  }),
): Promise<Billing> {
  return {
    mode: 'live',
    stripe,
    webhookSecret: config.webhookSecret,
    prices: {
      pro: await priceId(stripe, config.prices.pro, 'STRIPE_PRICE_PRO'),
      business: await priceId(stripe, config.prices.business, 'STRIPE_PRICE_BUSINESS'),
    },
    testMode: null,
  };
}

async function priceId(stripe: Stripe, idOrLookupKey: string, variable: string): Promise<string> {
  if (idOrLookupKey.startsWith('price_')) return idOrLookupKey;
  const found = await stripe.prices.list({ lookup_keys: [idOrLookupKey], active: true, limit: 1 });
  const price = found.data[0];
  if (!price) {
    throw new ConfigError(
      `Invalid configuration: ${variable}: no active Stripe price has the lookup key "${idOrLookupKey}"`,
    );
  }
  return price.id;
}

/** Test mode: its Stripe account is read from `store` and kept there (docs/decisions/127). */
export async function startTestBilling(options: {
  pagesUrl: string;
  now: () => Date;
  store: TestModeStore;
  log: { warn: (obj: object, msg: string) => void };
}): Promise<Billing> {
  const testMode = new TestModeStripe({
    pagesUrl: options.pagesUrl,
    now: () => Math.floor(options.now().getTime() / 1000),
    store: options.store,
    log: options.log,
    prices: PAID_TIERS.map((tier) => ({
      id: TEST_PRICES[tier],
      lookupKey: `${tier}_monthly`,
      nickname: `SchemaCheck ${PLANS[tier].label}`,
      unitAmount: PLANS[tier].pricePence!,
    })),
  });
  await testMode.load();
  const port = await testMode.listen();
  return {
    mode: 'test',
    stripe: new Stripe(testMode.secretKey, {
      apiVersion: STRIPE_API_VERSION,
      host: '127.0.0.1',
      port,
      protocol: 'http',
      maxNetworkRetries: 0,
      telemetry: false,
    }),
    webhookSecret: testMode.webhookSecret,
    prices: TEST_PRICES,
    testMode,
  };
}

export function tierOfPrice(billing: Billing, priceId: string | null | undefined): PaidTier | null {
  if (priceId === billing.prices.pro) return 'pro';
  if (priceId === billing.prices.business) return 'business';
  return null;
}

/**
 * Runs a Stripe call and turns its failures into the app's errors: a declined card is a 402 with
 * Stripe's message; an unreachable or failing Stripe is a 503 (nothing changed). Anything else
 * (a request Stripe refused) is our bug and goes to the 500 handler with its details logged.
 */
export async function stripeCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof Stripe.errors.StripeCardError) {
      throw new AppError('payment_failed', { message: err.message });
    }
    if (
      err instanceof Stripe.errors.StripeConnectionError ||
      err instanceof Stripe.errors.StripeAPIError ||
      err instanceof Stripe.errors.StripeRateLimitError ||
      err instanceof Stripe.errors.StripeAuthenticationError
    ) {
      throw new AppError('billing_unavailable');
    }
    throw err;
  }
}

export function isMissingResource(err: unknown): boolean {
  return err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'resource_missing';
}
