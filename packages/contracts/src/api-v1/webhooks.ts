import { z } from 'zod';
import { uuidSchema } from './common.ts';

// /v1/webhooks (and /api/webhooks for the profile page): endpoints told when a job has ended.
// Every delivery is signed per Standard Webhooks: headers webhook-id, webhook-timestamp and
// webhook-signature `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with the endpoint's
// `whsec_` secret, shown once when the webhook is created.

export const WEBHOOK_EVENTS_V1 = ['job.completed', 'job.failed'] as const;
export type WebhookEventV1 = (typeof WEBHOOK_EVENTS_V1)[number];
/** Webhooks one account may have. */
export const MAX_WEBHOOKS = 10;

export const createWebhookSchema = z.object({
  url: z
    .string({ error: 'url is required' })
    .trim()
    .min(1, 'url is required')
    .max(2000, 'The URL is longer than 2000 characters'),
  events: z
    .array(z.enum(WEBHOOK_EVENTS_V1, { error: 'events may hold job.completed and job.failed' }), {
      error: 'events must be a list such as ["job.completed", "job.failed"]',
    })
    .min(1, 'Choose at least one event')
    .default([...WEBHOOK_EVENTS_V1]),
});
export type CreateWebhookInput = z.input<typeof createWebhookSchema>;

export const webhookSchema = z.object({
  id: uuidSchema,
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS_V1)),
  is_active: z.boolean(),
  created_at: z.iso.datetime(),
  failing_since: z.iso
    .datetime()
    .nullable()
    .describe('First failure of the current run of failures.'),
  disabled_at: z.iso.datetime().nullable(),
  disabled_reason: z.string().nullable().describe('Why deliveries stopped, when they did.'),
});
export type WebhookV1 = z.infer<typeof webhookSchema>;

export const webhookCreatedSchema = webhookSchema.extend({
  secret: z.string().describe('The signing secret (whsec_…): shown once, keep it safe.'),
});
export type WebhookCreatedV1 = z.infer<typeof webhookCreatedSchema>;

export const webhookListSchema = z.object({ data: z.array(webhookSchema) });

export const webhookParamsSchema = z.object({ webhook_id: z.string() });
export const deliveryParamsSchema = z.object({ webhook_id: z.string(), delivery_id: z.string() });

export const deliverySchema = z.object({
  id: uuidSchema,
  message_id: z.string().describe('The webhook-id header: the same on every attempt of a message.'),
  event: z.string(),
  attempt: z.number().int().min(1),
  status: z.enum(['pending', 'succeeded', 'failed']),
  response_status: z.number().int().min(0).nullable(),
  duration_ms: z.number().int().min(0).nullable(),
  error: z.string().nullable(),
  response_excerpt: z.string().nullable().describe('The first 1,024 characters of the response.'),
  created_at: z.iso.datetime(),
  next_attempt_at: z.iso.datetime().nullable().describe('When a pending attempt is due.'),
});
export type DeliveryV1 = z.infer<typeof deliverySchema>;

export const deliveryListSchema = z.object({ data: z.array(deliverySchema) });

/** The body every delivery carries. */
export const webhookPayloadSchema = z.object({
  event: z.string().describe('job.completed, job.failed, or webhook.test'),
  timestamp: z.number().int().describe('When the event happened, in epoch milliseconds.'),
  data: z.object({
    job_id: uuidSchema.optional(),
    schema_id: uuidSchema.nullable().optional(),
    file_name: z.string().optional(),
    result: z
      .object({
        total_rows: z.number().int(),
        valid_rows: z.number().int(),
        invalid_rows: z.number().int(),
      })
      .nullable()
      .optional(),
    report_url: z.string().nullable().optional(),
    error: z.string().nullable().optional(),
  }),
});
export type WebhookPayloadV1 = z.infer<typeof webhookPayloadSchema>;
