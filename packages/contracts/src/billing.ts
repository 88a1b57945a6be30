import { z } from 'zod';
import { SUBSCRIPTION_TIERS } from './tiers.ts';

// Billing requests and answers (docs/decisions/070-074): what the profile page, the payment
// return page and the server's billing routes share. Amounts are pence (GBP), dates ISO strings.

/** Plans bought through Checkout. Enterprise is contact-only; Free needs no payment. */
export const PAID_TIERS = ['pro', 'business'] as const;
export type PaidTier = (typeof PAID_TIERS)[number];

const paidTier = z.enum(PAID_TIERS, { error: 'Choose the Pro or Business plan' });

/** POST /api/create-checkout-session */
export const checkoutRequestSchema = z.object({ tier: paidTier });
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;
/** The answer of Checkout and of the billing portal: where the browser goes next. */
export const redirectResponseSchema = z.object({ url: z.string() });
export type RedirectResponse = z.infer<typeof redirectResponseSchema>;

/**
 * PATCH /api/auth/subscription: between paid plans (prorated) or to free (at period end). The
 * proration time is the server's, never the browser's: `quote` is the preview's signed quote,
 * handed back so that the charge is the one shown (docs/decisions/125). Without it the change is
 * prorated at the moment it is made.
 */
export const changeSubscriptionSchema = z.object({
  tier: z.enum(['free', ...PAID_TIERS], { error: 'Choose the Free, Pro or Business plan' }),
  quote: z.string().min(1).max(2000).optional(),
});
export type ChangeSubscriptionRequest = z.infer<typeof changeSubscriptionSchema>;

/** POST /api/auth/subscription/preview: what a switch between paid plans costs now. */
export const previewRequestSchema = z.object({ tier: paidTier });
export type PreviewRequest = z.infer<typeof previewRequestSchema>;

export const planChangePreviewSchema = z.object({
  tier: z.enum(PAID_TIERS),
  /** Charged now when positive; credited to the next invoices when negative. */
  amountPence: z.number().int(),
  /** The new plan's monthly price. */
  monthlyPence: z.number().int(),
  currency: z.literal('gbp'),
  /** The next regular invoice (the end of the current period). */
  nextInvoiceDate: z.string(),
  /** Opaque, signed by the server: send it with the change to be charged exactly this amount. */
  quote: z.string(),
  /** After this (ISO time) the quote is refused with 409 preview_expired: preview again. */
  quoteExpiresAt: z.string(),
});
export type PlanChangePreview = z.infer<typeof planChangePreviewSchema>;

export const SUBSCRIPTION_STATUSES = [
  'none',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'incomplete',
  'other',
] as const;

/** GET /api/auth/subscription: the plan as last verified with Stripe. */
export const subscriptionStateSchema = z.object({
  tier: z.enum(SUBSCRIPTION_TIERS),
  /** 'none' when there is no subscription (Free, or a plan set by an operator). */
  status: z.enum(SUBSCRIPTION_STATUSES),
  /** The plan the subscription pays for (may differ from tier while past due). */
  subscribedTier: z.enum(PAID_TIERS).nullable(),
  cancelAtPeriodEnd: z.boolean(),
  /** End of the paid period: the next invoice date, or the end date when cancelling. */
  currentPeriodEnd: z.string().nullable(),
  pastDueSince: z.string().nullable(),
  /** Business keeps its limits until then while a renewal is unpaid (docs/decisions/073). */
  graceEndsAt: z.string().nullable(),
  /** "test": the built-in test mode, no real charges. */
  mode: z.enum(['test', 'live']),
  /** A Stripe customer exists: invoices and the card can be managed. */
  canManageBilling: z.boolean(),
  /** The tier was set by an operator (npm run set-tier), not bought. */
  setByOperator: z.boolean(),
});
export type SubscriptionState = z.infer<typeof subscriptionStateSchema>;

/** GET /api/stripe/session/{id} */
export const checkoutSessionResultSchema = z.object({
  success: z.boolean(),
  tier: z.enum(SUBSCRIPTION_TIERS),
});
export type CheckoutSessionResult = z.infer<typeof checkoutSessionResultSchema>;

/** The test card Stripe documents for a successful payment. */
export const TEST_CARD_NUMBER = '4242 4242 4242 4242';
