import { formatBytes, formatCount } from '@schemacheck/contracts';

// How sizes, counts, money and dates are written on every page: contracts' format module (the
// server's messages use the same), plus the few phrasings only the pages need.

export {
  formatBytes,
  formatCount,
  formatDateTime,
  formatLongDate,
  formatMoney,
} from '@schemacheck/contracts';

/** A plan's maximum file size: "1 MB", "25 MB" or "Unlimited". */
export function formatMaxFileSize(bytes: number | null): string {
  return bytes === null ? 'Unlimited' : formatBytes(bytes);
}

export function formatMaxRows(rows: number | null): string {
  return rows === null ? 'Unlimited rows' : `${formatCount(rows)} rows`;
}

export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export const plural = (n: number, one: string, many = `${one}s`) =>
  `${formatCount(n)} ${n === 1 ? one : many}`;
