import { z } from 'zod';
import { fileTypeSchema, resultStatsSchema, uuidSchema } from './common.ts';
import { sampleErrorSchema } from './validate.ts';

// GET /v1/reports/{report_id}: the full error report as CSV (the web's formula-safe report), or
// with ?format=json the summary and every error as JSON.

export const reportParamsSchema = z.object({ report_id: z.string() });

export const reportQuerySchema = z.object({
  format: z.enum(['csv', 'json'], { error: 'format must be csv or json' }).default('csv'),
});

export const reportJsonSchema = z.object({
  report_id: uuidSchema,
  file_name: z.string(),
  file_type: fileTypeSchema,
  created_at: z.iso.datetime(),
  valid: z.boolean(),
  error_count: z.number().int().min(0),
  stats: resultStatsSchema,
  errors: z
    .array(sampleErrorSchema)
    .describe('Every error and warning, in file order (`severity` tells them apart).'),
});
export type ReportJsonV1 = z.infer<typeof reportJsonSchema>;
