import { PLANS, type Plan } from '@schemacheck/contracts';

// Plan figures in words, read from the one plans module so no page repeats a number.

export const PLAN_ORDER = ['free', 'pro', 'business', 'enterprise'] as const;
export const orderedPlans = (): Plan[] => PLAN_ORDER.map((tier) => PLANS[tier]);

const MB = 1024 * 1024;
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

export function priceText(plan: Plan): string {
  if (plan.pricePence === null) return 'Custom';
  const pounds = plan.pricePence / 100;
  return `£${Number.isInteger(pounds) ? pounds : pounds.toFixed(2)}`;
}

export const fileSizeText = (plan: Plan) =>
  plan.limits.maxFileBytes === null
    ? 'Custom file sizes'
    : `Files up to ${plan.limits.maxFileBytes / MB} MB`;

export const rowsText = (plan: Plan) =>
  plan.limits.maxRows === null ? 'Unlimited rows' : `${grouped(plan.limits.maxRows)} rows per file`;

export const validationsText = (plan: Plan) =>
  plan.limits.monthlyValidations === null
    ? 'Unlimited validations'
    : `${grouped(plan.limits.monthlyValidations)} validations a month`;

export const maxFileMb = (plan: Plan) =>
  plan.limits.maxFileBytes === null ? null : plan.limits.maxFileBytes / MB;

export const PLAN_PITCH: Record<Plan['tier'], string> = {
  free: 'Try it on real files. No credit card.',
  pro: 'For people who check files every week.',
  business: 'For teams and pipelines that need the API.',
  enterprise: 'For very large files, volumes and contracts.',
};

/** Everything a plan includes, in the order the pricing cards list it. */
export function planFeatures(plan: Plan): string[] {
  const l = plan.limits;
  const features = [validationsText(plan), fileSizeText(plan), rowsText(plan)];
  features.push(
    l.concurrentValidations === 1 ? 'One file at a time' : 'Several files at once',
    'CSV and JSON, every field type and rule',
  );
  if (l.savedSchemas) features.push('Saved, reusable schemas');
  if (l.reportExport) features.push('Downloadable CSV error reports');
  if (l.apiAccess) features.push('REST API, API keys and webhooks');
  if (plan.tier === 'pro') features.push('Email support');
  if (plan.tier === 'business') features.push('Priority support (reply within 48 hours)');
  if (plan.tier === 'enterprise') {
    features.push('Custom rate limits', 'Dedicated infrastructure', 'SLA');
  }
  return features;
}
