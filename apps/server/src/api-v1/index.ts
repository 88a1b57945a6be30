import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { stopReading } from '../validation/upload-request.ts';
import { authenticate } from './auth.ts';
import { hashMultipartBody, readToEnd, type BodyHash } from './body-hash.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  MAX_KEY_LENGTH,
  releaseIdempotencyKey,
  requestFingerprint,
} from './idempotency.ts';
import { ApiV1 } from './openapi.ts';
import { rateLimitOf, takeRequest, WINDOW_SECONDS } from './rate-limit.ts';
import { routeModules } from './routes/index.ts';
import './types.ts';
import { recordApiCall } from './usage.ts';

// The public API, registered at /api/v1 (docs/decisions/081-084). For every call, in order:
//   onRequest   the API key (auth.ts), then the account's rate limit with RateLimit-* headers;
//   preHandler  Idempotency-Key on POST: replay, refuse, or claim;
//   handler     the route (routes/*.ts), its input parsed with the contracts' zod schemas;
//   onSend      the claimed key stores the response (or is released on 429/5xx);
//   onSend      one api_usage row (rows and bytes set by the route in request.apiUsage).
// Errors take the one shape of the whole server (errors.ts), thrown anywhere along the way.

/** The multipart limits of an upload: one file, a schema field and a few small fields. */
export const MULTIPART_LIMITS = {
  files: 2,
  fields: 10,
  parts: 12,
  fieldNameSize: 100,
  fieldSize: 1024 * 1024,
  headerPairs: 20,
};

interface Claimed {
  userId: string;
  key: string;
  /** A multipart body's hash, known once the body has been read. */
  bodyHash: BodyHash | null;
}

/** The request's fingerprint; a multipart one is complete only with its body's hash. */
function fingerprintOf(request: FastifyRequest, bodyHash?: string): string {
  return requestFingerprint({
    method: request.method,
    url: request.url,
    contentType: request.headers['content-type'],
    body: request.body,
    ...(bodyHash ? { bodyHash } : {}),
  });
}

export default async function apiV1(app: FastifyInstance) {
  const claims = new WeakMap<FastifyRequest, Claimed>();
  const v1 = new ApiV1(app);

  app.decorateRequest('apiAuth', null);
  app.decorateRequest('apiUsage', null);
  await app.register(multipart, { throwFileSizeLimit: false, limits: MULTIPART_LIMITS });

  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.apiPublic) return;
    request.apiUsage = { rows: 0, bytes: 0 };
    const auth = await authenticate(request);
    request.apiAuth = auth;
    const limit = rateLimitOf(app.config.apiRateLimit, auth);
    const decision = await takeRequest(app.db, auth.apiKeyId, limit, app.now());
    reply.header('ratelimit-limit', String(decision.limit));
    reply.header('ratelimit-remaining', String(decision.remaining));
    reply.header('ratelimit-reset', String(decision.reset));
    reply.header('ratelimit-policy', `${decision.limit};w=${WINDOW_SECONDS}`);
    if (!decision.allowed) {
      stopReading(request, reply);
      throw new AppError('rate_limited', {
        message: auth.livemode
          ? `Too many requests for this account: ${decision.limit} a minute, shared by all its API keys. Try again in ${decision.reset} seconds.`
          : `Too many requests for a test-mode key: ${decision.limit} a minute. Try again in ${decision.reset} seconds.`,
        headers: { 'retry-after': String(decision.reset) },
      });
    }
  });

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || !request.apiAuth) return;
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    const key = Array.isArray(header) ? header[0]! : header;
    if (key.length === 0 || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
      stopReading(request, reply);
      throw new AppError('validation', {
        message: `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters (a UUID is a good choice).`,
      });
    }
    const userId = request.apiAuth.userId;
    // A multipart body is hashed as it streams; the listener goes on before anything awaits.
    const bodyHash = request.isMultipart() ? hashMultipartBody(request) : null;
    let claim = await claimIdempotencyKey(app.db, userId, key, fingerprintOf(request), app.now());
    if (claim.kind === 'claimed') {
      claims.set(request, { userId, key, bodyHash });
      return;
    }
    if (bodyHash && claim.kind === 'mismatch') {
      // The key holds an answer to an upload: only the whole body says whether this is the same
      // one (replay) or another (422). Reading it also lets the answer reach the client.
      const hash = await readToEnd(request, bodyHash);
      if (hash === null) throw new AppError('validation', { message: 'The upload was aborted' });
      claim = await claimIdempotencyKey(
        app.db,
        userId,
        key,
        fingerprintOf(request, hash),
        app.now(),
      );
      if (claim.kind === 'claimed') {
        // Gone meanwhile (expired): the body is spent, so the client must send it again.
        await releaseIdempotencyKey(app.db, userId, key);
        throw new AppError('idempotency_in_progress');
      }
    }
    stopReading(request, reply);
    if (claim.kind === 'in_progress') throw new AppError('idempotency_in_progress');
    if (claim.kind === 'mismatch') throw new AppError('idempotency_mismatch');
    reply.header('idempotent-replayed', 'true');
    return reply.code(claim.status).send(claim.body);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claimed = claims.get(request);
    if (!claimed) return payload;
    claims.delete(request);
    const status = reply.statusCode;
    // An upload answered before its body was read did nothing with it, and its fingerprint is
    // unknown: the key is released, as for "try again" answers.
    const bodyHash = claimed.bodyHash?.digest();
    if (status === 429 || status >= 500 || bodyHash === null) {
      await releaseIdempotencyKey(app.db, claimed.userId, claimed.key);
      return payload;
    }
    let body: unknown = null;
    if (typeof payload === 'string') {
      try {
        body = JSON.parse(payload);
      } catch {
        body = payload;
      }
    }
    await completeIdempotencyKey(
      app.db,
      claimed.userId,
      claimed.key,
      status,
      body,
      bodyHash === undefined ? undefined : fingerprintOf(request, bodyHash),
    );
    return payload;
  });

  // Recorded before the answer leaves (onSend, not onResponse): a pipeline that reads
  // /v1/usage right after a call finds that call counted.
  app.addHook('onSend', async (request, reply, payload) => {
    const auth = request.apiAuth;
    if (!auth) return payload;
    const used = request.apiUsage ?? { rows: 0, bytes: 0 };
    await recordApiCall(app.db, {
      userId: auth.userId,
      apiKeyId: auth.apiKeyId,
      endpoint: request.routeOptions.url ?? request.url.split('?')[0]!,
      method: request.method,
      rows: used.rows,
      bytes: used.bytes,
      status: reply.statusCode,
      at: app.now(),
    }).catch((err: unknown) => request.log.error({ err }, 'Could not record an API call'));
    return payload;
  });

  for (const register of routeModules) await register(v1);
}
