// @schemacheck/client: the typed client of the SchemaCheck public API. The types are generated from
// the API's OpenAPI document at build time (src/generated/api.ts, not committed), so they follow
// the server's contract; the helpers cover what the raw operations make tedious: multipart
// uploads, waiting for a job, and checking a webhook's signature.
export {
  createSchemaCheckClient,
  type ClientOptions,
  type JobCreated,
  type SchemaCheckClient,
  type UploadOptions,
  type UploadRequest,
  type ValidationResult,
} from './client.ts';
export { SchemaCheckError, type ApiErrorBody } from './errors.ts';
export { isFinished, JobTimeoutError, pollJob, type Job, type WaitOptions } from './jobs.ts';
export type { SchemaSource, UploadFile } from './uploads.ts';
export {
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type VerifyOptions,
  type WebhookEvent,
  type WebhookHeaders,
} from './webhooks.ts';
export type { components, paths } from './generated/api.ts';
