// Absolute URLs of this site's pages, for structured data and the API samples.

let renderOrigin = '';

/**
 * The origin for URLs in structured data when there is no window: the pre-render sets the origin
 * it writes into canonical URLs (which the server rewrites when it runs under another one).
 */
export function setSiteOrigin(origin: string): void {
  renderOrigin = origin;
}

/** Absolute URL of a path on this site (the canonical origin is the one serving the page). */
export function siteUrl(path: string): string {
  const origin = typeof window === 'undefined' ? renderOrigin : window.location.origin;
  return origin + path;
}
