import type { DirectUploadV1, JobCreatedV1, JobV1, ValidateResponse } from '@schemacheck/contracts';
import type { WebSchema } from '@schemacheck/engine';

import { api, ApiError, type UploadOptions } from '@/lib/api-client';

import type { InputChoice } from '../lib/file-choices';

// A file above the synchronous limit on a server that stores on S3 goes straight to the bucket
// (docs/decisions/236): POST /api/jobs/uploads answers presigned part URLs, the parts are PUT
// there (a few at a time; the progress moves as each part lands), POST /api/jobs/:id/complete
// queues the job (a cancel before that gives it up), and its result is read once the job has
// run. The answer is the one /api/validate gives, so the workspace shows it the same way.

/** Parts in flight at once: enough to fill a link, few enough to show steady progress. */
const PARALLEL_PARTS = 3;
const POLL_MS = 1000;

const aborted = () => new DOMException('The upload was cancelled.', 'AbortError');

/** Starts a direct upload; null when the server has no object storage (local disk). */
async function start(
  file: File,
  schema: WebSchema,
  choice: InputChoice,
): Promise<DirectUploadV1 | null> {
  try {
    return await api.post<DirectUploadV1>('/api/jobs/uploads', {
      filename: file.name,
      size: file.size,
      schema: JSON.stringify(schema),
      ...(choice.sheet !== undefined ? { sheet: choice.sheet } : {}),
      ...(choice.entry !== undefined ? { entry: choice.entry } : {}),
    });
  } catch (error) {
    if (error instanceof ApiError && error.details?.code === 'direct_upload_unavailable') {
      return null;
    }
    throw error;
  }
}

/** PUTs every part to its URL; the parts' ETags in order. */
async function sendParts(
  file: File,
  upload: DirectUploadV1,
  options: UploadOptions,
): Promise<{ part_number: number; etag: string }[]> {
  const etags: string[] = [];
  let sent = 0;
  let next = 0;
  options.onUploadProgress?.(0, file.size);
  const worker = async () => {
    while (next < upload.parts.length) {
      const part = upload.parts[next++]!;
      const from = (part.part_number - 1) * upload.part_size;
      const body = file.slice(from, from + upload.part_size);
      // No credentials: the URL's signature is the permission, and the bucket is another origin.
      const res = await fetch(part.url, {
        method: 'PUT',
        body,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const etag = res.headers.get('etag');
      if (!res.ok || !etag) {
        throw new ApiError(
          res.status,
          res.statusText,
          JSON.stringify({
            error: res.ok
              ? 'The storage did not say which part it received (its CORS rule must expose ETag).'
              : `The storage refused part ${part.part_number} of the file (HTTP ${res.status}).`,
          }),
        );
      }
      etags[part.part_number - 1] = etag;
      sent += body.size;
      options.onUploadProgress?.(sent, file.size);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_PARTS, upload.parts.length) }, worker));
  return etags.map((etag, i) => ({ part_number: i + 1, etag }));
}

async function finished(jobId: string, signal: AbortSignal | undefined): Promise<JobV1> {
  for (;;) {
    if (signal?.aborted) throw aborted();
    const job = await api.get<JobV1>(`/api/jobs/${encodeURIComponent(jobId)}`);
    if (job.status === 'completed' || job.status === 'failed') return job;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Validates `file` through a direct upload and its job; null when the server cannot take direct
 * uploads, for the caller to send the file to /api/validate instead.
 */
export async function validateDirectly(
  file: File,
  schema: WebSchema,
  options: UploadOptions,
  choice: InputChoice,
): Promise<ValidateResponse | null> {
  if (options.signal?.aborted) throw aborted();
  const upload = await start(file, schema, choice);
  if (!upload) return null;
  const jobPath = `/api/jobs/${encodeURIComponent(upload.job_id)}`;
  try {
    const parts = await sendParts(file, upload, options);
    await api.post<JobCreatedV1>(`${jobPath}/complete`, { parts });
  } catch (error) {
    // Cancelled or broken off: the job fails now and the month's validation is given back (the
    // server refuses this for a job already ended, as after a refused complete).
    void api.delete(`${jobPath}/upload`).catch(() => undefined);
    throw error;
  }
  options.onUploadDone?.();
  const job = await finished(upload.job_id, options.signal);
  if (job.status === 'failed' || !job.result) {
    throw new ApiError(
      422,
      'Unprocessable Content',
      JSON.stringify({ error: job.error ?? 'The validation did not complete.' }),
    );
  }
  return api.get<ValidateResponse>(
    `/api/validation-results/${encodeURIComponent(job.result.report_id)}`,
  );
}
