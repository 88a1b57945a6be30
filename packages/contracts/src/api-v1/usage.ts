import { z } from 'zod';

// GET /v1/usage: the month's validations (shared with the web app) and this month's API calls.

export const usageV1Schema = z.object({
  plan: z.enum(['business', 'enterprise']),
  validations: z.object({
    used: z.number().int().min(0),
    limit: z.number().int().min(0).nullable().describe('null: unlimited'),
    remaining: z.number().int().min(0).nullable().describe('null: unlimited'),
    reset_date: z.iso.datetime().describe('The first moment of next month, UTC.'),
  }),
  api: z.object({
    calls: z.number().int().min(0).describe('API calls this month, all keys.'),
    rows: z.number().int().min(0).describe('Rows validated through the API this month.'),
    bytes: z.number().int().min(0).describe('Bytes uploaded to the API this month.'),
  }),
  rate_limit: z.object({
    limit: z.number().int().min(0).describe('Requests per window per key.'),
    window_seconds: z.number().int().min(1),
  }),
});
export type UsageV1 = z.infer<typeof usageV1Schema>;
