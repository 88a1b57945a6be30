// Verifying webhook deliveries (Standard Webhooks, https://www.standardwebhooks.com): the
// signature is `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` keyed with
// the base64 part of the webhook's `whsec_` secret. Web Crypto only, so the same code runs in
// Node 20+, Deno, Bun, workers and browsers.
import type { components } from './generated/api.ts';

export type WebhookEvent =
  | components['schemas']['JobCompletedEvent']
  | components['schemas']['JobFailedEvent']
  | components['schemas']['WebhookTestEvent'];

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far the signed timestamp may be from now (default 300 s), against replays. */
  toleranceSeconds?: number;
  /** The current time (tests). */
  now?: Date;
}

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

/**
 * Checks a delivery's signature and timestamp and returns its event. `body` must be the raw
 * request body exactly as received (a re-serialised JSON object does not verify). Throws a
 * WebhookVerificationError when anything does not match.
 */
export async function verifyWebhook(
  secret: string,
  body: string | Uint8Array,
  headers: WebhookHeaders,
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError(
      'Missing webhook-id, webhook-timestamp or webhook-signature',
    );
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('Invalid webhook-timestamp');
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(now - Number(timestamp)) > tolerance)
    throw new WebhookVerificationError('The webhook-timestamp is outside the tolerance');

  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const expected = await sign(secret, id, timestamp, text);
  const matches = signatures
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .some((s) => equalBytes(base64ToBytes(s.slice(3)), expected));
  if (!matches) throw new WebhookVerificationError('No signature matches');
  return JSON.parse(text) as WebhookEvent;
}

/** The `v1,…` signature of a message (what the server sends; for tests of a receiver). */
export async function signWebhook(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): Promise<string> {
  return `v1,${bytesToBase64(await sign(secret, id, String(timestamp), body))}`;
}

async function sign(secret: string, id: string, timestamp: string, body: string) {
  const keyBytes = base64ToBytes(secret.startsWith('whsec_') ? secret.slice(6) : secret);
  const key = await crypto.subtle.importKey(
    'raw',
    keyBytes,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const message = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, message));
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

/** Constant time in the length, so a timing difference tells nothing about the signature. */
function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return new Uint8Array(0);
  }
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}
