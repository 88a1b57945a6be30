// The day the site was built (YYYY-MM-DD), set by vite.config.ts for the browser and the
// pre-render alike. Pages that show a date ("Last updated") render this one, never `new Date()`:
// a pre-rendered page must render the same text when it hydrates on a later day.
declare const __BUILD_DATE__: string;

export const BUILD_DATE: string = __BUILD_DATE__;

/** BUILD_DATE as "24 November 2026". */
export function formatBuildDate(locale = 'en-GB'): string {
  return new Date(`${BUILD_DATE}T00:00:00Z`).toLocaleDateString(locale, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
