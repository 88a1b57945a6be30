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

/**
 * Whether the dashboard checks files on this device rather than on the server
 * (docs/decisions/227): the plan that neither stores reports nor saves schemas gets nothing from
 * an upload, so its files stay on the device, at any size, as on the public validators.
 */
export function validatesOnDevice(plan: Plan): boolean {
  return !plan.limits.reportExport && !plan.limits.savedSchemas;
}

/** "1 MB and 500 rows": the figures that, on an on-device plan, limit the server only. */
export function serverLimitsText(plan: Plan): string {
  const { maxFileBytes, maxRows } = plan.limits;
  const size = maxFileBytes === null ? 'any file size' : formatBytes(maxFileBytes);
  const rows = maxRows === null ? 'unlimited rows' : `${formatCount(maxRows)} rows`;
  return `${size} and ${rows}`;
}

/**
 * The one story of an on-device plan, said the same way on the dashboard, the validators,
 * /csv-upload-errors and the pricing pages.
 */
export function onDeviceStory(plan: Plan): string {
  return `On the ${plan.label} plan files of any size are checked in your browser and never leave your device, and the error report is made there too. The ${plan.label} plan’s ${serverLimitsText(plan)} apply only to what runs and is stored on our servers; stored history, stored reports and saved schemas are part of the paid plans.`;
}

/** An on-device plan's lines: what the browser does, then the figures that limit the server. */
export function onDeviceFeatures(plan: Plan): string[] {
  const monthly = plan.limits.monthlyValidations;
  return [
    'Any file size, checked in your browser: files never leave your device',
    'Error reports made on your device',
    `On our servers: ${serverLimitsText(plan)}${monthly === null ? '' : `, ${formatCount(monthly)} validations a month`}`,
  ];
}

/** The plan's limits and features as short lines, in a fixed order. */
export function planFeatures(plan: Plan): string[] {
  const { limits } = plan;
  if (validatesOnDevice(plan)) return [...onDeviceFeatures(plan), 'CSV and JSON, every rule'];
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
  if (limits.reportExport) lines.push('Error reports stored with each result');
  if (limits.apiAccess) lines.push('REST API, API keys and webhooks');
  return lines;
}
