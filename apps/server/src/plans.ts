import {
  PAID_TIERS,
  PLANS,
  SUBSCRIPTION_TIERS,
  type PaidTier,
  type PlanLimits,
  type SubscriptionTier,
} from '@schemacheck/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

// What each plan includes, as the server checks and words it (docs/decisions/181). Every figure and
// every "which plans have it" comes from the contracts' plan table (PLANS) in the contracts' tier
// order (SUBSCRIPTION_TIERS): no message names a plan by hand, and no other module of the server
// writes the tiers out in order.

/** The tiers from the cheapest up: the server's one tier order. */
export const TIER_ORDER: readonly SubscriptionTier[] = SUBSCRIPTION_TIERS;

/** The plans bought through Checkout (Pro, Business); Enterprise is agreed by contract. */
export function isPaidTier(tier: SubscriptionTier): tier is PaidTier {
  return (PAID_TIERS as readonly SubscriptionTier[]).includes(tier);
}

/** A plan limit that is a yes or a no. */
export type PlanFlag = {
  [K in keyof PlanLimits]: PlanLimits[K] extends boolean ? K : never;
}[keyof PlanLimits];

/** The tiers whose plan includes `flag`, cheapest first. */
export function tiersWith(flag: PlanFlag): SubscriptionTier[] {
  return TIER_ORDER.filter((tier) => PLANS[tier].limits[flag]);
}

/**
 * The plans that include `flag`, as a sentence says them: "the Pro plan and above" (three or more
 * plans up to the top one), "the Business and Enterprise plans", "the Business or Enterprise plan"
 * (with `or`), "the Pro plan".
 */
export function plansWith(flag: PlanFlag, conjunction: 'and' | 'or' = 'and'): string {
  const tiers = tiersWith(flag);
  const labels = tiers.map((tier) => PLANS[tier].label);
  if (labels.length === 0) return 'no plan';
  if (labels.length === 1) return `the ${labels[0]} plan`;
  const toTheTop = tiers.at(-1) === TIER_ORDER.at(-1);
  if (labels.length >= 3 && toTheTop) return `the ${labels[0]} plan and above`;
  const list = `${labels.slice(0, -1).join(', ')} ${conjunction} ${labels.at(-1)}`;
  return conjunction === 'and' ? `the ${list} plans` : `the ${list} plan`;
}

const UPGRADE = () => '. Upgrade in your profile.';

/** The features a plan may leave out, the limit that grants each, and how a refusal words it. */
export const FEATURES = {
  savedSchemas: { flag: 'savedSchemas', subject: 'Saving and loading schemas is', end: () => '.' },
  reportExport: {
    flag: 'reportExport',
    subject: 'Downloading the full error report is',
    end: () => '.',
  },
  rowDownloads: {
    flag: 'reportExport',
    subject: 'Downloading the valid and invalid rows is',
    end: () => '.',
  },
  apiKeys: { flag: 'apiAccess', subject: 'API keys are', end: UPGRADE },
  webhooks: { flag: 'apiAccess', subject: 'Webhooks are', end: UPGRADE },
  /** The public API itself, refused to a key whose account left the plans that have it. */
  api: {
    flag: 'apiAccess',
    subject: 'The API is',
    end: (tier: SubscriptionTier) =>
      `; this account is on the ${PLANS[tier].label} plan. Upgrade in your profile to use this key again.`,
  },
} as const satisfies Record<
  string,
  { flag: PlanFlag; subject: string; end: (tier: SubscriptionTier) => string }
>;

export type Feature = keyof typeof FEATURES;

/**
 * The refusal's message: "API keys are available on the Business and Enterprise plans. Upgrade in
 * your profile."; `tier` is the account's.
 */
export function planRequiredMessage(feature: Feature, tier: SubscriptionTier): string {
  const { flag, subject, end } = FEATURES[feature];
  return `${subject} available on ${plansWith(flag)}${end(tier)}`;
}

/** Whether the tier's plan includes the feature. */
export function hasFeature(tier: SubscriptionTier, feature: Feature): boolean {
  return PLANS[tier].limits[FEATURES[feature].flag];
}

/** 403 plan_required, with the feature's message, unless the tier's plan includes it. */
export function assertFeature(tier: SubscriptionTier, feature: Feature): void {
  if (!hasFeature(tier, feature)) {
    throw new AppError('plan_required', { message: planRequiredMessage(feature, tier) });
  }
}

/**
 * The plan check as a route hook, for a signed-in user (after requireUser):
 * `{ onRequest: requireUser, preHandler: requireFeature('savedSchemas') }`.
 */
export function requireFeature(feature: Feature) {
  return async (request: FastifyRequest): Promise<void> => {
    assertFeature(request.auth!.user.subscriptionTier, feature);
  };
}
