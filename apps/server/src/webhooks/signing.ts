import { createHmac, randomBytes, randomUUID } from 'node:crypto';

// Standard Webhooks signing (docs/decisions/090): every delivery carries `webhook-id` (the same on
// every attempt of one message, so receivers can drop duplicates), `webhook-timestamp` (Unix
// seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the
// base64 bytes after the `whsec_` prefix of the endpoint's own secret.

export const SECRET_PREFIX = 'whsec_';
/** 32 random bytes: inside the spec's 24 to 64. */
const SECRET_BYTES = 32;

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** A message id: `msg_` and a UUID without dashes. */
export function newMessageId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

function keyOf(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('A webhook secret starts with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** `v1,<base64 signature>` of `id.timestamp.body`. */
export function sign(secret: string, messageId: string, timestampSeconds: number, body: string) {
  const mac = createHmac('sha256', keyOf(secret))
    .update(`${messageId}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/** The three headers of one attempt. */
export function signatureHeaders(
  secret: string,
  messageId: string,
  body: string,
  now: Date,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(secret, messageId, timestamp, body),
  };
}
