import { z } from 'zod';
import {
  listPageFields,
  listQuerySchema,
  resultStatsSchema,
  UPLOAD_FORMATS_TEXT,
  uploadFilePart,
  uuidSchema,
  warningSchema,
} from './common.ts';

// /v1/jobs: asynchronous validation of files up to the plan's size limit. POST answers 202 at
// once; GET /v1/jobs/{job_id} follows the job; a webhook (job.completed, job.failed) tells when it
// has ended.

export const JOB_STATUSES_V1 = [
  'awaiting_upload',
  'queued',
  'running',
  'completed',
  'failed',
] as const;
export type JobStatusV1 = (typeof JOB_STATUSES_V1)[number];

export const createJobFormSchema = z.object({
  file: uploadFilePart(
    `The file, up to the plan's file size limit (100 MB on Business): ${UPLOAD_FORMATS_TEXT}`,
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
    .describe('The schema as JSON text, instead of schema_id (send it before the file).'),
});

// A job without a multipart body (docs/decisions/235): `upload: true` answers presigned URLs of
// a multipart upload straight to the bucket, which POST /v1/jobs/{job_id}/complete finishes;
// `source_url` is fetched by a worker. The schema comes as in the form: `schema` (JSON text) or
// ?schema_id=….
export const createJobJsonSchema = z.object({
  upload: z
    .literal(true)
    .optional()
    .describe('Upload the file straight to object storage: answers presigned part URLs (201).'),
  source_url: z
    .string()
    .max(2000)
    .optional()
    .describe(
      'An https URL we fetch the file from (public addresses only, size capped by the plan).',
    ),
  filename: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe(
      "The file's name (its ending says the format). Required with `upload`; with `source_url` the URL's last segment by default.",
    ),
  size: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('With `upload`: the file size in bytes, which sets the parts.'),
  schema: z.string().optional().describe('The schema as JSON text, instead of ?schema_id=….'),
  sheet: z.string().optional().describe('Excel workbooks: the sheet (name or 1-based position).'),
  entry: z.string().optional().describe('Zip files: the entry to validate.'),
});
export type CreateJobJsonV1 = z.infer<typeof createJobJsonSchema>;

export const directUploadSchema = z.object({
  job_id: uuidSchema,
  status: z.literal('awaiting_upload'),
  part_size: z
    .number()
    .int()
    .min(5 * 1024 * 1024)
    .describe('Bytes of every part but the last, which is smaller or equal.'),
  parts: z
    .array(
      z.object({
        part_number: z.number().int().min(1),
        url: z.string().describe('PUT the part here (no Authorization header); keep its ETag.'),
      }),
    )
    .describe('One URL per part, in order.'),
  expires_at: z.iso.datetime().describe('The URLs work until then.'),
  complete_url: z
    .string()
    .describe('POST the parts’ ETags here, with your API key, once every part is sent.'),
});
export type DirectUploadV1 = z.infer<typeof directUploadSchema>;

export const completeJobBodySchema = z.object({
  parts: z
    .array(
      z.object({
        part_number: z.number().int().min(1).max(10_000),
        etag: z.string().min(1).max(200).describe('The ETag header of the part’s PUT answer.'),
      }),
    )
    .min(1)
    .max(10_000),
});

export const jobCreatedSchema = z.object({
  job_id: uuidSchema,
  status: z.literal('queued'),
  estimated_seconds: z
    .number()
    .int()
    .min(0)
    .describe('Expected run time, from the size and the throughput of recent jobs.'),
});
export type JobCreatedV1 = z.infer<typeof jobCreatedSchema>;

export const jobResultSchema = z.object({
  valid: z.boolean(),
  error_count: z.number().int().min(0),
  stats: resultStatsSchema.extend({ validated_in_ms: z.number().int().min(0) }),
  report_id: uuidSchema,
  report_url: z
    .string()
    .describe('GET it with your API key: every error, as CSV (or ?format=json).'),
  warnings: z.array(warningSchema),
});

export const jobSchema = z.object({
  job_id: uuidSchema,
  status: z.enum(JOB_STATUSES_V1),
  file_name: z.string(),
  file_size: z.number().int().min(0),
  schema_id: uuidSchema.nullable(),
  progress: z.number().min(0).max(1).describe('Share of the file read so far (1 when completed).'),
  rows_processed: z.number().int().min(0).describe('Data rows read so far.'),
  estimated_seconds: z.number().int().min(0),
  created_at: z.iso.datetime(),
  started_at: z.iso.datetime().nullable(),
  completed_at: z.iso.datetime().nullable(),
  result: jobResultSchema.nullable().describe('Set once the job has completed.'),
  error: z.string().nullable().describe('Why the job failed, when it did.'),
  livemode: z
    .boolean()
    .describe(
      'false when made with a test-mode key (sc_test_…): not counted against the month, files up to 1 MB.',
    ),
});
export type JobV1 = z.infer<typeof jobSchema>;

export const jobParamsSchema = z.object({ job_id: z.string() });

export const jobListQuerySchema = z.object({
  status: z
    .enum(JOB_STATUSES_V1, {
      error: 'status must be awaiting_upload, queued, running, completed or failed',
    })
    .optional(),
  ...listQuerySchema.shape,
});

export const jobListSchema = z.object({
  data: z.array(jobSchema),
  ...listPageFields,
});
export type JobListV1 = z.infer<typeof jobListSchema>;
