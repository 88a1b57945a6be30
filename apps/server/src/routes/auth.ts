import {
  FORGOT_PASSWORD_MESSAGE,
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
} from '@schemacheck/contracts';
import type { FastifyInstance } from 'fastify';
import { isCommonPassword } from '../auth/common-passwords.ts';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from '../auth/passwords.ts';
import {
  accountBucketKey,
  blockedFor,
  bucketKey,
  clear,
  hit,
  HOUR,
  LIMITS,
  MemoryCounter,
  MINUTE,
} from '../auth/throttle.ts';
import {
  assertAvailable,
  createUser,
  findUserByEmail,
  findUserByLogin,
  resetPassword,
  resetTokenIsLive,
  setResetToken,
  toPublicUser,
  updatePasswordHash,
} from '../auth/users.ts';
import { AppError, tooManyAttempts } from '../errors.ts';
import { randomToken, sha256Hex } from '../lib/crypto.ts';
import { parseBody } from '../lib/validate.ts';
import { passwordChangedMail, passwordResetMail } from '../mail/templates.ts';
import { sessionCookieClear, signIn, signOut } from '../plugins/session.ts';

// /api/auth/*: register, login, logout, me, forgot-password, reset-password (docs/product.md#accounts-and-passwords).
// Bodies are parsed with the contracts' schemas, the ones the web forms use.

/** Auth bodies are a few fields; a 1 MB "password" is refused before anything reads it. */
export const AUTH_BODY_LIMIT = 16 * 1024;
const RESET_TOKEN_TTL_MS = HOUR;

export default async function authRoutes(app: FastifyInstance) {
  const failuresByIp = new MemoryCounter(LIMITS.loginFailuresPerIp);

  // Unknown accounts are checked against this hash so that they take as long as known ones.
  app.addHook('onReady', async () => {
    await dummyHash(app.config.passwordHash);
  });

  // Who is signed in: "nobody" is an answer, not a failure, so that every public page's lookup
  // does not log a 401 in the browser console (docs/decisions/112).
  app.get('/me', async (request) => ({
    user: request.auth ? toPublicUser(request.auth.user) : null,
  }));

  app.post(
    '/register',
    { bodyLimit: AUTH_BODY_LIMIT, config: { rateLimit: { max: 100, timeWindow: HOUR } } },
    async (request, reply) => {
      const input = parseBody(registerSchema, request.body);
      if (isCommonPassword(input.password)) throw new AppError('common_password');
      // Checked before hashing so that a taken name costs no scrypt; createUser catches races.
      await assertAvailable(app.db, input.username, input.email);
      const passwordHash = await hashPassword(input.password, app.config.passwordHash);
      const user = await createUser(app.db, { ...input, passwordHash, now: app.now() });
      const csrfToken = await signIn(request, reply, user);
      request.log.info({ userId: user.id }, 'Account created');
      return reply.code(201).send({ user: toPublicUser(user), csrfToken });
    },
  );

  app.post(
    '/login',
    { bodyLimit: AUTH_BODY_LIMIT, config: { rateLimit: { max: 60, timeWindow: MINUTE } } },
    async (request, reply) => {
      const input = parseBody(loginSchema, request.body);
      const now = app.now();
      const message = 'Too many failed sign-in attempts.';

      const ipWait = failuresByIp.blockedFor(request.ip, now);
      if (ipWait !== null) throw tooManyAttempts(message, ipWait);

      const user = await findUserByLogin(app.db, input.usernameOrEmail);
      // An unknown name gets a bucket of its own, so it is throttled exactly like an account.
      const key = user
        ? accountBucketKey('login', user.id)
        : bucketKey(app.keys.throttle, 'login', input.usernameOrEmail);
      const wait = await blockedFor(app.db, key, LIMITS.loginFailuresPerAccount, now);
      if (wait !== null) throw tooManyAttempts(message, wait);

      const hash = user?.passwordHash ?? (await dummyHash(app.config.passwordHash));
      const ok = await verifyPassword(input.password, hash);
      if (!user || !ok) {
        failuresByIp.hit(request.ip, now);
        await hit(app.db, key, LIMITS.loginFailuresPerAccount, now, user?.id ?? null);
        throw new AppError('invalid_credentials');
      }

      await clear(app.db, key);
      if (needsRehash(user.passwordHash, app.config.passwordHash)) {
        const passwordHash = await hashPassword(input.password, app.config.passwordHash);
        await updatePasswordHash(app.db, user.id, passwordHash);
      }
      const csrfToken = await signIn(request, reply, user);
      return { user: toPublicUser(user), csrfToken };
    },
  );

  // Signing out when already signed out succeeds too: the result the user wanted holds.
  app.post('/logout', { bodyLimit: AUTH_BODY_LIMIT }, async (request, reply) => {
    const csrfToken = await signOut(request, reply);
    return { ok: true, csrfToken };
  });

  app.post(
    '/forgot-password',
    { bodyLimit: AUTH_BODY_LIMIT, config: { rateLimit: { max: 20, timeWindow: 15 * MINUTE } } },
    async (request) => {
      const { email } = parseBody(forgotPasswordSchema, request.body);
      const now = app.now();
      // Counted for every address, registered or not, so the answer never tells them apart.
      const w = LIMITS.resetRequestsPerEmail;
      const count = await hit(app.db, bucketKey(app.keys.throttle, 'forgot', email), w, now);
      if (count.count > w.limit) {
        throw tooManyAttempts(
          'Too many reset requests for this email address.',
          count.retryAfterSeconds,
        );
      }
      // Looking the address up, storing the token and sending happen after the answer.
      app.tasks.run('password-reset-mail', async () => {
        const user = await findUserByEmail(app.db, email);
        if (!user) return;
        const token = randomToken(32);
        const expiresAt = new Date(now.getTime() + RESET_TOKEN_TTL_MS);
        await setResetToken(app.db, user.id, sha256Hex(token), expiresAt);
        const link = `${app.config.appUrl}/reset-password?token=${token}`;
        await app.mailer.send(passwordResetMail(user.email, user.username, link));
        if (app.mailer.kind === 'outbox') {
          // Development without SMTP: the link is needed somewhere visible (docs/decisions/015).
          app.log.info({ resetLink: link }, 'Password reset link (SMTP_URL is not set)');
        }
      });
      return { message: FORGOT_PASSWORD_MESSAGE };
    },
  );

  app.post(
    '/reset-password',
    { bodyLimit: AUTH_BODY_LIMIT, config: { rateLimit: { max: 30, timeWindow: 15 * MINUTE } } },
    async (request, reply) => {
      const input = parseBody(resetPasswordSchema, request.body);
      if (isCommonPassword(input.password)) throw new AppError('common_password');
      const tokenHash = sha256Hex(input.token);
      const now = app.now();

      // A cheap look first, so that a wrong token costs no scrypt.
      if (!(await resetTokenIsLive(app.db, tokenHash, now))) {
        throw new AppError('invalid_reset_token');
      }
      const passwordHash = await hashPassword(input.password, app.config.passwordHash);
      // Checks and spends the token in one transaction: of two concurrent uses, one succeeds.
      const user = await resetPassword(app.db, tokenHash, passwordHash, now);
      if (!user) throw new AppError('invalid_reset_token');

      if (request.auth?.user.id === user.id) sessionCookieClear(request, reply);
      app.tasks.run('password-changed-mail', () =>
        app.mailer.send(passwordChangedMail(user.email, user.username, app.config.appUrl)),
      );
      request.log.info({ userId: user.id }, 'Password reset');
      return { ok: true, message: 'Your password has been reset. Sign in with your new password.' };
    },
  );
}
