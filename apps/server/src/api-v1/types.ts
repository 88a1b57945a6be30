import type { ApiAuth } from './auth.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The public API caller, set by the API-key check (null outside /api/v1). */
    apiAuth: ApiAuth | null;
    /** Rows and bytes this public API call processed, for its api_usage row. */
    apiUsage: { rows: number; bytes: number } | null;
  }

  interface FastifyContextConfig {
    /** A public API route that needs no key (the OpenAPI document). */
    apiPublic?: boolean;
  }
}
