import type { Plan } from '@schemacheck/contracts';

// How plan figures from contracts' PLANS are written for people; no figure is repeated here.

const MB = 1024 * 1024;
const numberFormat = new Intl.NumberFormat('en-GB');

export function formatPlanPrice(plan: Plan): { amount: string; period: string | null } {
  if (plan.pricePence === null) return { amount: 'Custom', period: null };
  const pounds = plan.pricePence / 100;
  return {
    amount: `£${Number.isInteger(pounds) ? pounds : pounds.toFixed(2)}`,
    period: '/month',
  };
}

export function formatFileLimit(bytes: number | null): string {
  if (bytes === null) return 'Unlimited file size';
  return `Files up to ${numberFormat.format(Math.round(bytes / MB))} MB`;
}

/** The plan's limits and features as short lines, in a fixed order. */
export function planFeatures(plan: Plan): string[] {
  const { limits } = plan;
  const lines = [
    formatFileLimit(limits.maxFileBytes),
    limits.maxRows === null
      ? 'Unlimited rows'
      : `Up to ${numberFormat.format(limits.maxRows)} rows per file`,
    limits.monthlyValidations === null
      ? 'Unlimited validations'
      : `${numberFormat.format(limits.monthlyValidations)} validations a month`,
  ];
  if (limits.savedSchemas) lines.push('Saved, reusable schemas');
  if (limits.reportExport) lines.push('Downloadable error reports');
  if (limits.apiAccess) lines.push('REST API, API keys and webhooks');
  if (!limits.savedSchemas) lines.push('CSV and JSON in the browser');
  return lines;
}
