import { SUBSCRIPTION_TIERS, type SubscriptionTier } from './tiers.ts';

// The plan figures (docs/product.md#plans-and-limits). Server and web read these; no other module repeats them.

export interface PlanLimits {
  /** Bytes; null is unlimited. */
  maxFileBytes: number | null;
  /** Data rows; null is unlimited. */
  maxRows: number | null;
  /** Validations per calendar month (UTC); null is unlimited. */
  monthlyValidations: number | null;
  /** Validations running at once; null is unlimited. */
  concurrentValidations: number | null;
  savedSchemas: boolean;
  reportExport: boolean;
  apiAccess: boolean;
  /** Active (unrevoked) API keys an account may hold; 0 without API access. */
  activeApiKeys: number;
  /**
   * Values one saved reference list may hold (docs/decisions/200); 0: no saved lists (the plan
   * uses inline `values` only).
   */
  listValues: number;
}

export interface Plan {
  tier: SubscriptionTier;
  label: string;
  /** Monthly price in pence (GBP); null for contact-sales. */
  pricePence: number | null;
  limits: PlanLimits;
}

const MB = 1024 * 1024;

export const PLANS: Record<SubscriptionTier, Plan> = {
  free: {
    tier: 'free',
    label: 'Free',
    pricePence: 0,
    limits: {
      maxFileBytes: 1 * MB,
      maxRows: 500,
      monthlyValidations: 100,
      concurrentValidations: 1,
      savedSchemas: false,
      reportExport: false,
      apiAccess: false,
      activeApiKeys: 0,
      listValues: 0,
    },
  },
  pro: {
    tier: 'pro',
    label: 'Pro',
    pricePence: 1200,
    limits: {
      maxFileBytes: 25 * MB,
      maxRows: 50_000,
      monthlyValidations: 500,
      concurrentValidations: null,
      savedSchemas: true,
      reportExport: true,
      apiAccess: false,
      activeApiKeys: 0,
      listValues: 10_000,
    },
  },
  business: {
    tier: 'business',
    label: 'Business',
    pricePence: 3900,
    limits: {
      maxFileBytes: 100 * MB,
      maxRows: null,
      monthlyValidations: 50_000,
      concurrentValidations: null,
      savedSchemas: true,
      reportExport: true,
      apiAccess: true,
      activeApiKeys: 10,
      listValues: 1_000_000,
    },
  },
  enterprise: {
    tier: 'enterprise',
    label: 'Enterprise',
    pricePence: null,
    limits: {
      maxFileBytes: null,
      maxRows: null,
      monthlyValidations: null,
      concurrentValidations: null,
      savedSchemas: true,
      reportExport: true,
      apiAccess: true,
      activeApiKeys: 50,
      listValues: 1_000_000,
    },
  },
};

/** Saved reference lists an account may hold, on any plan that has them. */
export const MAX_LISTS = 100;

/** The plan the file-too-large dialog suggests. */
export function nextTier(tier: SubscriptionTier): SubscriptionTier {
  const at = SUBSCRIPTION_TIERS.indexOf(tier);
  return SUBSCRIPTION_TIERS[Math.min(at + 1, SUBSCRIPTION_TIERS.length - 1)]!;
}

/** Start of the next calendar month in UTC: when monthly usage resets. */
export function usageResetDate(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}
