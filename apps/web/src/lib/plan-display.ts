import type { Plan } from '@schemacheck/contracts';

import { formatBytes, formatCount, formatMoney } from './format';

// How plan figures from contracts' PLANS are written for people; no figure is repeated here.

export function formatPlanPrice(plan: Plan): { amount: string; period: string | null } {
  if (plan.pricePence === null) return { amount: 'Custom', period: null };
  return { amount: formatMoney(plan.pricePence), period: '/month' };
}

export function formatFileLimit(bytes: number | null): string {
  if (bytes === null) return 'Unlimited file size';
  return `Files up to ${formatBytes(bytes)}`;
}

/** The plan's limits and features as short lines, in a fixed order. */
export function planFeatures(plan: Plan): string[] {
  const { limits } = plan;
  const lines = [
    formatFileLimit(limits.maxFileBytes),
    limits.maxRows === null
      ? 'Unlimited rows'
      : `Up to ${formatCount(limits.maxRows)} rows per file`,
    limits.monthlyValidations === null
      ? 'Unlimited validations'
      : `${formatCount(limits.monthlyValidations)} validations a month`,
  ];
  if (limits.savedSchemas) lines.push('Saved, reusable schemas');
  if (limits.reportExport) lines.push('Downloadable error reports');
  if (limits.apiAccess) lines.push('REST API, API keys and webhooks');
  if (!limits.savedSchemas) lines.push('CSV and JSON in the browser');
  return lines;
}
