import { PAID_TIERS, type PaidTier } from '@schemacheck/contracts';

import { paths } from '@/config/paths';

// Where /auth sends a user once signed in (docs/decisions/175): to a paid plan's checkout when a
// pricing button carried `plan`, back to a deep link when a guarded page carried `next`, else the
// dashboard. `next` is only ever a path on this site: an absolute URL, a scheme-relative `//host`
// or a backslash trick would turn the sign-in page into an open redirect.

const BASE = 'https://schemacheck.invalid';

/** `value` as a same-origin path (with its query and hash), or null when it is not one. */
export function safeNext(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\'))
    return null;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Back to the sign-in page would loop.
  return url.pathname === paths.auth ? null : path;
}

/** The paid plan a pricing button asked for, or null. */
export function planParam(value: string | null | undefined): PaidTier | null {
  return (PAID_TIERS as readonly string[]).includes(value ?? '') ? (value as PaidTier) : null;
}

/** /auth with what it should do after sign-in. */
export function authHref(options: { tab?: 'register'; plan?: PaidTier; next?: string }): string {
  const params = new URLSearchParams();
  if (options.tab) params.set('tab', options.tab);
  if (options.plan) params.set('plan', options.plan);
  const next = safeNext(options.next);
  if (next) params.set('next', next);
  const query = params.toString();
  return query ? `${paths.auth}?${query}` : paths.auth;
}
