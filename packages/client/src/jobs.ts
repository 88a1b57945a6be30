import type { components } from './generated/api.ts';

export type Job = components['schemas']['Job'];

export interface WaitOptions {
  /** First wait between two polls (default 1000 ms); it grows by half up to `maxIntervalMs`. */
  intervalMs?: number;
  /** Longest wait between two polls (default 5000 ms). */
  maxIntervalMs?: number;
  /** Give up after this long (default 10 minutes) with a JobTimeoutError. */
  timeoutMs?: number;
  /** Stops waiting (the job itself goes on). */
  signal?: AbortSignal;
  /** Called with every state read, e.g. to show `progress`. */
  onUpdate?: (job: Job) => void;
}

/** The job had not ended when `timeoutMs` ran out; it goes on and can be polled again. */
export class JobTimeoutError extends Error {
  override readonly name = 'JobTimeoutError';
  constructor(readonly job: Job) {
    super(`Job ${job.job_id} is still ${job.status} after the wait's time limit`);
  }
}

export const isFinished = (job: Job): boolean =>
  job.status === 'completed' || job.status === 'failed';

/**
 * Polls `read` until the job is completed or failed. `read` answers the job and, when the server
 * asked to slow down (429), how long to wait; the wait then follows the server.
 */
export async function pollJob(
  read: () => Promise<{ job?: Job; retryAfterMs?: number }>,
  options: WaitOptions = {},
  now: () => number = Date.now,
): Promise<Job> {
  const maxInterval = options.maxIntervalMs ?? 5000;
  let interval = Math.min(options.intervalMs ?? 1000, maxInterval);
  const deadline = now() + (options.timeoutMs ?? 10 * 60_000);
  let last: Job | undefined;
  for (;;) {
    options.signal?.throwIfAborted();
    const { job, retryAfterMs } = await read();
    if (job) {
      last = job;
      options.onUpdate?.(job);
      if (isFinished(job)) return job;
    }
    const wait = retryAfterMs ?? interval;
    if (now() + wait > deadline) {
      if (last) throw new JobTimeoutError(last);
      throw new Error('The job could not be read before the wait’s time limit');
    }
    await sleep(wait, options.signal);
    interval = Math.min(Math.round(interval * 1.5), maxInterval);
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** Retry-After as seconds or an HTTP date, in milliseconds (never negative). */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
