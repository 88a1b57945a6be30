import { randomUUID } from 'node:crypto';

// Every request has an id that a client can quote to support (docs/decisions/135): the
// X-Request-Id it sent, when it sent one, so that a pipeline's own trace id reaches our logs;
// otherwise a random UUID. The id is echoed as the X-Request-Id header of every response and as
// `request_id` in every error body. A sent id is untrusted text that goes into logs and a
// response header, so it is cut down to a small set of characters and a bounded length.

export const REQUEST_ID_HEADER = 'x-request-id';
export const REQUEST_ID_MAX_LENGTH = 128;

/** Characters kept from a sent id: enough for UUIDs, ULIDs and trace ids (`Root=1-ab-cd`). */
const UNSAFE = /[^A-Za-z0-9._:=+/@-]/g;

/** The sent id made safe, or null when nothing usable is left. */
export function sanitiseRequestId(sent: string | string[] | undefined): string | null {
  const raw = Array.isArray(sent) ? sent[0] : sent;
  if (typeof raw !== 'string') return null;
  const clean = raw.replace(UNSAFE, '').slice(0, REQUEST_ID_MAX_LENGTH);
  return clean.length > 0 ? clean : null;
}

/** Fastify's genReqId: the sent X-Request-Id (sanitised) or a new UUID. */
export function requestIdOf(req: {
  headers: Record<string, string | string[] | undefined>;
}): string {
  return sanitiseRequestId(req.headers[REQUEST_ID_HEADER]) ?? randomUUID();
}
