import { formatBytes } from '@schemacheck/contracts';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { addressPolicy } from '../lib/address-policy.ts';
import { getGuarded, OutboundFailure, type OutboundPolicy } from '../lib/outbound.ts';
import { countBytes } from '../validation/byte-counter.ts';

// Jobs posted with `source_url` (docs/decisions/235): the worker that runs the job first fetches
// the file under the same guard as webhook deliveries (lib/outbound.ts: https only, every
// address checked at connect, private ranges refused, each redirect checked again), with the
// same settings (WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOWED_ADDRESSES, for local development and
// tests), and streams it into storage under the job's upload key, cut at the size limit. Every
// failure is the job's, with a message that says what happened.

const USER_AGENT = 'SchemaCheck-Fetch/1.0';
/** Wait for each response's headers, then for each pause of the body. */
const TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;

/** The outbound policy of source_url fetches: the webhooks' own. */
export function sourcePolicy(config: Pick<Config, 'webhooks'>): OutboundPolicy {
  return {
    addresses: addressPolicy(config.webhooks.allowedAddresses),
    allowHttp: config.webhooks.allowHttp,
  };
}

/** The file could not be fetched; the message is the job's error. */
export class SourceFetchFailed extends Error {
  override name = 'SourceFetchFailed';
}

const failed = (why: string) => new SourceFetchFailed(`The file could not be fetched: ${why}`);
const tooLarge = (limit: number) =>
  failed(`it is larger than the file size limit of ${formatBytes(limit)}.`);

/** The body broke off (reset, timeout, closed early): the source's failure, not ours. */
function brokeOff(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return (
    err instanceof OutboundFailure ||
    code === 'ECONNRESET' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    (err as Error | undefined)?.message === 'aborted'
  );
}

/** Fetches `url` into `key`, at most `maxBytes` (null: no limit); returns the bytes stored. */
export async function fetchSource(
  app: FastifyInstance,
  url: string,
  key: string,
  maxBytes: number | null,
): Promise<number> {
  let res;
  try {
    res = await getGuarded(url, {
      policy: sourcePolicy(app.config),
      timeoutMs: TIMEOUT_MS,
      maxRedirects: MAX_REDIRECTS,
      userAgent: USER_AGENT,
    });
  } catch (err) {
    if (err instanceof OutboundFailure) throw failed(err.message);
    throw err;
  }
  const declared = Number(res.headers['content-length']);
  if (maxBytes !== null && Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    throw tooLarge(maxBytes);
  }
  try {
    const { bytes } = await app.storage.put(key, countBytes(res, { max: maxBytes, tooLarge }));
    if (bytes === 0) throw failed('the file is empty.');
    return bytes;
  } catch (err) {
    if (err instanceof SourceFetchFailed) throw err;
    if (brokeOff(err)) throw failed(`the download broke off (${(err as Error).message}).`);
    throw err;
  } finally {
    res.destroy();
  }
}
