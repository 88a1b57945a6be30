import { randomUUID } from 'node:crypto';
import { existsSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { validationJobs } from '../src/db/schema.ts';
import { outcomeKeyFor } from '../src/jobs/split-jobs.ts';
import { uploadKeyFor } from '../src/jobs/validation-jobs.ts';
import { SWEEP_MIN_AGE_MS, sweepStorage } from '../src/storage/sweep.ts';
import { multipartBody, testAppForFile } from './helpers.ts';
import { businessUser, SCHEMA } from './jobs-support.ts';

// The storage sweep removes the upload of a job whose row is gone (docs/decisions/064, 138),
// and keeps the upload of a job that still waits for a worker. Jobs stay queued here: no
// worker runs (RUN_JOBS=false), so the uploads are the route's own.

const t = testAppForFile();
const fileOf = (key: string) => path.join(t.config.dataDir, 'reports', ...key.split('/'));

function age(key: string) {
  const when = new Date(Date.now() - SWEEP_MIN_AGE_MS - 60_000);
  utimesSync(fileOf(key), when, when);
}

async function queueJob(auth: Record<string, string>): Promise<string> {
  const form = multipartBody([
    { name: 'schema', value: SCHEMA },
    { name: 'file', filename: 'people.csv', content: 'id,email,score\n1,a@example.com,5\n' },
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/jobs',
    headers: { ...auth, ...form.headers },
    payload: form.payload,
  });
  expect(res.statusCode, res.body).toBe(202);
  return (res.json() as { job_id: string }).job_id;
}

describe('the storage sweep and job uploads', () => {
  it('removes an old upload whose job row is gone; keeps a queued job’s and a young one', async () => {
    const { id: userId, auth } = await businessUser(t, 183, 'sweepjob');
    const queued = await queueJob(auth);
    const orphaned = await queueJob(auth);
    const queuedKey = uploadKeyFor(userId, queued);
    const orphanKey = uploadKeyFor(userId, orphaned);
    expect(existsSync(fileOf(queuedKey))).toBe(true);
    expect(existsSync(fileOf(orphanKey))).toBe(true);

    // The row of one job disappears (an operator's clean-up, a restore, a crash between the
    // upload and the row): nothing will ever read or delete its upload.
    await t.app.db.delete(validationJobs).where(eq(validationJobs.id, orphaned));
    // An upload that never got its row, still young: it may be a request in progress.
    const youngKey = uploadKeyFor(userId, randomUUID());
    await t.app.storage.put(youngKey, Readable.from(['id\n1\n']));
    // An old one that never got its row.
    const neverKey = uploadKeyFor(userId, randomUUID());
    await t.app.storage.put(neverKey, Readable.from(['id\n1\n']));
    // Part outcomes of split jobs (decision 239) go with their job's upload.
    const queuedPart = outcomeKeyFor(userId, queued, 0);
    const orphanPart = outcomeKeyFor(userId, orphaned, 1);
    for (const key of [queuedPart, orphanPart])
      await t.app.storage.put(key, Readable.from(['{}\n']));
    for (const key of [queuedKey, orphanKey, neverKey, queuedPart, orphanPart]) age(key);

    const counts = await sweepStorage(t.app.db, t.app.storage, new Date());
    expect(counts.jobUploads).toBe(3);
    expect(existsSync(fileOf(orphanKey))).toBe(false);
    expect(existsSync(fileOf(orphanPart))).toBe(false);
    expect(existsSync(fileOf(neverKey))).toBe(false);
    expect(existsSync(fileOf(queuedKey))).toBe(true);
    expect(existsSync(fileOf(queuedPart))).toBe(true);
    expect(existsSync(fileOf(youngKey))).toBe(true);

    // The queued job can still be read (its upload is there for the worker).
    const job = await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${queued}`, headers: auth });
    expect(job.json()).toMatchObject({ status: 'queued' });

    // Idempotent: a second sweep (another process) finds nothing more.
    expect((await sweepStorage(t.app.db, t.app.storage, new Date())).jobUploads).toBe(0);
  });
});
