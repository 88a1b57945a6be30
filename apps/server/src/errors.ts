// Every failure the server answers with, in one table: a stable code, its HTTP status and the
// message a user sees unless the thrower gives a more precise one. Responses have the shape
// `{ error, code, request_id }` (contracts' apiErrorSchema, docs/decisions/087 and 135); 400s from
// body validation add `issues`. 4xx messages explain; 5xx are logged in full and answered with
// the generic text only. The public API's table (packages/contracts/src/api-v1/errors.ts) lists
// the codes /api/v1 answers with; a test keeps it within this one.

export const ERRORS = {
  /** A body, query or parameter failed its zod schema; `error` is the first issue's message. */
  validation: { status: 400, message: 'The request is not valid' },
  /** The body is not JSON, or nested deeper than the parser allows. */
  invalid_json: { status: 400, message: 'The request body is not valid JSON' },
  /** A registration or reset password is on the common-password blocklist. */
  common_password: { status: 400, message: 'This password is too common. Choose another one.' },
  /** The engine refused a schema; `problems` lists every problem by path. */
  invalid_schema: { status: 400, message: 'The schema has problems' },
  /** POST /api/validate: not a well-formed multipart form with `schema` then one `file`. */
  invalid_upload: {
    status: 400,
    message: 'Send the schema and then the file as multipart/form-data',
  },
  empty_file: { status: 400, message: 'The file is empty' },
  /** POST /v1/jobs with `upload: true` on local disk: presigned URLs need a bucket (235). */
  direct_upload_unavailable: {
    status: 400,
    message:
      'Direct uploads need object storage (S3), which this server does not use. Send the file as multipart/form-data or give a source_url.',
  },
  /** POST /v1/jobs/{id}/complete: the bucket refused the parts (missing, too small, wrong ETag). */
  upload_incomplete: {
    status: 400,
    message: 'The parts do not complete the upload. Send every part, then their ETags in order.',
  },
  /** Input text holds U+0000 or a lone UTF-16 surrogate, which cannot be stored (060). */
  invalid_text: {
    status: 400,
    message: 'Text may not contain the NUL character (U+0000) or unpaired UTF-16 surrogates',
  },
  /** The reset token is unknown, used or expired. */
  invalid_reset_token: {
    status: 400,
    message: 'This password reset link is invalid or has expired. Please request a new one.',
  },
  /** No valid session (absent, expired, signed out). */
  unauthorized: { status: 401, message: 'Not signed in' },
  /** Public API: no key, a malformed, unknown or revoked key (docs/decisions/081). */
  invalid_api_key: {
    status: 401,
    message: 'Send a valid API key as Authorization: Bearer sc_…',
  },
  /** Sign-in with a wrong password or an unknown account (the same answer for both). */
  invalid_credentials: { status: 401, message: 'Invalid username/email or password' },
  /** A mutating request without a valid x-csrf-token header. */
  csrf: { status: 403, message: 'Invalid or missing CSRF token' },
  /** A mutating request a browser marked Sec-Fetch-Site: cross-site. */
  cross_site: { status: 403, message: 'Cross-site requests are not allowed' },
  /** Account deletion with a wrong password. */
  incorrect_password: { status: 403, message: 'Incorrect password' },
  forbidden: { status: 403, message: 'You do not have access to this' },
  /** The user's plan does not include this feature. */
  plan_required: { status: 403, message: 'This feature is not included in your plan.' },
  not_found: { status: 404, message: 'Not found' },
  method_not_allowed: { status: 405, message: 'Method not allowed' },
  /** The client took too long to send the request (Node's request timeout). */
  request_timeout: { status: 408, message: 'The request took too long to arrive. Please retry.' },
  /** POST /v1/jobs/{id}/complete on a job that is not a direct upload waiting for its parts. */
  job_not_awaiting_upload: {
    status: 409,
    message: 'This job is not waiting for a direct upload.',
  },
  username_taken: { status: 409, message: 'That username is taken' },
  email_taken: { status: 409, message: 'An account with that email already exists' },
  /** A per-user cap (saved schemas) is reached. */
  schema_limit: { status: 409, message: 'You have reached the maximum number of saved schemas.' },
  /** Reference lists (docs/decisions/200): a name already used, the number of lists, values. */
  list_exists: { status: 409, message: 'A list of that name already exists.' },
  list_limit: { status: 409, message: 'You have reached the maximum number of lists.' },
  list_too_large: { status: 413, message: 'The list has more values than your plan allows.' },
  /** Public API: the same Idempotency-Key while its first request still runs. */
  idempotency_in_progress: {
    status: 409,
    message: 'A request with this Idempotency-Key is still in progress. Retry it shortly.',
  },
  /** Public API: the file passes the synchronous limits; /v1/jobs takes it. */
  sync_limit: {
    status: 413,
    message: 'This file is over the synchronous limits. Submit it to /api/v1/jobs instead.',
  },
  payload_too_large: { status: 413, message: 'The request body is too large' },
  /** The uploaded file passes the plan's file size limit (the message names the limit). */
  file_too_large: {
    status: 413,
    message: "This file is larger than your plan's file size limit.",
  },
  /** A path segment (an id) is longer than any id of ours; the URL is not echoed back. */
  uri_too_long: { status: 414, message: 'The URL is too long' },
  unsupported_media_type: {
    status: 415,
    message: 'Unsupported content type: send JSON with Content-Type: application/json',
  },
  /** Only CSV, JSON, NDJSON, .xlsx, gzip and zip files are validated (docs/decisions/163). */
  unsupported_file: {
    status: 415,
    message:
      'Only .csv, .json, .ndjson, .jsonl and .xlsx files (also as .gz or .zip) can be validated',
  },
  /** Public API: an Idempotency-Key used before with a different request. */
  idempotency_mismatch: {
    status: 422,
    message: 'This Idempotency-Key was used with a different request. Use a new key.',
  },
  /** The file has more data rows than the plan allows (the message names the limit). */
  row_limit: { status: 422, message: 'This file has more rows than your plan allows.' },
  /** The request's headers (cookies included) are larger than the server reads. */
  header_too_large: {
    status: 431,
    message: 'The request headers are too large. Send fewer or smaller headers (or cookies).',
  },
  /** Too many requests or failed attempts; a Retry-After header says when to try again. */
  rate_limited: { status: 429, message: 'Too many requests. Try again later.' },
  /** The plan's monthly validations are used up; Retry-After says when they reset. */
  monthly_limit: { status: 429, message: 'You have used all validations for this month.' },
  /** The plan runs one validation at a time and one is running. */
  validation_in_progress: {
    status: 429,
    message: 'Wait for the current validation to finish.',
  },
  /** Billing: a Stripe webhook without a valid, recent Stripe-Signature (docs/decisions/071). */
  invalid_signature: { status: 400, message: 'Invalid Stripe signature' },
  /** Billing: a correctly signed webhook body that is not a Stripe event we can read (logged). */
  invalid_event: { status: 400, message: 'Not a well-formed Stripe event' },
  /** Billing: the card was declined while changing plan; the message is Stripe's. */
  payment_failed: { status: 402, message: 'Your card was declined.' },
  /** Billing: Checkout for a user who already pays (plan changes go through the profile). */
  already_subscribed: {
    status: 409,
    message: 'You already have a subscription. Change your plan from your profile.',
  },
  /** Billing: a plan change, cancellation or preview without a live subscription. */
  no_subscription: {
    status: 409,
    message: 'You have no active subscription. Choose a plan and pay through Checkout first.',
  },
  /** Billing: the requested plan is the one the user has. */
  same_plan: { status: 409, message: 'You are already on this plan.' },
  /** Billing: the confirmed preview's quote is not valid for this change any more (125). */
  preview_expired: {
    status: 409,
    message: 'The price shown is out of date. Please review the new price and confirm again.',
  },
  /** Billing: Stripe cannot be reached or failed; nothing was changed. */
  billing_unavailable: {
    status: 503,
    message:
      'Our payment provider is not responding. Nothing was changed; please try again shortly.',
  },
  /**
   * Our disk or object store is full (ENOSPC, EDQUOT): nothing was stored or counted, and the
   * same request will work once space is freed; Retry-After says when to try (docs/decisions/137).
   */
  storage_full: {
    status: 507,
    message:
      'Our storage is full for the moment. Nothing was stored or counted; please retry shortly.',
  },
  internal: { status: 500, message: 'Something went wrong on our side. Please try again.' },
  service_unavailable: {
    status: 503,
    message: 'The service is temporarily unavailable. Please try again shortly.',
  },
  /** The database cannot be reached; Retry-After says when to try again (060). */
  database_unavailable: {
    status: 503,
    message: 'The service is temporarily unavailable. Please try again shortly.',
  },
  /**
   * A validation stopped for a reason of ours (its worker ran out of memory or crashed, the
   * server is shutting down); the validation is not counted, Retry-After says when to retry (061).
   */
  validation_interrupted: {
    status: 503,
    message:
      'The validation stopped on our side before it finished. It was not counted; please try again.',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

/**
 * Codes that only the web app's routes answer (sessions, CSRF, billing, the Free plan's limits).
 * Every other code of ERRORS is part of the public API and listed in its table
 * (packages/contracts/src/api-v1/errors.ts, the OpenAPI `x-error-codes`); a test holds the two
 * equal, so a new code is placed on one side or the other on purpose.
 */
export const WEB_ONLY_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'common_password',
  'invalid_reset_token',
  'unauthorized',
  'invalid_credentials',
  'csrf',
  'cross_site',
  'incorrect_password',
  'forbidden',
  'username_taken',
  'email_taken',
  'row_limit',
  'validation_in_progress',
  'invalid_signature',
  'payment_failed',
  'already_subscribed',
  'no_subscription',
  'same_plan',
  'preview_expired',
  'invalid_event',
  'billing_unavailable',
]);

export class AppError extends Error {
  override name = 'AppError';
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly extra: Record<string, unknown>;

  constructor(
    readonly code: ErrorCode,
    options: {
      message?: string;
      headers?: Record<string, string>;
      extra?: Record<string, unknown>;
    } = {},
  ) {
    super(options.message ?? ERRORS[code].message);
    this.statusCode = ERRORS[code].status;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }
}

/** 429 with Retry-After in seconds and a message in whole minutes. */
export function tooManyAttempts(what: string, retryAfterSeconds: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return new AppError('rate_limited', {
    message: `${what} Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    headers: { 'retry-after': String(seconds) },
  });
}

/** Seconds a client should wait before retrying after a 503 of ours. */
export const RETRY_AFTER_SECONDS = 5;

/** Seconds to wait after a full disk: freeing space takes an operator, not a blink. */
export const STORAGE_FULL_RETRY_AFTER_SECONDS = 60;
