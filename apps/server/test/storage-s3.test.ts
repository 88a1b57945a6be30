import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { userKey } from '../src/storage/keys.ts';
import { S3Storage } from '../src/storage/s3.ts';
import { SWEEP_MIN_AGE_MS, sweepStorage } from '../src/storage/sweep.ts';
import {
  clientsOf,
  multipartBody,
  registerOnTier,
  removeTempDirs,
  startTestApp,
  STRONG_PASSWORD,
  tempDir,
  type TestApp,
} from './helpers.ts';
import { startS3Server, type S3Server } from './s3-support.ts';

// The server with S3 storage (S3_BUCKET and the rest; docs/decisions/215), against a real
// S3-protocol server in this process: a validation's report is written to the bucket and
// downloaded through the API, nothing is written under DATA_DIR/reports, account deletion and
// the sweep delete in the bucket, and /readyz sees the bucket.

let s3: S3Server;
let t: TestApp;
let bucket: S3Storage;
beforeAll(async () => {
  s3 = await startS3Server();
  t = await startTestApp({ env: s3.env });
  bucket = new S3Storage({
    bucket: s3.bucket,
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
  });
});
afterAll(async () => {
  bucket?.close();
  await t?.close();
  await s3?.close();
  removeTempDirs();
});

const newClient = () => clientsOf(t, 215)();

async function keysUnder(prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const { key } of bucket.list()) if (key.startsWith(`${prefix}/`)) found.push(key);
  return found.sort();
}

async function validate(client: ReturnType<typeof newClient>, content: string) {
  const form = multipartBody([
    {
      name: 'schema',
      value: JSON.stringify({
        fileType: 'csv',
        fields: [{ name: 'id', type: 'integer', required: true }],
      }),
    },
    { name: 'file', filename: 'people.csv', content },
  ]);
  const res = await client.post('/api/validate', undefined, {
    payload: form.payload,
    headers: form.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: string };
}

describe('the server on S3 storage', () => {
  it('writes the report to the bucket and downloads it through the API; nothing under DATA_DIR/reports', async () => {
    const client = newClient();
    const { id: userId } = await registerOnTier(t, client, 'business', 's3');
    const { id } = await validate(client, 'id\n1\nnot-a-number\n3\nalso-bad\n');

    expect(await keysUnder(userId)).toContain(`${userId}/${id}.csv`);
    const download = await client.get(`/api/validation-results/${id}/error-report`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toMatch(/^text\/csv/);
    expect(download.body).toContain('not-a-number');
    expect(download.body).toContain('also-bad');

    const reports = path.join(t.config.dataDir, 'reports');
    expect(existsSync(reports) ? readdirSync(reports) : []).toEqual([]);
  });

  it('the sweep cleans the bucket: reports without a row and folders of deleted users', async () => {
    const client = newClient();
    const { id: userId } = await registerOnTier(t, client, 'business', 's3sweep');
    const kept = await validate(client, 'id\nx\n');
    const orphan = userKey(userId, `${randomUUID()}.csv`);
    await bucket.put(orphan, Readable.from(['orphan']));
    const ghost = randomUUID();
    await bucket.put(userKey(ghost, 'uploads', `${randomUUID()}.upload`), Readable.from(['x']));

    // Objects cannot be aged in a bucket: the sweep runs as if later than the orphan age.
    const later = new Date(Date.now() + SWEEP_MIN_AGE_MS + 60_000);
    const counts = await sweepStorage(t.app.db, t.app.storage, later);
    expect(counts).toMatchObject({ userFolders: 1, reports: 1 });
    const left = await keysUnder(userId);
    expect(left).toContain(`${userId}/${kept.id}.csv`);
    expect(left).not.toContain(orphan);
    expect(await keysUnder(ghost)).toEqual([]);
    const download = await client.get(`/api/validation-results/${kept.id}/error-report`);
    expect(download.statusCode).toBe(200);
    expect(download.body).toContain('x');
  });

  it('account deletion removes everything of the user in the bucket', async () => {
    const client = newClient();
    const { id: userId } = await registerOnTier(t, client, 'business', 's3delete');
    const { id } = await validate(client, 'id\nx\n');
    await bucket.put(userKey(userId, 'jobs', 'left.upload'), Readable.from(['job']));
    expect(await keysUnder(userId)).toEqual(
      expect.arrayContaining([`${userId}/${id}.csv`, `${userId}/jobs/left.upload`]),
    );

    const res = await client.post('/api/delete-account', { password: STRONG_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(await keysUnder(userId)).toEqual([]);
  });

  it('/readyz sees the database and the bucket', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', checks: { database: 'ok', storage: 'ok' } });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('/readyz answers 503 naming the storage when the bucket is gone', async () => {
    const other = await startTestApp({
      env: { ...s3.env, S3_BUCKET: 'no-such-bucket' },
      db: t.db,
    });
    try {
      const res = await other.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        status: 'unavailable',
        code: 'service_unavailable',
        checks: { database: 'ok', storage: 'unavailable' },
      });
      // Liveness is the process and its database only.
      expect((await other.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('readiness on local disk', () => {
  it('/readyz is ready with DATA_DIR/reports, and not ready when the folder cannot be written', async () => {
    const local = await startTestApp({ db: t.db });
    try {
      const ready = await local.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', storage: 'ok' } });
      // A file where the reports folder should be: nothing can be stored.
      const reports = path.join(local.config.dataDir, 'reports');
      rmSync(reports, { recursive: true, force: true });
      writeFileSync(reports, 'not a folder');
      const broken = await local.app.inject({ method: 'GET', url: '/readyz' });
      expect(broken.statusCode).toBe(503);
      expect(broken.json()).toMatchObject({ checks: { database: 'ok', storage: 'unavailable' } });
    } finally {
      await local.close();
    }
  });
});

describe('S3 configuration', () => {
  const env = (extra: Record<string, string>) => ({ DATA_DIR: tempDir(), ...extra });

  it('local disk is the default; S3_BUCKET with S3_REGION turns S3 on', () => {
    expect(loadConfig(env({})).s3).toBeNull();
    expect(
      loadConfig(
        env({
          S3_BUCKET: 'reports.example',
          S3_REGION: 'auto',
          S3_ENDPOINT: 'https://acc.r2.cloudflarestorage.com/',
        }),
      ).s3,
    ).toEqual({
      bucket: 'reports.example',
      region: 'auto',
      endpoint: 'https://acc.r2.cloudflarestorage.com',
      forcePathStyle: false,
    });
  });

  it.each([
    [{ S3_REGION: 'eu-west-2' }, /^Invalid configuration: S3_REGION is set but S3_BUCKET is not/],
    [
      { S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'true' },
      /^Invalid configuration: S3_ENDPOINT, S3_FORCE_PATH_STYLE are set but S3_BUCKET is not/,
    ],
    [{ S3_BUCKET: 'reports' }, /^Invalid configuration: S3_BUCKET needs S3_REGION too/],
    [{ S3_BUCKET: 'Reports_Bucket', S3_REGION: 'eu-west-2' }, /S3_BUCKET must be a bucket name/],
    [{ S3_BUCKET: 'reports', S3_REGION: 'x', S3_ENDPOINT: 'ftp://h' }, /S3_ENDPOINT must be/],
    [{ S3_BUCKET: 'reports', S3_REGION: 'x', S3_FORCE_PATH_STYLE: 'yes' }, /S3_FORCE_PATH_STYLE/],
  ])('a half- or mis-configured S3 stops the start with one line: %o', (extra, message) => {
    let error: Error | undefined;
    try {
      loadConfig(env(extra));
    } catch (err) {
      error = err as Error;
    }
    expect(error?.name).toBe('ConfigError');
    expect(error?.message).toMatch(message);
    expect(error?.message).not.toContain('\n');
  });
});
