import { deleteAccountSchema } from '@schemacheck/contracts';
import type { FastifyInstance } from 'fastify';
import { verifyPassword } from '../auth/passwords.ts';
import { accountBucketKey, blockedFor, hit, LIMITS, MINUTE } from '../auth/throttle.ts';
import { deleteAccount } from '../auth/users.ts';
import { AppError, tooManyAttempts } from '../errors.ts';
import { parseBody } from '../lib/validate.ts';
import { requireUser, signOut } from '../plugins/session.ts';
import { AUTH_BODY_LIMIT } from './auth.ts';

/**
 * POST /api/delete-account {password}: deletes the signed-in user and, through ON DELETE CASCADE,
 * everything they own. Wrong passwords count against the same per-account limit as sign-ins.
 * The accountDeletionHooks run first (billing cancels the subscription there); auth/users.ts
 * deleteAccount does both.
 */
export default async function accountRoutes(app: FastifyInstance) {
  app.post(
    '/api/delete-account',
    {
      onRequest: requireUser,
      bodyLimit: AUTH_BODY_LIMIT,
      config: { rateLimit: { max: 30, timeWindow: 15 * MINUTE } },
    },
    async (request, reply) => {
      const { password } = parseBody(deleteAccountSchema, request.body);
      const user = request.auth!.user;
      const now = app.now();
      const key = accountBucketKey('login', user.id);
      const wait = await blockedFor(app.db, key, LIMITS.loginFailuresPerAccount, now);
      if (wait !== null) throw tooManyAttempts('Too many wrong passwords.', wait);
      if (!(await verifyPassword(password, user.passwordHash))) {
        await hit(app.db, key, LIMITS.loginFailuresPerAccount, now, user.id);
        throw new AppError('incorrect_password');
      }

      await deleteAccount(app.db, user, app.accountDeletionHooks);
      await signOut(request, reply);
      request.log.info({ userId: user.id }, 'Account deleted');
      return { ok: true };
    },
  );
}
