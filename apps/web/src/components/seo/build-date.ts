// The day shown as "Last updated" on the legal pages (YYYY-MM-DD). The build is made once and
// never again for a new day or origin (docs/decisions/216): the pre-render writes placeholders,
// which the server replaces with its current day (UTC) when it serves the page
// (apps/server/src/plugins/web.ts). The browser takes the day from the page it was served, so the
// hydrating render writes the same text; a legal page reached inside the app (no served date on
// the page) shows the current UTC day, as the server would.
declare const __PRERENDER__: boolean;

/** Replaced by the server with the day (`2026-11-24`). Keep in sync with plugins/web.ts. */
export const SITE_DATE_PLACEHOLDER = '__SCHEMACHECK_DATE_ISO__';
/** Replaced by the server with the day in words (`24 November 2026`). */
export const SITE_DATE_LONG_PLACEHOLDER = '__SCHEMACHECK_DATE_TEXT__';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The day the page shows: the served page's, else today (UTC); placeholders in the pre-render. */
export function siteDate(): string {
  if (__PRERENDER__) return SITE_DATE_PLACEHOLDER;
  const served =
    typeof document === 'undefined'
      ? null
      : document.querySelector('time[data-site-date]')?.getAttribute('datetime');
  if (served && DAY.test(served)) return served;
  return new Date().toISOString().slice(0, 10);
}

/** A day (YYYY-MM-DD) as "24 November 2026"; the server formats its day the same way. */
export function formatSiteDate(day: string, locale = 'en-GB'): string {
  if (day === SITE_DATE_PLACEHOLDER) return SITE_DATE_LONG_PLACEHOLDER;
  return new Date(`${day}T00:00:00Z`).toLocaleDateString(locale, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
