import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';
import type { S3Config } from '../config.ts';
import { AppError } from '../errors.ts';
import { keepJsonText } from '../lib/json-body.ts';

// Response headers and body parsing rules that hold for every route.
// - helmet: a CSP without inline scripts, frame-ancestors 'none', nosniff, Referrer-Policy
//   no-referrer everywhere (the reset page carries its token in the query string), HSTS on https.
// - JSON only as application/json. text/plain and form bodies are never parsed (415): those are
//   the content types a cross-site form may send without a preflight (docs/product.md#security-rules-for-the-web-api).
// - API responses are never cached.

/** Deeper JSON is refused before anything walks it (docs/product.md#robustness: JSON.stringify throws at depth 10^4). */
export const MAX_JSON_DEPTH = 64;

/** Nesting depth of a JSON text, counted outside strings; stops early past `limit`. */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * The origins of the bucket's presigned URLs, which the dashboard PUTs a direct upload's parts to
 * (docs/decisions/236), as the AWS SDK addresses the bucket: the endpoint itself in path style,
 * else the bucket as a subdomain of it; on AWS the regional virtual host. The path-style host
 * too, which the SDK uses for a bucket whose name is no valid host label (dots).
 */
export function bucketOrigins(s3: S3Config | null): string[] {
  if (!s3) return [];
  if (s3.endpoint) {
    const endpoint = new URL(s3.endpoint);
    return s3.forcePathStyle
      ? [endpoint.origin]
      : [`${endpoint.protocol}//${s3.bucket}.${endpoint.host}`, endpoint.origin];
  }
  const host = `s3.${s3.region}.amazonaws.com`;
  return s3.forcePathStyle
    ? [`https://${host}`]
    : [`https://${s3.bucket}.${host}`, `https://${host}`];
}

export default fp(
  async (app) => {
    const secure = app.config.secureCookies;
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          // 'wasm-unsafe-eval' lets the engine compile its WebAssembly byte core (decision 248)
          // and nothing else: no eval, no inline scripts.
          scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
          scriptSrcAttr: ["'none'"],
          // React and Radix set style attributes; styles cannot run code.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", ...bucketOrigins(app.config.s3)],
          // The engine runs in a module Web Worker loaded from /assets (same origin): no blob: needed.
          workerSrc: ["'self'"],
          manifestSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          ...(secure ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      hsts: secure ? { maxAge: 31_536_000, includeSubDomains: false } : false,
      referrerPolicy: { policy: 'no-referrer' },
      frameguard: { action: 'deny' },
      crossOriginEmbedderPolicy: false,
    });

    app.removeContentTypeParser(['application/json', 'text/plain']);
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = body as string;
      // A POST without a body but with a JSON content type (logout) is a body of nothing.
      if (text.trim() === '') return done(null, undefined);
      if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
        return done(
          new AppError('invalid_json', {
            message: `The request body is nested more than ${MAX_JSON_DEPTH} levels deep`,
          }),
          undefined,
        );
      }
      keepJsonText(request, text);
      parseJson(request, text, done);
    });

    app.addHook('onSend', async (request, reply) => {
      reply.header('x-request-id', request.id);
      if (
        !reply.hasHeader('cache-control') &&
        (request.url.startsWith('/api') ||
          request.url.startsWith('/healthz') ||
          request.url.startsWith('/readyz'))
      ) {
        reply.header('cache-control', 'no-store');
      }
    });
  },
  { name: 'security', dependencies: ['errors'] },
);
