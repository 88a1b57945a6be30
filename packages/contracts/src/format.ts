// How numbers, sizes, money and dates are written for people: on every page of the web app and in
// the server's messages alike (one locale, en-GB; dates in UTC, as the plans and resets are).

const LOCALE = 'en-GB';
const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

const counts = new Intl.NumberFormat(LOCALE);
const sizeDigits = [0, 1, 2].map(
  (digits) => new Intl.NumberFormat(LOCALE, { maximumFractionDigits: digits }),
);
const money = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'GBP' });
const longDate = new Intl.DateTimeFormat(LOCALE, {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

const clock = new Intl.DateTimeFormat(LOCALE, {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});
const clockSeconds = new Intl.DateTimeFormat(LOCALE, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** 1234567 → "1,234,567". */
export function formatCount(n: number): string {
  return counts.format(n);
}

/** Three significant figures at most, trailing zeros dropped: 1.5, 12.3, 123. */
function size(n: number): string {
  return sizeDigits[n >= 100 ? 0 : n >= 10 ? 1 : 2]!.format(n);
}

/**
 * A size in binary units, as the plans are written: "342 Bytes", "1.5 KB", "25 MB", "1.2 GB".
 */
export function formatBytes(bytes: number): string {
  if (bytes < KB) return `${counts.format(bytes)} ${bytes === 1 ? 'Byte' : 'Bytes'}`;
  if (bytes < MB) return `${size(bytes / KB)} KB`;
  if (bytes < GB) return `${size(bytes / MB)} MB`;
  return `${size(bytes / GB)} GB`;
}

/** Pence as pounds: 1200 → "£12.00", 3950 → "£39.50", -500 → "-£5.00". */
export function formatMoney(pence: number): string {
  return money.format(pence / 100);
}

/**
 * An ISO timestamp or a Date as "1 December 2026" (UTC); null as '' (no date to tell), an
 * unreadable text as it is.
 */
export function formatLongDate(value: string | Date | null): string {
  if (value === null) return '';
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return longDate.format(date);
}

/**
 * An ISO timestamp or a Date as "1 December 2026, 14:05 UTC" (with `seconds`, "14:05:09 UTC"):
 * the same family as formatLongDate, for the moments a page lists (keys used, jobs, webhook
 * deliveries). null as '', an unreadable text as it is.
 */
export function formatDateTime(
  value: string | Date | null,
  { seconds = false }: { seconds?: boolean } = {},
): string {
  if (value === null) return '';
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return `${longDate.format(date)}, ${(seconds ? clockSeconds : clock).format(date)} UTC`;
}
