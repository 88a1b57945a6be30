import { PLANS, SUBSCRIPTION_TIERS, type Plan } from '@schemacheck/contracts';

import { formatBytes, formatCount, formatMoney } from '@/lib/format';
import { onDeviceFeatures, validatesOnDevice } from '@/lib/plan-display';

// Plan figures in words, read from the one plans module so no page repeats a number.

/** The plans in tier order (contracts' SUBSCRIPTION_TIERS, the one order). */
export const orderedPlans = (): Plan[] => SUBSCRIPTION_TIERS.map((tier) => PLANS[tier]);

export function priceText(plan: Plan): string {
  return plan.pricePence === null ? 'Custom' : formatMoney(plan.pricePence);
}

export const fileSizeText = (plan: Plan) =>
  plan.limits.maxFileBytes === null
    ? 'Custom file sizes'
    : `Files up to ${formatBytes(plan.limits.maxFileBytes)}`;

export const rowsText = (plan: Plan) =>
  plan.limits.maxRows === null
    ? 'Unlimited rows'
    : `${formatCount(plan.limits.maxRows)} rows per file`;

export const validationsText = (plan: Plan) =>
  plan.limits.monthlyValidations === null
    ? 'Unlimited validations'
    : `${formatCount(plan.limits.monthlyValidations)} validations a month`;

/** A plan's file size limit: "1 MB", "25 MB"; "any size" without one. */
export const maxFileText = (plan: Plan) =>
  plan.limits.maxFileBytes === null ? 'any size' : formatBytes(plan.limits.maxFileBytes);

export const PLAN_PITCH: Record<Plan['tier'], string> = {
  free: 'Try it on real files. No credit card.',
  pro: 'For people who check files every week.',
  business: 'For teams and pipelines that need the API.',
  enterprise: 'For very large files, volumes and contracts.',
};

/** Everything a plan includes, in the order the pricing cards list it. */
export function planFeatures(plan: Plan): string[] {
  const l = plan.limits;
  const features = validatesOnDevice(plan)
    ? onDeviceFeatures(plan)
    : [validationsText(plan), fileSizeText(plan), rowsText(plan)];
  features.push(
    l.concurrentValidations === 1 ? 'One file at a time' : 'Several files at once',
    'CSV and JSON, every field type and rule',
  );
  if (l.savedSchemas) features.push('Saved, reusable schemas');
  if (l.reportExport) features.push('CSV error reports stored with each result');
  if (l.apiAccess) features.push('REST API, API keys and webhooks');
  if (plan.tier === 'pro') features.push('Email support');
  if (plan.tier === 'business') features.push('Priority support (reply within 48 hours)');
  if (plan.tier === 'enterprise') {
    features.push('Custom rate limits', 'Dedicated infrastructure', 'SLA');
  }
  return features;
}
