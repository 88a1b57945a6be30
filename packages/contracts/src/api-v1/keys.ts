import { z } from 'zod';

// API keys as the web app manages them (GET/POST/DELETE /api/api-keys, camelCase like the rest of
// the web API). The full key is in the create response only; the server keeps its SHA-256.

export const API_KEY_PREFIX = 'sc_';
export const API_KEY_NAME_MAX = 100;

/**
 * Test-mode keys (docs/decisions/174), as Stripe's: `sc_test_…`. Full validation and webhooks,
 * never counted against the month, files up to TEST_MODE_MAX_FILE_BYTES, and at most
 * TEST_MODE_RATE_PER_MINUTE requests a minute; every result says `livemode: false`.
 */
export const API_KEY_TEST_PREFIX = 'sc_test_';
export const TEST_MODE_MAX_FILE_BYTES = 1024 * 1024;
export const TEST_MODE_RATE_PER_MINUTE = 30;
export const API_KEY_MODES = ['live', 'test'] as const;
export type ApiKeyMode = (typeof API_KEY_MODES)[number];

export const apiKeyNameSchema = z
  .string({ error: 'Please enter a name for your API key.' })
  .trim()
  .min(1, 'Please enter a name for your API key.')
  .max(API_KEY_NAME_MAX, `The name must be at most ${API_KEY_NAME_MAX} characters`);

export const createApiKeyInputSchema = z.object({
  name: apiKeyNameSchema,
  /** Absent: a live key. */
  mode: z.enum(API_KEY_MODES, { error: 'mode must be live or test' }).optional(),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeyInputSchema>;

export interface ApiKeyItem {
  id: string;
  name: string;
  /** `sc_` and the first characters: enough to tell keys apart, useless to an attacker. */
  keyPrefix: string;
  /** `test` for an `sc_test_` key. */
  mode: ApiKeyMode;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface CreatedApiKey extends ApiKeyItem {
  /** The whole key: shown once, never stored. */
  key: string;
}
