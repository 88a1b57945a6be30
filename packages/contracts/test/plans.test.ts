import { describe, expect, it } from 'vitest';

import { nextTier, SUBSCRIPTION_TIERS } from '../src/index.ts';

// The upgrade dialogs suggest the next plan in the one tier order.
describe('nextTier', () => {
  it('suggests the plan above, and Enterprise at the top', () => {
    expect(SUBSCRIPTION_TIERS.map(nextTier)).toEqual([
      'pro',
      'business',
      'enterprise',
      'enterprise',
    ]);
  });
});
