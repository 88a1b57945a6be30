import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ZodError } from 'zod';
import { AppError, ERRORS, RETRY_AFTER_SECONDS, type ErrorCode } from '../errors.ts';
import { findUnstorable } from '../lib/unicode.ts';
import { ValidationInterrupted, WorkerCrashed } from '../validation/pool.ts';

// One error shape for every failure: `{ error, code }` (+ `issues` for body validation), the
// status from the table in errors.ts. Unknown errors are logged with their stack and answered with
// the generic 500 text only. Two kinds of database failure are not bugs of ours and are answered
// as such (docs/decisions/060): an outage is a 503 with Retry-After, and a value the database
// refuses as data (SQLSTATE class 22) is the client's 400. Input text that the database cannot
// hold (U+0000, lone surrogates) is refused before any route runs.

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

/** Routes as registered, so a wrong method on a known path gets 405 instead of 404 (and the
 * fuzz test can reach every route). */
export type RouteIndex = Array<{ method: string; url: string; re: RegExp }>;

/** Network errors and messages that mean the database cannot be reached right now. */
const OUTAGE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const OUTAGE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Cannot use a pool after calling end|PGlite is closed|Client has encountered a connection error|Connection refused/i;

/** The errors behind `err`: itself, its causes, an AggregateError's members (bounded). */
function* causes(err: unknown): Generator<{ code?: unknown; message?: unknown }> {
  const queue: unknown[] = [err];
  for (let seen = 0; queue.length > 0 && seen < 16; seen++) {
    const e = queue.shift();
    if (typeof e !== 'object' || e === null) continue;
    yield e as { code?: unknown; message?: unknown };
    const { cause, errors } = e as { cause?: unknown; errors?: unknown };
    if (cause !== undefined) queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors);
  }
}

/** 'outage' for a database that cannot answer, 'data' for a value it refuses, else null. */
export function databaseFailure(err: unknown): 'outage' | 'data' | null {
  for (const e of causes(err)) {
    const code = typeof e.code === 'string' ? e.code : '';
    // SQLSTATE 08 connection exception, 57P0x shutdown / cannot connect now, 53 out of resources.
    if (OUTAGE_CODES.has(code) || /^(08|53)[0-9A-Z]{3}$/.test(code) || /^57P0[1-4]$/.test(code)) {
      return 'outage';
    }
    if (/^22[0-9A-Z]{3}$/.test(code)) return 'data';
    if (typeof e.message === 'string' && OUTAGE_MESSAGES.test(e.message)) return 'outage';
  }
  return null;
}

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
      for (const method of methods) routeIndex.push({ method, url: route.url, re });
    });

    // PostgreSQL text cannot hold U+0000 and jsonb refuses lone surrogates: refuse such input
    // here, before any route could hand it to the database.
    app.addHook('preValidation', async (request) => {
      for (const [where, value] of [
        ['body', request.body],
        ['query', request.query],
        ['params', request.params],
      ] as const) {
        if (value === undefined || value === null) continue;
        const at = findUnstorable(value);
        if (at === null) continue;
        const place = at === '' ? where : `${where} field ${at}`;
        throw new AppError('invalid_text', {
          message: `${ERRORS.invalid_text.message} (in the ${place}).`,
          extra: { field: at },
        });
      }
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

      if (err instanceof ValidationInterrupted) {
        // Our side stopped it (a worker died or the server is stopping): never the user's fault,
        // never charged (the route releases the reservation on any failure), worth a retry.
        request.log.error({ err }, 'Validation interrupted');
        const memory = err instanceof WorkerCrashed && err.outOfMemory;
        return sendError(
          reply,
          new AppError('validation_interrupted', {
            ...(memory
              ? {
                  message:
                    'The validation ran out of memory on our side and stopped. It was not counted; please try again later.',
                }
              : {}),
            headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
          }),
        );
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

      const db = databaseFailure(err);
      if (db === 'outage') {
        request.log.error({ err }, 'Database unavailable');
        return sendError(
          reply,
          new AppError('database_unavailable', {
            headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
          }),
        );
      }
      if (db === 'data') {
        request.log.warn({ err }, 'The database refused a value of the request');
        return sendError(
          reply,
          new AppError('validation', {
            message: 'The request holds a value that cannot be stored',
          }),
        );
      }

      request.log.error({ err }, 'Request failed');
      if (status === 503) {
        return sendError(
          reply,
          new AppError('service_unavailable', {
            headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
          }),
        );
      }
      return sendError(reply, new AppError('internal'));
    });
  },
  { name: 'errors' },
);
