import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { ValidationPool, WorkerCrashed, type ValidationJob } from '../src/validation/pool.ts';
import {
  clientsOf,
  multipartBody,
  registerOnTier,
  removeTempDirs,
  startTestApp,
} from './helpers.ts';

// Worker isolation and fairness (docs/decisions/061): a worker past its heap limit dies alone,
// its job fails with a clear answer and no charge, the worker is replaced and the server goes on;
// a small validation is not held up by a long one on the same worker.

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const SCHEMA = JSON.stringify({ fileType: 'json', fields: [{ name: 'id', type: 'integer' }] });
const CHUNK = 64 * 1024;

/**
 * One record within the engine's limits (99,000 members, ~15 Mi characters) that builds into
 * ~30 MB of two-byte strings: more than a tiny test heap holds.
 */
function hugeRecordFile(): Buffer {
  const item = JSON.stringify('é'.repeat(150));
  return Buffer.from(`[{"id":1,"items":[${Array(99_000).fill(item).join(',')}]}]`);
}

/** Validates `bytes`; with `hold`, the bytes from `hold.at` on are sent once `hold.until` settles. */
async function run(
  job: ValidationJob,
  bytes: Uint8Array,
  hold?: { at: number; until: Promise<unknown> },
) {
  const opened = await job.open(SCHEMA);
  expect(opened.ok).toBe(true);
  job.begin({ fileType: 'json', maxErrors: 10, report: false, now: new Date().toISOString() });
  for (let i = 0; i < bytes.length; i += CHUNK) {
    if (hold && i >= hold.at) await hold.until;
    await job.push(bytes.subarray(i, i + CHUNK));
  }
  return job.end();
}

afterAll(removeTempDirs);

/** Nice values of this process's threads (Linux: field 19 of /proc/self/task/<tid>/stat). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe('validation workers', () => {
  it.runIf(process.platform === 'linux')(
    'run below the event loop, so requests are answered first when the CPU is short',
    async () => {
      const before = threadNiceValues().filter((n) => n === 10).length;
      const pool = new ValidationPool(2, log);
      try {
        // Two jobs open at once go to the two workers; each has lowered itself once it runs one.
        const jobs = [pool.job(), pool.job()];
        await Promise.all(jobs.map((job) => run(job, Buffer.from('[{"id":1}]'))));
        for (const job of jobs) job.close();
        expect(threadNiceValues().filter((n) => n === 10).length - before).toBe(2);
        // The event loop's own thread keeps its priority.
        expect(getPriority()).toBe(0);
      } finally {
        await pool.close();
      }
    },
  );

  it(
    'a worker out of memory fails only its job and is replaced',
    { timeout: 120_000 },
    async () => {
      const pool = new ValidationPool(1, log, { maxHeapMb: 24 });
      try {
        const job = pool.job();
        const err = await run(job, hugeRecordFile()).then(
          () => null,
          (e: unknown) => e,
        );
        job.close();
        expect(err).toBeInstanceOf(WorkerCrashed);
        expect((err as WorkerCrashed).outOfMemory).toBe(true);
        expect(pool.replaced).toBe(1);

        const next = pool.job();
        const result = await run(next, Buffer.from('[{"id":1},{"id":"x"}]'));
        next.close();
        expect(result.totalRows).toBe(2);
        expect(result.errorCount).toBe(1);
      } finally {
        await pool.close();
      }
    },
  );

  it(
    'a small validation finishes while a long one runs on the same worker',
    { timeout: 120_000 },
    async () => {
      const pool = new ValidationPool(1, log);
      try {
        const record = JSON.stringify({ id: 1, name: 'a'.repeat(40) });
        const big = Buffer.from(`[${Array(400_000).fill(record).join(',')}]`);
        let bigDone = false;
        let smallDone: () => void = () => {};
        const long = pool.job();
        // The long one's second half waits for the small one, which a fast machine could otherwise
        // see start after the whole long file was read.
        const longRun = run(long, big, {
          at: big.length / 2,
          until: new Promise<void>((resolve) => (smallDone = resolve)),
        }).then((r) => {
          bigDone = true;
          return r;
        });
        // Let the long one get going first.
        await new Promise((r) => setTimeout(r, 200));
        const started = performance.now();
        const small = pool.job();
        const result = await run(small, Buffer.from('[{"id":1}]'));
        const waited = performance.now() - started;
        smallDone();
        small.close();
        expect(result.totalRows).toBe(1);
        expect(bigDone).toBe(false);
        expect(waited).toBeLessThan(3_000);
        expect((await longRun).totalRows).toBe(400_000);
        long.close();
      } finally {
        await pool.close();
      }
    },
  );

  it(
    'an upload whose worker dies gets 503 with Retry-After, is not counted, and the next one works',
    { timeout: 120_000 },
    async () => {
      const t = await startTestApp({ config: { validationWorkerHeapMb: 24 } });
      try {
        const client = clientsOf(t, 74)();
        await registerOnTier(t, client, 'business', 'oom');
        const upload = (content: Buffer) => {
          const form = multipartBody([
            { name: 'schema', value: SCHEMA },
            { name: 'file', filename: 'f.json', content },
          ]);
          return client.post('/api/validate', undefined, {
            payload: form.payload,
            headers: form.headers,
          });
        };
        const res = await upload(hugeRecordFile());
        expect(res.statusCode).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.json()).toEqual({
          error:
            'The validation ran out of memory on our side and stopped. It was not counted; please try again later.',
          code: 'validation_interrupted',
          request_id: expect.any(String),
        });
        expect((await client.get('/api/auth/usage')).json()).toMatchObject({ used: 0 });

        const ok = await upload(Buffer.from('[{"id":1}]'));
        expect(ok.statusCode).toBe(200);
        expect((await client.get('/api/auth/usage')).json()).toMatchObject({ used: 1 });
        expect((await client.get('/healthz')).statusCode).toBe(200);
      } finally {
        await t.close();
      }
    },
  );
});
