import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { storableString } from '../lib/unicode.ts';
import { refusalOf, type AddressPolicy } from './address-policy.ts';

// The one way a webhook leaves the server (docs/decisions/091). http(s) only; the address is
// checked inside the socket's `lookup`, on every address the name resolves to, so the address
// connected to is the address checked (DNS rebinding has nothing to swap) and a name with one
// public and one private record is refused. IP literals skip `lookup` in Node, so they are
// checked before connecting. Redirects are never followed (a 3xx is a failure), each attempt has
// one deadline for connect, headers and body, and at most RESPONSE_CAP bytes are read.

export const USER_AGENT = 'SchemaCheck-Webhooks/1.0';
/** Bytes of a response body read at most; the rest is dropped with the connection. */
export const RESPONSE_CAP = 16 * 1024;
/** Characters of the response kept in the delivery log. */
export const EXCERPT_CHARS = 1024;

/** Resolves a name to every address it has (injectable so tests can play a rebinding DNS). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses),
    ),
  );

export interface OutboundPolicy {
  addresses: AddressPolicy;
  /** Plain http allowed (local development and tests only). */
  allowHttp: boolean;
  resolver?: Resolver;
}

export class RefusedDestination extends Error {
  override name = 'RefusedDestination';
}

/** Why `raw` cannot be a webhook URL by its text alone (scheme, credentials), or null. */
export function urlProblem(raw: string, policy: Pick<OutboundPolicy, 'allowHttp'>): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Enter a valid URL such as https://example.com/webhooks';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return 'Only http and https URLs are accepted';
  }
  if (url.protocol === 'http:' && !policy.allowHttp) return 'The URL must use https';
  if (url.username || url.password) return 'The URL must not contain a user name or password';
  if (raw.length > 2000) return 'The URL is longer than 2000 characters';
  return null;
}

/** The URL's host as the socket sees it: IPv6 literals without brackets. */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Resolves and checks the URL's host now (fast feedback when a webhook is saved). Delivery checks
 * again at connect time; this is never the only check.
 */
export async function checkDestination(raw: string, policy: OutboundPolicy): Promise<void> {
  const problem = urlProblem(raw, policy);
  if (problem) throw new RefusedDestination(problem);
  const host = hostOf(new URL(raw));
  const addresses = isIP(host)
    ? [host]
    : (
        await (policy.resolver ?? systemResolver)(host).catch(() => {
          throw new RefusedDestination(`${host} cannot be resolved`);
        })
      ).map((a) => a.address);
  for (const a of addresses) {
    const why = refusalOf(a, policy.addresses);
    if (why) throw new RefusedDestination(`Refused: ${why}`);
  }
}

function checkingLookup(policy: OutboundPolicy): LookupFunction {
  const resolver = policy.resolver ?? systemResolver;
  return (hostname, options, callback) => {
    resolver(hostname).then(
      (all) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = wanted ? all.filter((a) => a.family === wanted) : all;
        for (const a of all) {
          const why = refusalOf(a.address, policy.addresses);
          if (why) {
            callback(new RefusedDestination(`Refused: ${hostname} resolves to ${why}`), '', 0);
            return;
          }
        }
        if (usable.length === 0) {
          const err = Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
          callback(err, '', 0);
          return;
        }
        if (options.all)
          (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

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
  const host = hostOf(url);
  if (isIP(host)) {
    const why = refusalOf(host, options.policy.addresses);
    if (why) return failed(`Refused: ${why}`);
  }
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
    req.on('error', (err) => {
      const message =
        err instanceof RefusedDestination
          ? err.message
          : `${(err as NodeJS.ErrnoException).code ?? 'Error'}: ${err.message}`;
      finish(failed(storableString(message)));
    });
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
