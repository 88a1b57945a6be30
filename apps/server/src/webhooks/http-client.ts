import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import {
  checkingLookup,
  connectionError,
  literalRefusal,
  urlProblem,
  type OutboundPolicy,
} from '../lib/outbound.ts';
import { storableString } from '../lib/unicode.ts';

// The one way a webhook leaves the server (docs/decisions/091), under the guard of the
// server's outbound connections (lib/outbound.ts: http(s) only, every address checked at
// connect). Redirects are never followed (a 3xx is a failure), each attempt has one deadline for
// connect, headers and body, and at most RESPONSE_CAP bytes are read.

export const USER_AGENT = 'SchemaCheck-Webhooks/1.0';
/** Bytes of a response body read at most; the rest is dropped with the connection. */
export const RESPONSE_CAP = 16 * 1024;
/** Characters of the response kept in the delivery log. */
export const EXCERPT_CHARS = 1024;

export interface PostResult {
  /** HTTP status, or null when no response came. */
  status: number | null;
  durationMs: number;
  /**
   * The start of the response body (at most EXCERPT_CHARS), made storable: a receiver's answer
   * is anyone's bytes, and U+0000 or a lone surrogate in it must not stop the attempt being
   * recorded (docs/decisions/120).
   */
  excerpt: string | null;
  /** Why it failed before a response, or why a response is not a success. */
  error: string | null;
  /** 2xx */
  ok: boolean;
  /** Retry-After in seconds when the receiver sent one. */
  retryAfterSeconds: number | null;
}

/**
 * Retry-After as seconds from `nowMs`: delay-seconds or an HTTP date; null when absent or not
 * understood. Not bounded here: the schedule clamps it (deliveries.ts).
 */
export function retryAfterSeconds(header: string | undefined, nowMs: number): number | null {
  if (header === undefined) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at) || !/[a-z]/i.test(text)) return null;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** POSTs `body` as JSON to `raw`, under every rule above. Never throws. */
export async function postJson(
  raw: string,
  body: string,
  headers: Record<string, string>,
  options: { policy: OutboundPolicy; timeoutMs: number },
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string, status: number | null = null): PostResult => ({
    status,
    durationMs: elapsed(),
    excerpt: null,
    error,
    ok: false,
    retryAfterSeconds: null,
  });
  const problem = urlProblem(raw, options.policy);
  if (problem) return failed(problem);
  const url = new URL(raw);
  const literal = literalRefusal(url, options.policy);
  if (literal) return failed(literal);
  const transport = url.protocol === 'https:' ? https : http;

  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (r: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = transport.request(url, {
      method: 'POST',
      // A fresh connection per attempt: no pooled socket skips the address check.
      agent: false,
      lookup: checkingLookup(options.policy),
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': USER_AGENT,
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      finish(failed(`No complete response within ${Math.round(options.timeoutMs / 1000)} s`));
    }, options.timeoutMs);
    req.on('error', (err) => finish(failed(storableString(connectionError(err)))));
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let read = 0;
      const done = () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const ok = status >= 200 && status < 300;
        const retryAfter = retryAfterSeconds(res.headers['retry-after'], Date.now());
        finish({
          status,
          durationMs: elapsed(),
          excerpt: text.length > 0 ? storableString(text.slice(0, EXCERPT_CHARS)) : null,
          error: ok
            ? null
            : status >= 300 && status < 400
              ? `Redirect not followed (HTTP ${status})`
              : `HTTP ${status}`,
          ok,
          retryAfterSeconds: retryAfter,
        });
        res.destroy();
      };
      res.on('data', (chunk: Buffer) => {
        if (read >= RESPONSE_CAP) return;
        const take = chunk.subarray(0, RESPONSE_CAP - read);
        chunks.push(take);
        read += take.length;
        if (read >= RESPONSE_CAP) done();
      });
      res.on('end', done);
      res.on('error', done);
      res.on('close', done);
    });
    req.end(body);
  });
}
