import { PLANS, SUBSCRIPTION_TIERS } from '@schemacheck/contracts';
import { describe, expect, it } from 'vitest';
import type { AppError } from '../src/errors.ts';
import { assertFeature, hasFeature, plansWith, TIER_ORDER } from '../src/plans.ts';

// The plan check's refusals are built from the plan table (PLANS): these are the sentences users
// read in the dashboard and from the API, word for word as they were written by hand before.

function refusal(run: () => void): AppError {
  try {
    run();
  } catch (err) {
    return err as AppError;
  }
  throw new Error('not refused');
}

describe('plan features', () => {
  it('words each refusal from the plan table', () => {
    expect(refusal(() => assertFeature('free', 'savedSchemas')).message).toBe(
      'Saving and loading schemas is available on the Pro plan and above.',
    );
    expect(refusal(() => assertFeature('free', 'reportExport')).message).toBe(
      'Downloading the full error report is available on the Pro plan and above.',
    );
    expect(refusal(() => assertFeature('free', 'rowDownloads')).message).toBe(
      'Downloading the valid and invalid rows is available on the Pro plan and above.',
    );
    expect(refusal(() => assertFeature('pro', 'apiKeys')).message).toBe(
      'API keys are available on the Business and Enterprise plans. Upgrade in your profile.',
    );
    expect(refusal(() => assertFeature('free', 'webhooks')).message).toBe(
      'Webhooks are available on the Business and Enterprise plans. Upgrade in your profile.',
    );
    const api = refusal(() => assertFeature('pro', 'api'));
    expect(api.message).toBe(
      'The API is available on the Business and Enterprise plans; this account is on the Pro plan. Upgrade in your profile to use this key again.',
    );
    expect(api.code).toBe('plan_required');
    expect(api.statusCode).toBe(403);
    expect(plansWith('apiAccess', 'or')).toBe('the Business or Enterprise plan');
  });

  it('lets every plan that includes a feature through, and only those', () => {
    for (const tier of SUBSCRIPTION_TIERS) {
      const limits = PLANS[tier].limits;
      expect(hasFeature(tier, 'savedSchemas')).toBe(limits.savedSchemas);
      expect(hasFeature(tier, 'reportExport')).toBe(limits.reportExport);
      expect(hasFeature(tier, 'apiKeys')).toBe(limits.apiAccess);
      if (limits.apiAccess) expect(() => assertFeature(tier, 'webhooks')).not.toThrow();
    }
    expect(TIER_ORDER).toEqual(['free', 'pro', 'business', 'enterprise']);
  });
});
