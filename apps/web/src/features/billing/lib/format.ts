// Money and dates as billing shows them: pounds with pence, and "31 December 2026".

const money = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
const longDate = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

export function formatPence(pence: number): string {
  return money.format(Math.abs(pence) / 100);
}

export function formatLongDate(iso: string | null): string {
  return iso ? longDate.format(new Date(iso)) : '';
}
