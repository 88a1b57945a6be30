// How sizes, counts and dates are written in the workspace.

const numberFormat = new Intl.NumberFormat('en-GB');
const MB = 1024 * 1024;

export const formatCount = (n: number) => numberFormat.format(n);

/** Bytes, KB or MB (the selected file's size). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${numberFormat.format(bytes)} Bytes`;
  if (bytes < MB) return `${trim(bytes / 1024)} KB`;
  return `${trim(bytes / MB)} MB`;
}

const trim = (n: number) =>
  n >= 100 ? String(Math.round(n)) : n.toFixed(n >= 10 ? 1 : 2).replace(/\.?0+$/, '');

/** A plan's maximum file size: "1 MB", "25 MB" or "Unlimited". */
export function formatMaxFileSize(bytes: number | null): string {
  return bytes === null ? 'Unlimited' : `${numberFormat.format(Math.round(bytes / MB))} MB`;
}

export function formatMaxRows(rows: number | null): string {
  return rows === null ? 'Unlimited rows' : `${numberFormat.format(rows)} rows`;
}

/** Day month year, e.g. "1 December 2026"; the reset date is midnight UTC. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
}

export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export const plural = (n: number, one: string, many = `${one}s`) =>
  `${formatCount(n)} ${n === 1 ? one : many}`;
