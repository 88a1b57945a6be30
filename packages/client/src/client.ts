import createFetchClient, { type Client } from 'openapi-fetch';
import { unwrap } from './errors.ts';
import type { components, paths } from './generated/api.ts';
import { pollJob, retryAfterMs, type Job, type WaitOptions } from './jobs.ts';
import { uploadForm, type SchemaSource, type UploadFile } from './uploads.ts';

export type ValidationResult = components['schemas']['ValidationResult'];
export type JobCreated = components['schemas']['JobCreated'];
type DirectUpload = components['schemas']['DirectUpload'];

export interface ClientOptions {
  /** An API key from the profile page: `sc_…` (live) or `sc_test_…` (test mode). */
  apiKey: string;
  /** The API's base URL, with /api/v1: e.g. `https://schemacheck.example/api/v1`. */
  baseUrl: string;
  /** Another fetch (a proxy agent, a test double); the global one by default. */
  fetch?: typeof globalThis.fetch;
}

export interface UploadOptions {
  /** Makes a retried POST safe: the same key within 24 h answers the first result again. */
  idempotencyKey?: string;
  /** Your own id for the request, echoed in X-Request-Id and in error bodies. */
  requestId?: string;
  signal?: AbortSignal;
}

export type UploadRequest = { file: UploadFile } & SchemaSource & UploadOptions;

export interface SchemaCheckClient {
  /**
   * The typed client of every operation (openapi-fetch): `api.GET('/usage')`,
   * `api.POST('/schemas', { body })`… Paths, parameters, bodies and answers are typed from the
   * OpenAPI document; it answers `{ data, error, response }` and never throws on an HTTP error.
   */
  readonly api: Client<paths>;
  /** POST /validate: validates a file at once (up to 5 MB) and answers the result. */
  validateFile(request: UploadRequest): Promise<ValidationResult>;
  /** POST /jobs: queues a file (up to the plan's size limit); answers its id at once. */
  createJob(request: UploadRequest): Promise<JobCreated>;
  /** GET /jobs/{job_id} until the job is completed or failed. */
  waitForJob(jobId: string, options?: WaitOptions): Promise<Job>;
  /** createJob, then waitForJob. */
  runJob(request: UploadRequest, options?: WaitOptions): Promise<Job>;
}

export function createSchemaCheckClient(options: ClientOptions): SchemaCheckClient {
  const api = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  // Both upload operations take the same query, headers and multipart body.
  function uploadInit(request: UploadRequest) {
    const form = uploadForm(request.file, request);
    const header: Record<string, string> = {};
    if (request.idempotencyKey) header['Idempotency-Key'] = request.idempotencyKey;
    if (request.requestId) header['X-Request-Id'] = request.requestId;
    return {
      params: { query: request.schemaId ? { schema_id: request.schemaId } : {}, header },
      // The typed body is the document's description of the form; the FormData is what is sent.
      body: {} as { file: string; schema?: string },
      bodySerializer: () => form,
      ...(request.signal ? { signal: request.signal } : {}),
    };
  }

  async function waitForJob(jobId: string, wait: WaitOptions = {}): Promise<Job> {
    return pollJob(async () => {
      const result = await api.GET('/jobs/{job_id}', {
        params: { path: { job_id: jobId } },
        ...(wait.signal ? { signal: wait.signal } : {}),
      });
      // Too many requests: wait as long as the server says, then read again.
      if (result.response.status === 429) {
        const after = retryAfterMs(result.response.headers.get('retry-after'));
        if (after !== undefined) return { retryAfterMs: after };
      }
      return { job: unwrap(result) };
    }, wait);
  }

  return {
    api,
    async validateFile(request) {
      return unwrap(await api.POST('/validate', uploadInit(request)));
    },
    async createJob(request) {
      return queued(unwrap(await api.POST('/jobs', uploadInit(request))));
    },
    waitForJob,
    async runJob(request, wait) {
      const { job_id } = queued(unwrap(await api.POST('/jobs', uploadInit(request))));
      return waitForJob(job_id, { ...wait, signal: wait?.signal ?? request.signal });
    },
  };
}

/** A file sent in the request's body is queued at once; only `{ upload: true }` answers part URLs. */
function queued(answer: JobCreated | DirectUpload): JobCreated {
  if (answer.status !== 'queued') {
    throw new Error(`POST /jobs answered "${answer.status}" to a file sent in its body`);
  }
  return answer;
}
