import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  issueCsrfToken,
  preSessionCookieName,
  verifyCsrfToken,
  type CsrfBinding,
} from '../auth/csrf.ts';
import {
  createSession,
  deleteSession,
  deleteSessionByToken,
  findSession,
  SESSION_ABSOLUTE_MS,
  sessionCookieName,
} from '../auth/sessions.ts';
import type { User } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { randomToken } from '../lib/crypto.ts';

// Who is asking, and may they change anything (docs/decisions/012).
// onRequest, before any body is read:
//  1. a mutating request marked `Sec-Fetch-Site: cross-site` is refused (docs/product.md#security-rules-for-the-web-api);
//  2. on /api/* (not /api/v1, which takes API keys and never cookies) the session cookie is
//     looked up: request.auth is the user and session, or null;
//  3. a mutating request must carry x-csrf-token signed for this session, or for the pre-session
//     cookie when there is no session (docs/decisions/012-sessions-and-csrf.md). /api/v1 is exempt (no cookies there); other
//     routes opt out with config: { csrf: false } (the payment provider's webhook).

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The public API: API keys in a header, never cookies, so neither sessions nor CSRF apply. */
function isPublicApi(url: string): boolean {
  return /^\/api\/v1(\/|\?|$)/.test(url);
}

function isCookieApi(url: string): boolean {
  return (
    (url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')) && !isPublicApi(url)
  );
}

function cookieOptions(app: FastifyInstance) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    path: '/',
    secure: app.config.secureCookies,
  };
}

function names(app: FastifyInstance) {
  return {
    session: sessionCookieName(app.config.secureCookies),
    pre: preSessionCookieName(app.config.secureCookies),
  };
}

function bindingOf(request: FastifyRequest): CsrfBinding | null {
  if (request.auth) return { kind: 'session', id: request.auth.session.id };
  const pre = request.cookies[names(request.server).pre];
  return pre ? { kind: 'pre', cookie: pre } : null;
}

/** The CSRF token for this request's session or pre-session cookie (set one when missing). */
export function csrfTokenFor(request: FastifyRequest, reply: FastifyReply): string {
  const app = request.server;
  let binding = bindingOf(request);
  if (!binding) {
    const value = randomToken(32);
    reply.setCookie(names(app).pre, value, cookieOptions(app));
    binding = { kind: 'pre', cookie: value };
  }
  return issueCsrfToken(app.keys.csrf, binding);
}

/**
 * Starts a fresh session for `user`: any session the browser came with is deleted (fixation,
 * session fixation), the pre-session cookie is dropped, and the CSRF token bound to the new session is
 * returned (the old one no longer verifies: login CSRF).
 */
export async function signIn(
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
): Promise<string> {
  const app = request.server;
  const n = names(app);
  const previous = request.cookies[n.session];
  if (previous) await deleteSessionByToken(app.db, previous);
  const session = await createSession(app.db, user.id, app.now());
  reply.setCookie(n.session, session.token, {
    ...cookieOptions(app),
    maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
  });
  reply.clearCookie(n.pre, cookieOptions(app));
  return issueCsrfToken(app.keys.csrf, { kind: 'session', id: session.id });
}

/**
 * Ends this request's session (if any) and clears its cookie. A new pre-session cookie is set and
 * a token for it returned, so a token from before sign-in does not work again after sign-out.
 */
export async function signOut(request: FastifyRequest, reply: FastifyReply): Promise<string> {
  const app = request.server;
  const n = names(app);
  if (request.auth) await deleteSession(app.db, request.auth.session.id);
  request.auth = null;
  reply.clearCookie(n.session, cookieOptions(app));
  const value = randomToken(32);
  reply.setCookie(n.pre, value, cookieOptions(app));
  return issueCsrfToken(app.keys.csrf, { kind: 'pre', cookie: value });
}

/** Clears the session cookie (the session row is already gone). */
export function sessionCookieClear(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(names(request.server).session, cookieOptions(request.server));
}

/** onRequest hook for routes that need a signed-in user. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.auth) throw new AppError('unauthorized');
}

export default fp(
  async (app) => {
    await app.register(cookie, { parseOptions: {} });
    app.decorateRequest('auth', null);

    app.addHook('onRequest', async (request, reply) => {
      const mutating = !SAFE_METHODS.has(request.method);
      // No matched route: nothing will change, and the caller deserves the 404 rather than a
      // CSRF refusal (a pipeline's typo in an /api/v1 path).
      const routed = request.routeOptions.url !== undefined;
      const checked =
        mutating &&
        routed &&
        request.routeOptions.config?.csrf !== false &&
        // The matched route's pattern, not the raw URL: no encoded path can borrow the exemption.
        !isPublicApi(request.routeOptions.url ?? '');

      if (checked && request.headers['sec-fetch-site'] === 'cross-site') {
        throw new AppError('cross_site');
      }

      if (isCookieApi(request.url)) {
        const n = names(app);
        const token = request.cookies[n.session];
        if (token) {
          const found = await findSession(app.db, token, app.now());
          if (found) request.auth = found;
          else reply.clearCookie(n.session, cookieOptions(app));
        }
      }

      if (
        checked &&
        !verifyCsrfToken(app.keys.csrf, bindingOf(request), request.headers['x-csrf-token'])
      ) {
        throw new AppError('csrf');
      }
    });
  },
  { name: 'session', dependencies: ['errors'] },
);
