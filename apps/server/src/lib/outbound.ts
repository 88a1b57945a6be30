import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { refusalOf, type AddressPolicy } from './address-policy.ts';

// The one guard of the connections the server makes on a user's behalf (docs/decisions/091, 235):
// webhook deliveries (webhooks/http-client.ts) and source_url fetches (getGuarded below). http(s)
// only; the address is checked inside the socket's `lookup`, on every address the name resolves
// to, so the address connected to is the address checked (DNS rebinding has nothing to swap) and
// a name with one public and one private record is refused. IP literals skip `lookup` in Node,
// so they are checked before connecting. Each connection is a fresh one (`agent: false`): no
// pooled socket skips the check.

/** Resolves a name to every address it has (injectable so tests can play a rebinding DNS). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) =>
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

/** Why `raw` cannot be called by its text alone (scheme, credentials), or null. */
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

/** Why the URL's host, when an IP literal, may not be called (Node skips `lookup` for them). */
export function literalRefusal(url: URL, policy: OutboundPolicy): string | null {
  const host = hostOf(url);
  if (!isIP(host)) return null;
  const why = refusalOf(host, policy.addresses);
  return why ? `Refused: ${why}` : null;
}

/**
 * Resolves and checks the URL's host now (fast feedback when a webhook is saved). Connections
 * check again at connect time; this is never the only check.
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

/** The socket's `lookup`: resolves, then refuses the connection when any address is refused. */
export function checkingLookup(policy: OutboundPolicy): LookupFunction {
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

/** The one message of a failed connection: the guard's refusal, or the socket's code. */
export function connectionError(err: Error): string {
  return err instanceof RefusedDestination
    ? err.message
    : `${(err as NodeJS.ErrnoException).code ?? 'Error'}: ${err.message}`;
}

/** A GET that did not give a 2xx body; the message says why (shown to the user). */
export class OutboundFailure extends Error {
  override name = 'OutboundFailure';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GETs `raw` under the guard and answers the 2xx response, whose body the caller reads (and
 * destroys). Redirects are followed up to `maxRedirects`, each one checked again from its text
 * (scheme) to its connection. `timeoutMs` bounds the wait for each response's headers, and then
 * each pause of the body. Throws OutboundFailure.
 */
export async function getGuarded(
  raw: string,
  options: { policy: OutboundPolicy; timeoutMs: number; maxRedirects: number; userAgent: string },
): Promise<IncomingMessage> {
  let current = raw;
  for (let hop = 0; ; hop++) {
    const problem = urlProblem(current, options.policy);
    if (problem) throw new OutboundFailure(problem);
    const url = new URL(current);
    const literal = literalRefusal(url, options.policy);
    if (literal) throw new OutboundFailure(literal);
    const res = await getOnce(url, options);
    const status = res.statusCode ?? 0;
    if (status >= 200 && status < 300) {
      res.setTimeout(options.timeoutMs, () =>
        res.destroy(
          new OutboundFailure(
            `No data for ${Math.round(options.timeoutMs / 1000)} s from ${url.host}`,
          ),
        ),
      );
      return res;
    }
    res.destroy();
    const location = res.headers.location;
    if (REDIRECTS.has(status) && location) {
      if (hop >= options.maxRedirects) {
        throw new OutboundFailure(`More than ${options.maxRedirects} redirects`);
      }
      current = new URL(location, url).toString();
      continue;
    }
    throw new OutboundFailure(`HTTP ${status} from ${url.host}`);
  }
}

function getOnce(
  url: URL,
  options: { policy: OutboundPolicy; timeoutMs: number; userAgent: string },
): Promise<IncomingMessage> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(url, {
      method: 'GET',
      agent: false,
      lookup: checkingLookup(options.policy),
      headers: { 'user-agent': options.userAgent, 'accept-encoding': 'identity' },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(
        new OutboundFailure(
          `No answer from ${url.host} within ${Math.round(options.timeoutMs / 1000)} s`,
        ),
      );
    }, options.timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(new OutboundFailure(`${url.host} could not be reached: ${connectionError(err)}`));
    });
    req.on('response', (res) => {
      clearTimeout(timer);
      resolve(res);
    });
    req.end();
  });
}
