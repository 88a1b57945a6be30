import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ZodError } from 'zod';
import { AppError, ERRORS, type ErrorCode } from '../errors.ts';

// One error shape for every failure: `{ error, code }` (+ `issues` for body validation), the
// status from the table in errors.ts. Unknown errors are logged with their stack and answered with
// the generic 500 text only.

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation',
  FST_ERR_CTP_INVALID_CONTENT_TYPE: 'unsupported_media_type',
};

const BY_STATUS: Record<number, ErrorCode> = {
  400: 'validation',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'service_unavailable',
};

export function sendError(reply: FastifyReply, err: AppError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  return reply.code(err.statusCode).send({ error: err.message, code: err.code, ...err.extra });
}

/** Routes as registered, so a wrong method on a known path gets 405 instead of 404. */
export type RouteIndex = Array<{ method: string; re: RegExp }>;

function patternToRegExp(url: string): RegExp {
  const source = url
    .split('/')
    .map((part) =>
      part.startsWith(':')
        ? '[^/]+'
        : part === '*'
          ? '.*'
          : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/** JSON 405 (with Allow) when another method serves this path, else JSON 404. */
export function apiNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0] ?? '/';
  const allowed = new Set(
    request.server.routeIndex
      .filter((r) => r.re.test(path) && r.method !== '*')
      .map((r) => r.method),
  );
  if (allowed.size > 0 && !allowed.has(request.method)) {
    reply.header('allow', [...allowed].sort().join(', '));
    return sendError(reply, new AppError('method_not_allowed'));
  }
  return sendError(reply, new AppError('not_found'));
}

export default fp(
  async (app) => {
    const routeIndex: RouteIndex = [];
    app.decorate('routeIndex', routeIndex);
    app.addHook('onRoute', (route) => {
      // The static files' catch-all is no evidence that a path exists.
      if (route.url === '/*') return;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const re = patternToRegExp(route.url);
      for (const method of methods) routeIndex.push({ method, re });
    });

    app.setErrorHandler((err: FastifyError | AppError | ZodError, request, reply) => {
      if (err instanceof AppError) return sendError(reply, err);

      if (err instanceof ZodError) {
        const issues = err.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
        return reply.code(400).send({
          error: issues[0]?.message ?? ERRORS.validation.message,
          code: 'validation',
          issues,
        });
      }

      const fastifyCode = err.code ? FASTIFY_CODES[err.code] : undefined;
      if (fastifyCode) return sendError(reply, new AppError(fastifyCode));

      const status = err.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        request.log.info({ err }, 'Request refused');
        const code = BY_STATUS[status];
        if (code) return sendError(reply, new AppError(code));
        // A 4xx without an entry (408, 414, 431…): keep the status, say nothing internal.
        return reply.code(status).send({ error: ERRORS.validation.message, code: 'validation' });
      }

      request.log.error({ err }, 'Request failed');
      return sendError(reply, new AppError(status === 503 ? 'service_unavailable' : 'internal'));
    });
  },
  { name: 'errors' },
);
