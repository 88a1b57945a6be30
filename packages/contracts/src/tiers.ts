// The plans in their order, cheapest first: the one home of the tier order. Kept apart from the
// zod schemas so that the pages that only show plans (pricing, legal pages) do not load zod.

export const SUBSCRIPTION_TIERS = ['free', 'pro', 'business', 'enterprise'] as const;
export type SubscriptionTier = (typeof SUBSCRIPTION_TIERS)[number];
