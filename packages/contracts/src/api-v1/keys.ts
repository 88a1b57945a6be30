import { z } from 'zod';

// API keys as the web app manages them (GET/POST/DELETE /api/api-keys, camelCase like the rest of
// the web API). The full key is in the create response only; the server keeps its SHA-256.

export const API_KEY_PREFIX = 'sc_';
export const API_KEY_NAME_MAX = 100;

export const apiKeyNameSchema = z
  .string({ error: 'Please enter a name for your API key.' })
  .trim()
  .min(1, 'Please enter a name for your API key.')
  .max(API_KEY_NAME_MAX, `The name must be at most ${API_KEY_NAME_MAX} characters`);

export const createApiKeyInputSchema = z.object({ name: apiKeyNameSchema });
export type CreateApiKeyInput = z.infer<typeof createApiKeyInputSchema>;

export interface ApiKeyItem {
  id: string;
  name: string;
  /** `sc_` and the first characters: enough to tell keys apart, useless to an attacker. */
  keyPrefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface CreatedApiKey extends ApiKeyItem {
  /** The whole key: shown once, never stored. */
  key: string;
}
