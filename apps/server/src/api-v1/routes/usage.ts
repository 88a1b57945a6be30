import { usageV1Schema } from '@schemacheck/contracts';
import type { ApiV1 } from '../openapi.ts';
import { rateLimitOf, WINDOW_SECONDS } from '../rate-limit.ts';
import { usageV1 } from '../usage.ts';

// GET /v1/usage: the month's validations (shared with the web app), API calls, rows and bytes.

export default function usageRoutes(v1: ApiV1) {
  const { app } = v1;

  v1.route(
    {
      method: 'GET',
      path: '/usage',
      operationId: 'getUsage',
      tag: 'Usage',
      summary: 'This month’s usage',
      description:
        'Validations used this month (web and API together), the limit, what remains and when it resets; API calls, rows and bytes this month; the rate limit of your keys.',
      responses: { 200: { description: 'Usage.', schema: usageV1Schema } },
    },
    async ({ auth }) => {
      return usageV1(app.db, auth.userId, auth.tier, app.now(), {
        limit: rateLimitOf(app.config.apiRateLimit, auth),
        windowSeconds: WINDOW_SECONDS,
      });
    },
  );
}
