import { z } from 'zod';
import { uuidSchema } from './common.ts';

// The bodies SchemaCheck POSTs to a registered webhook, one schema per event, for the OpenAPI
// document's `webhooks` section (so that a generated client types the events it receives). The
// server builds them in jobs/validation-jobs.ts (job.*) and webhooks/service.ts (webhook.test).

const eventBase = {
  timestamp: z.number().int().min(0).describe('When the event happened, in epoch milliseconds.'),
};

const jobData = {
  job_id: uuidSchema,
  schema_id: uuidSchema.nullable().describe('The saved schema, or null for an inline schema.'),
  file_name: z.string(),
};

const jobEventBase = {
  ...eventBase,
  livemode: z.boolean().describe('false for a job created with a test-mode key (sc_test_…).'),
};

export const jobCompletedEventSchema = z.object({
  event: z.literal('job.completed'),
  ...jobEventBase,
  data: z.object({
    ...jobData,
    result: z.object({
      total_rows: z.number().int().min(0),
      valid_rows: z.number().int().min(0),
      invalid_rows: z.number().int().min(0),
    }),
    report_url: z
      .string()
      .describe('GET it with your API key: every error, as CSV (or ?format=json).'),
  }),
});
export type JobCompletedEventV1 = z.infer<typeof jobCompletedEventSchema>;

export const jobFailedEventSchema = z.object({
  event: z.literal('job.failed'),
  ...jobEventBase,
  data: z.object({
    ...jobData,
    result: z.null(),
    report_url: z.null(),
    error: z.string().nullable().describe('Why the job failed.'),
  }),
});
export type JobFailedEventV1 = z.infer<typeof jobFailedEventSchema>;

export const webhookTestEventSchema = z.object({
  event: z.literal('webhook.test'),
  ...eventBase,
  data: z.object({
    webhook_id: uuidSchema,
    message: z.string(),
  }),
});
export type WebhookTestEventV1 = z.infer<typeof webhookTestEventSchema>;
