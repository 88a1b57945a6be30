import { hmacBase64url, randomToken, safeEqual, sha256Hex } from '../lib/crypto.ts';

// CSRF tokens (docs/decisions/012): signed, stateless, bound to who is asking.
//
//   token = "v1." + nonce + "." + HMAC-SHA256(csrfKey, binding + "." + nonce)
//
// The binding is the session id (SHA-256 of the session cookie) when the request has a live
// session, otherwise the SHA-256 of a random pre-session cookie (HttpOnly, SameSite=Lax) that
// GET /api/csrf-token sets. So a token from another session, from before sign-in, or from before
// sign-out does not verify; the check compares fixed-length digests and never throws.

export function preSessionCookieName(secure: boolean): string {
  return secure ? '__Host-sc_csrf' : 'sc_csrf';
}

export type CsrfBinding = { kind: 'session'; id: string } | { kind: 'pre'; cookie: string };

function bindingValue(b: CsrfBinding): string {
  return b.kind === 'session' ? `s:${b.id}` : `p:${sha256Hex(b.cookie)}`;
}

export function issueCsrfToken(key: Buffer, binding: CsrfBinding): string {
  const nonce = randomToken(16);
  return `v1.${nonce}.${hmacBase64url(key, `${bindingValue(binding)}.${nonce}`)}`;
}

export function verifyCsrfToken(key: Buffer, binding: CsrfBinding | null, token: unknown): boolean {
  if (!binding || typeof token !== 'string' || token.length > 200) return false;
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== 'v1' || !parts[1]) return false;
  const expected = hmacBase64url(key, `${bindingValue(binding)}.${parts[1]}`);
  return safeEqual(parts[2]!, expected);
}
