import { z } from 'zod';

// Pieces shared by the public API's contracts (snake_case JSON, like every /api/v1 body).

export const API_V1_BASE_PATH = '/api/v1';

/** Synchronous validation limits: above them a file goes to /v1/jobs. */
export const SYNC_MAX_BYTES = 5 * 1024 * 1024;
export const SYNC_MAX_ROWS = 50_000;

/** Rows of sample_errors in a synchronous result; the report holds every error. */
export const SAMPLE_ERRORS = 100;

/**
 * Something the caller should know that is not an error in the file: a byte-order mark, a guessed
 * delimiter, or a schema rule the engine does not check (code `schema`), so that no rule is ever
 * ignored without a word.
 */
export const warningSchema = z.object({
  code: z
    .string()
    .describe('bom, encoding, delimiter, ignored_option, empty_file, errors_truncated or schema.'),
  message: z.string(),
});

export const uuidSchema = z.uuid({ error: 'Must be an id (a UUID)' });

export const fileTypeSchema = z.enum(['csv', 'json'], { error: 'type must be csv or json' });

/** POST /v1/validate and POST /v1/jobs: the saved schema to check the upload against. */
export const uploadQuerySchema = z.object({
  schema_id: z
    .string()
    .optional()
    .describe('A saved schema. Without it, send the schema inline as the `schema` form field.'),
});

/** A stored result's counts, as the job result and the JSON report give them. */
export const resultStatsSchema = z.object({
  rows: z.number().int(),
  valid_rows: z.number().int(),
  invalid_rows: z.number().int(),
  bytes: z.number().int(),
});
