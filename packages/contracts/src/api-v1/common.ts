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
  sheet: z
    .string()
    .optional()
    .describe(
      'Excel workbooks: the sheet to validate, by name or 1-based position; the first worksheet by default. Also accepted as a form field before the file.',
    ),
  entry: z
    .string()
    .optional()
    .describe(
      'Zip files: the entry to validate (its path in the zip); needed when the zip holds several data files. Also accepted as a form field before the file.',
    ),
});

/** The file formats an upload may be, for the descriptions of the upload operations. */
export const UPLOAD_FORMATS_TEXT =
  'CSV (.csv), JSON (.json), NDJSON (.ndjson, .jsonl), Excel workbooks (.xlsx; not .xls or .xlsb), gzip (.gz, or any name with gzip content) and zip (.zip holding one data file, or `entry`). The size limit applies to the decompressed data.';

/** A stored result's counts, as the job result and the JSON report give them. */
export const resultStatsSchema = z.object({
  rows: z.number().int().min(0),
  valid_rows: z.number().int().min(0),
  invalid_rows: z.number().int().min(0),
  bytes: z.number().int().min(0),
});

/**
 * A file part of a multipart upload: bytes, not text (OpenAPI 3.1 spells it with
 * contentMediaType; generators then type it as a Blob or a byte stream).
 */
export function uploadFilePart(description: string) {
  return z.string().meta({ contentMediaType: 'application/octet-stream' }).describe(description);
}

/** Items per page of a /v1 list: 20 unless `limit` says otherwise, 100 at most. */
export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;

const pageMessage = 'page must be a whole number from 1';
const limitMessage = `limit must be a whole number from 1 to ${LIST_LIMIT_MAX}`;

/**
 * The query of every /v1 list (docs/decisions/136). Lists are ordered newest first (created_at
 * descending, then id descending, so that two items of the same instant keep one order). A page
 * is chosen by number (`page`, simple, but an item created between two calls shifts the next
 * page by one) or, as Stripe does, by cursor: `starting_after` the id of the last item seen,
 * which neither repeats nor skips an item whatever is created or deleted meanwhile.
 */
export const listQuerySchema = z.object({
  page: z.coerce
    .number({ error: pageMessage })
    .int(pageMessage)
    .min(1, pageMessage)
    .max(1_000_000, 'page is too large')
    .optional()
    .describe('Page number, from 1 (the default). Not with starting_after.'),
  limit: z.coerce
    .number({ error: limitMessage })
    .int(limitMessage)
    .min(1, limitMessage)
    .max(LIST_LIMIT_MAX, limitMessage)
    .default(LIST_LIMIT_DEFAULT),
  starting_after: z
    .string()
    .max(100, 'starting_after must be an id from a previous page')
    .optional()
    .describe(
      'Cursor pagination: the id of the last item of the previous page; the answer starts just after it. Use the id of the last item of `data` while `has_more` is true.',
    ),
});
export type ListQueryV1 = z.output<typeof listQuerySchema>;

/** The envelope of every /v1 list, around `data`. */
export const listPageFields = {
  page: z
    .number()
    .int()
    .min(1)
    .nullable()
    .describe('The page number, or null when the page was chosen with starting_after.'),
  limit: z.number().int().min(1),
  total: z.number().int().min(0).describe('Items of the list in all pages.'),
  has_more: z.boolean().describe('Whether items follow this page.'),
};
