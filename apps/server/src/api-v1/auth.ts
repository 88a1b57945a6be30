import type { SubscriptionTier } from '@schemacheck/contracts';
import type { FastifyRequest } from 'fastify';
import { findKey, isWellFormedKey } from '../api-keys/store.ts';
import { AppError } from '../errors.ts';
import { assertFeature } from '../plans.ts';

// Who calls the public API (docs/decisions/081). Only `Authorization: Bearer sc_…` counts: never
// a cookie (the session plugin does not even read it under /api/v1) and never the query string
// (a key there is refused, since URLs end up in logs and browser history). The checks, cheapest
// first: the header's form, the key's checksum (no database lookup for a typo), the hash lookup,
// revocation (effective on the next request), then the plan: a user below Business keeps their
// keys but gets 403 naming their plan.

/** Query parameters that look like someone put a key in the URL. */
const KEY_PARAMS = /^(api[_-]?key|key|token|access[_-]?token|auth|authorization)$/i;

export function keyInQuery(request: FastifyRequest): boolean {
  const q = request.query as Record<string, unknown> | undefined;
  if (!q || typeof q !== 'object') return false;
  return Object.entries(q).some(
    ([name, value]) =>
      KEY_PARAMS.test(name) || (typeof value === 'string' && value.startsWith('sc_')),
  );
}

const invalid = (message: string) => new AppError('invalid_api_key', { message });

export interface ApiAuth {
  userId: string;
  apiKeyId: string;
  tier: SubscriptionTier;
  rateLimitPerMinute: number | null;
  /** False for a test-mode key (sc_test_…): no quota, small files, a lower rate (decision 174). */
  livemode: boolean;
}

export async function authenticate(request: FastifyRequest): Promise<ApiAuth> {
  if (keyInQuery(request)) {
    throw invalid(
      'API keys are accepted only in the Authorization header (Authorization: Bearer sc_…), never in the URL. Remove the key from the URL and consider rotating it.',
    );
  }
  const header = request.headers.authorization;
  if (!header) {
    throw invalid('Send your API key in the Authorization header: Authorization: Bearer sc_…');
  }
  const m = /^Bearer +(\S+)\s*$/i.exec(header);
  if (!m) throw invalid('The Authorization header must be: Bearer sc_…');
  const key = m[1]!;
  if (!isWellFormedKey(key)) {
    throw invalid('This is not a valid API key. Check that it was copied whole.');
  }
  const app = request.server;
  const owner = await findKey(app.db, key);
  if (!owner) throw invalid('This API key does not exist.');
  if (owner.revoked)
    throw invalid('This API key has been revoked. Create a new one in your profile.');
  assertFeature(owner.tier, 'api');
  const { userId, apiKeyId, tier, rateLimitPerMinute, livemode } = owner;
  return { userId, apiKeyId, tier, rateLimitPerMinute, livemode };
}
