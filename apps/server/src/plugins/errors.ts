import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ZodError } from 'zod';
import {
  AppError,
  ERRORS,
  RETRY_AFTER_SECONDS,
  STORAGE_FULL_RETRY_AFTER_SECONDS,
  type ErrorCode,
} from '../errors.ts';
import { findUnstorable } from '../lib/unicode.ts';
import { REQUEST_ID_HEADER } from '../request-id.ts';
import { ValidationInterrupted, WorkerCrashed } from '../validation/pool.ts';

// One error shape for every failure: `{ error, code, request_id }` (+ `issues` for body
// validation), the status from the table in errors.ts. That includes what Fastify and Node answer
// before any route runs (a too long path parameter, oversized headers, a client timeout): see
// frameworkErrors and clientErrorHandler below (docs/decisions/135). Unknown errors are logged with their stack and answered with
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
  408: 'request_timeout',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  431: 'header_too_large',
  503: 'service_unavailable',
};

export function sendError(reply: FastifyReply, err: AppError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  const requestId = reply.request.id;
  reply.header(REQUEST_ID_HEADER, requestId);
  return reply
    .code(err.statusCode)
    .send({ error: err.message, code: err.code, ...err.extra, request_id: requestId });
}

/**
 * Fastify's own refusals before routing (its `frameworkErrors` option): a path parameter over
 * maxParamLength (414) or a malformed URL (400). Fastify's default body echoes the whole URL,
 * which may hold a key; ours names nothing of it.
 */
export function frameworkErrors(
  err: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return sendError(reply, new AppError('uri_too_long'));
  if (err.code === 'FST_ERR_BAD_URL') {
    return sendError(reply, new AppError('validation', { message: 'The URL is not valid' }));
  }
  reply.log.error({ err }, 'Request failed before routing');
  return sendError(reply, new AppError('internal'));
}

/**
 * Node's HTTP parser refused the request before Fastify saw it (oversized headers, a timeout,
 * malformed HTTP). Fastify's default writes its own shape with no code; this writes ours. There
 * is no request yet, so the id is a new one, logged with the error so that support can find it.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  err: NodeJS.ErrnoException,
  socket: Duplex,
): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? 'header_too_large'
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'request_timeout'
        : 'validation';
  const { status } = ERRORS[code];
  const requestId = randomUUID();
  const message = code === 'validation' ? 'The request is not valid HTTP' : ERRORS[code].message;
  const body = JSON.stringify({ error: message, code, request_id: requestId });
  this.log.info({ err: { code: err.code, message: err.message }, requestId }, 'Client error');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        `Cache-Control: no-store\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/** A write failed because the disk or quota is full: not the request's fault, worth a retry. */
export function storageFull(err: unknown): boolean {
  for (const e of causes(err)) {
    if (e.code === 'ENOSPC' || e.code === 'EDQUOT') return true;
  }
  return false;
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
        // Named the way every refused input is named: `issues` by path (docs/decisions/135).
        throw new AppError('invalid_text', {
          message: `${ERRORS.invalid_text.message} (in the ${place}).`,
          extra: { issues: [{ path: at, message: ERRORS.invalid_text.message }] },
        });
      }
    });

    app.setErrorHandler((err: FastifyError | AppError | ZodError, request, reply) => {
      if (err instanceof AppError) return sendError(reply, err);

      if (err instanceof ZodError) {
        const issues = err.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
        return sendError(
          reply,
          new AppError('validation', {
            message: issues[0]?.message ?? ERRORS.validation.message,
            extra: { issues },
          }),
        );
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
        // A 4xx without an entry: keep the status, say nothing internal.
        reply.header(REQUEST_ID_HEADER, request.id);
        return reply.code(status).send({
          error: ERRORS.validation.message,
          code: 'validation',
          request_id: request.id,
        });
      }

      if (storageFull(err)) {
        // The upload was not stored and not counted (routes release on any failure); the same
        // request succeeds once space is freed (docs/decisions/137).
        request.log.error({ err }, 'Storage is full');
        return sendError(
          reply,
          new AppError('storage_full', {
            headers: { 'retry-after': String(STORAGE_FULL_RETRY_AFTER_SECONDS) },
          }),
        );
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
