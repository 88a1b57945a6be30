import { z } from 'zod';

// The one error shape of the whole server, public API included: `{ error, code, request_id }`,
// where `error` is a sentence saying what to fix, `code` a stable identifier and `request_id` the
// id to quote to support (also the X-Request-Id header). Some codes add details (`problems` by
// path for a refused schema, `issues` for a refused parameter or text, `limit`, `reset_date`).
// Detail names are snake_case like every /api/v1 body (docs/decisions/135). A file with
// validation errors is not an error: it is a 200 result.

export const apiErrorSchema = z.object({
  error: z.string().describe('What went wrong and what to do about it.'),
  code: z.string().describe('A stable code: see the error code table (`x-error-codes`).'),
  request_id: z
    .string()
    .describe(
      'The id of this request (also the X-Request-Id header): yours when you sent X-Request-Id, else ours. Quote it to support.',
    ),
  problems: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional()
    .describe('invalid_schema: every problem of the schema, by path.'),
  issues: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional()
    .describe('validation and invalid_text: every refused parameter or body property, by path.'),
  limit: z.number().int().min(0).optional().describe('The limit that was passed, where one was.'),
  reset_date: z.iso
    .datetime()
    .optional()
    .describe('monthly_limit: when the monthly validations reset (ISO 8601, UTC).'),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** Every code the public API answers with, its status and when. */
export const API_ERROR_CODES = [
  ['validation', 400, 'A parameter, query value or body property is missing or not valid.'],
  ['invalid_json', 400, 'The body is not valid JSON.'],
  [
    'invalid_text',
    400,
    'A text value holds U+0000 or an unpaired UTF-16 surrogate, which cannot be stored.',
  ],
  ['invalid_schema', 400, 'The engine refused the schema; `problems` lists each problem by path.'],
  ['invalid_upload', 400, 'The multipart form is malformed or lacks its `file` part.'],
  ['empty_file', 400, 'The uploaded file has no bytes.'],
  [
    'direct_upload_unavailable',
    400,
    'Direct uploads (`upload: true`) need object storage, which this server does not use.',
  ],
  [
    'upload_incomplete',
    400,
    'The parts sent to complete a direct upload do not make the file (missing, small or wrong ETags).',
  ],
  ['invalid_api_key', 401, 'No key, a malformed key, an unknown key or a revoked key.'],
  ['plan_required', 403, 'The account is not on the Business or Enterprise plan.'],
  ['not_found', 404, 'No such schema, report or list for this account.'],
  ['method_not_allowed', 405, 'The path exists but not with this method.'],
  ['request_timeout', 408, 'The request took too long to arrive; retry it.'],
  ['idempotency_in_progress', 409, 'A request with this Idempotency-Key is still running.'],
  ['schema_limit', 409, 'The account has the maximum number of saved schemas.'],
  ['job_not_awaiting_upload', 409, 'The job is not a direct upload waiting for its parts.'],
  ['list_exists', 409, 'A reference list of that name exists (replace it with PUT).'],
  ['list_limit', 409, 'The account has the maximum number of reference lists.'],
  ['list_too_large', 413, "The list has more values than the plan allows (or the file's bytes)."],
  ['sync_limit', 413, 'The file is over the synchronous limits: submit it to /v1/jobs.'],
  ['file_too_large', 413, "The file is over the plan's file size limit."],
  ['payload_too_large', 413, 'The JSON body is too large.'],
  ['uri_too_long', 414, 'A path parameter (an id) is longer than any id.'],
  ['unsupported_media_type', 415, 'The body is not JSON (or multipart for /v1/validate).'],
  [
    'unsupported_file',
    415,
    'Only .csv, .json, .ndjson, .jsonl and .xlsx files (also as .gz or .zip) can be validated.',
  ],
  ['idempotency_mismatch', 422, 'The Idempotency-Key was used with a different request.'],
  ['rate_limited', 429, 'Too many requests for this key; see Retry-After.'],
  ['monthly_limit', 429, "The plan's monthly validations are used; see Retry-After."],
  ['header_too_large', 431, 'The request headers are too large.'],
  ['internal', 500, 'Something failed on our side; retrying is safe.'],
  ['service_unavailable', 503, 'The service is briefly unavailable; retry shortly.'],
  ['database_unavailable', 503, 'The database cannot be reached; see Retry-After.'],
  [
    'validation_interrupted',
    503,
    'The validation stopped on our side (not counted); see Retry-After and retry.',
  ],
  [
    'storage_full',
    507,
    'Our storage is full: nothing was stored or counted; see Retry-After and retry.',
  ],
] as const satisfies readonly (readonly [string, number, string])[];

export type ApiErrorCode = (typeof API_ERROR_CODES)[number][0];
