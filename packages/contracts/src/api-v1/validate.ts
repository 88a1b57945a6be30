import { z } from 'zod';
import {
  SYNC_MAX_BYTES,
  SYNC_MAX_ROWS,
  UPLOAD_FORMATS_TEXT,
  uploadFilePart,
  uuidSchema,
  warningSchema,
} from './common.ts';

// POST /v1/validate: a file in, a result out, synchronously, up to the sync limits.

export const validateFormSchema = z.object({
  file: uploadFilePart(
    `The file, up to ${SYNC_MAX_BYTES / 1024 / 1024} MB and ${SYNC_MAX_ROWS.toLocaleString('en-GB')} rows: ${UPLOAD_FORMATS_TEXT}`,
  ),
  sheet: z
    .string()
    .optional()
    .describe('Excel workbooks: the sheet (name or 1-based position); send it before the file.'),
  entry: z
    .string()
    .optional()
    .describe('Zip files: the entry to validate; send it before the file.'),
  schema: z
    .string()
    .optional()
    .describe('The schema as JSON text, instead of schema_id (any form /v1/schemas accepts).'),
});

export const sampleErrorSchema = z.object({
  row: z
    .number()
    .int()
    .min(1)
    .describe('1-based: for CSV the spreadsheet row (the header is row 1).'),
  column: z.string().describe('The column (CSV) or property (JSON) name.'),
  code: z.string().describe('A stable error code such as type, required, pattern.'),
  message: z.string(),
  value: z.string().nullable(),
  path: z.string().optional().describe('JSON only: the JSON path of the value.'),
  cell: z
    .string()
    .optional()
    .describe(
      'Excel workbooks only: the sheet and cell, as `Sheet1!D14` (`Sheet1!14:14` for a row).',
    ),
  severity: z
    .enum(['error', 'warning'])
    .describe(
      'warning: a rule marked `severity: "warning"` failed; it never makes the file invalid.',
    ),
  suggestion: z
    .string()
    .optional()
    .describe(
      '"Did you mean": the allowed or listed value this one nearly is (case, spacing, accents, a typo).',
    ),
});

export const validateResultSchema = z.object({
  valid: z.boolean(),
  error_count: z
    .number()
    .int()
    .min(0)
    .describe('Every error in the file; sample_errors holds the first.'),
  sample_errors: z.array(sampleErrorSchema),
  warning_count: z
    .number()
    .int()
    .min(0)
    .describe('Failures of rules marked as warnings: counted apart, never in error_count.'),
  sample_warnings: z.array(sampleErrorSchema).describe('The first warnings, in file order.'),
  stats: z.object({
    rows: z.number().int().min(0).describe('Data rows read.'),
    columns: z.number().int().min(0).describe('Columns (fields) of the schema.'),
    validated_in_ms: z.number().int().min(0),
  }),
  report_id: uuidSchema.describe('GET /v1/reports/{report_id} returns every error.'),
  warnings: z.array(warningSchema),
  livemode: z
    .boolean()
    .describe(
      'false when made with a test-mode key (sc_test_…): not counted against the month, files up to 1 MB.',
    ),
});
export type ValidateResultV1 = z.infer<typeof validateResultSchema>;
