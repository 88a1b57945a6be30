import { S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketOrigins } from '../src/plugins/security.ts';
import {
  clientsOf,
  multipartBody,
  registerOnTier,
  removeTempDirs,
  startTestApp,
  type Client,
  type TestApp,
} from './helpers.ts';
import { jobsConfig, peopleCsv, SCHEMA } from './jobs-support.ts';
import { startS3Server, type S3Server } from './s3-support.ts';

// The dashboard's direct uploads (docs/decisions/236): with the session and its CSRF token, a
// file goes straight to the bucket through presigned part URLs, and its job's result is the one
// /api/validate gives for the same file. On local disk the start is refused and nothing is
// reserved, so the dashboard sends the file to /api/validate instead.

let s3: S3Server;
let onS3: TestApp;
let onDisk: TestApp;

beforeAll(async () => {
  s3 = await startS3Server();
  const options = { config: jobsConfig(), deps: { now: () => new Date() } };
  onS3 = await startTestApp({ ...options, env: { ...s3.env, RUN_JOBS: 'true' } });
  onDisk = await startTestApp({ ...options, env: { RUN_JOBS: 'true' } });
}, 60_000);

afterAll(async () => {
  await onS3?.close();
  await onDisk?.close();
  await s3?.close();
  removeTempDirs();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function businessUser(t: TestApp, prefix: string): Promise<Client> {
  const client = clientsOf(t, 236)();
  await registerOnTier(t, client, 'business', prefix);
  return client;
}

/** PUTs each part of `file` to its presigned URL with fetch, as the browser does. */
async function sendParts(created: Json, file: Buffer) {
  const parts = [];
  for (const p of created.parts as Array<{ part_number: number; url: string }>) {
    const start = (p.part_number - 1) * created.part_size;
    const res = await fetch(p.url, {
      method: 'PUT',
      body: file.subarray(start, start + created.part_size),
    });
    expect(res.status).toBe(200);
    parts.push({ part_number: p.part_number, etag: res.headers.get('etag')! });
  }
  return parts;
}

async function finished(client: Client, id: string): Promise<Json> {
  const end = Date.now() + 60_000;
  for (;;) {
    const res = await client.get(`/api/jobs/${id}`);
    expect(res.statusCode).toBe(200);
    const job = res.json();
    if (job.status === 'completed' || job.status === 'failed') return job;
    if (Date.now() > end) throw new Error(`Job still ${job.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the dashboard’s direct uploads', () => {
  it('on S3: the parts PUT to the presigned URLs and completed give the result /api/validate gives', async () => {
    const client = await businessUser(onS3, 'webdirect');
    const file = peopleCsv(9 * 1024 * 1024);

    const started = await client.post('/api/jobs/uploads', {
      filename: 'people.csv',
      size: file.length,
      schema: SCHEMA,
    });
    expect(started.statusCode, started.body).toBe(201);
    const created = started.json();
    expect(created).toMatchObject({ status: 'awaiting_upload' });
    expect(created.parts.map((p: Json) => p.part_number)).toEqual([1, 2]);
    expect((await client.get('/api/auth/usage')).json()).toMatchObject({ used: 1 });

    // The page lets the browser reach the part URLs (connect-src), on the bucket's own origin.
    const csp = (await client.get('/api/auth/usage')).headers['content-security-policy'];
    const connect = /connect-src ([^;]+)/.exec(String(csp))![1]!.split(' ');
    expect(connect).toEqual(["'self'", new URL(created.parts[0].url).origin]);

    const parts = await sendParts(created, file);
    const completed = await client.post(`/api/jobs/${created.job_id}/complete`, { parts });
    expect(completed.statusCode, completed.body).toBe(202);
    expect(completed.json()).toMatchObject({ job_id: created.job_id, status: 'queued' });
    const job = await finished(client, created.job_id);
    expect(job.status, job.error).toBe('completed');
    expect(job.file_size).toBe(file.length);
    // The dashboard's recent jobs list it too.
    const recent = (await client.get('/api/jobs')).json().data as Json[];
    expect(recent.map((j) => j.job_id)).toContain(created.job_id);

    const stored = await client.get(`/api/validation-results/${job.result.report_id}`);
    expect(stored.statusCode).toBe(200);
    const form = multipartBody([
      { name: 'schema', value: SCHEMA },
      { name: 'file', filename: 'people.csv', content: file, contentType: 'text/csv' },
    ]);
    const sync = await client.post('/api/validate', undefined, {
      payload: form.payload,
      headers: form.headers,
    });
    expect(sync.statusCode, sync.body).toBe(200);
    const { id: _a, ...direct } = stored.json();
    const { id: _b, ...validated } = sync.json();
    expect(direct).toEqual(validated);
    expect(direct.errorCount).toBeGreaterThan(0);
    const report = (id: string) => client.get(`/api/validation-results/${id}/error-report`);
    expect((await report(job.result.report_id)).body).toBe((await report(sync.json().id)).body);
    expect((await client.get('/api/auth/usage')).json()).toMatchObject({ used: 2 });
  }, 120_000);

  it('needs the CSRF token, and keeps each user to their own jobs', async () => {
    const client = await businessUser(onS3, 'webcsrf');
    const body = { filename: 'people.csv', size: 100, schema: SCHEMA };
    const forged = await client.post('/api/jobs/uploads', body, { csrf: false });
    expect(forged.statusCode).toBe(403);
    const started = await client.post('/api/jobs/uploads', body);
    expect(started.statusCode).toBe(201);
    const id = started.json().job_id;

    const other = await businessUser(onS3, 'webother');
    expect((await other.get(`/api/jobs/${id}`)).statusCode).toBe(404);
    const complete = await other.post(`/api/jobs/${id}/complete`, {
      parts: [{ part_number: 1, etag: '"x"' }],
    });
    expect(complete.statusCode).toBe(404);
    expect((await client.get(`/api/jobs/${id}`)).json().status).toBe('awaiting_upload');
  });

  it('a cancelled upload fails its job at once and gives the validation back', async () => {
    const client = await businessUser(onS3, 'webcancel');
    const file = peopleCsv(6 * 1024 * 1024);
    const started = await client.post('/api/jobs/uploads', {
      filename: 'people.csv',
      size: file.length,
      schema: SCHEMA,
    });
    expect(started.statusCode).toBe(201);
    const created = started.json();
    const parts = await sendParts(created, file);
    expect((await client.get('/api/auth/usage')).json()).toMatchObject({ used: 1 });

    const other = await businessUser(onS3, 'webcancelother');
    const foreign = await other.request({
      method: 'DELETE',
      url: `/api/jobs/${created.job_id}/upload`,
    });
    expect(foreign.statusCode).toBe(404);
    const cancel = () =>
      client.request({ method: 'DELETE', url: `/api/jobs/${created.job_id}/upload` });
    expect((await cancel()).statusCode).toBe(204);
    expect((await client.get(`/api/jobs/${created.job_id}`)).json()).toMatchObject({
      status: 'failed',
      error: 'The upload was cancelled.',
    });
    expect((await client.get('/api/auth/usage')).json()).toMatchObject({ used: 0 });
    const late = await client.post(`/api/jobs/${created.job_id}/complete`, { parts });
    expect(late.statusCode).toBe(409);
    expect((await cancel()).json().code).toBe('job_not_awaiting_upload');
  });

  it("refuses a file over the plan's limit before any part is sent", async () => {
    const client = await businessUser(onS3, 'weblarge');
    const res = await client.post('/api/jobs/uploads', {
      filename: 'people.csv',
      size: 101 * 1024 * 1024,
      schema: SCHEMA,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('file_too_large');
    expect((await client.get('/api/auth/usage')).json()).toMatchObject({ used: 0 });
  });

  it("names the bucket's origins as the AWS SDK signs them, for the page's connect-src", async () => {
    const signed = async (s3: Parameters<typeof bucketOrigins>[0] & {}) => {
      const client = new S3Client({
        region: s3.region,
        forcePathStyle: s3.forcePathStyle,
        ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
        credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
      });
      const url = await getSignedUrl(
        client,
        new UploadPartCommand({ Bucket: s3.bucket, Key: 'u/x.csv', UploadId: 'up', PartNumber: 1 }),
        { expiresIn: 60 },
      );
      client.destroy();
      return new URL(url).origin;
    };
    const configs = [
      { bucket: 'sc-files', region: 'eu-west-2', endpoint: null, forcePathStyle: false },
      { bucket: 'sc.files', region: 'eu-west-2', endpoint: null, forcePathStyle: false },
      { bucket: 'sc-files', region: 'us-east-1', endpoint: null, forcePathStyle: true },
      {
        bucket: 'sc-files',
        region: 'auto',
        endpoint: 'https://acct.r2.example',
        forcePathStyle: false,
      },
      {
        bucket: 'sc-files',
        region: 'us-east-1',
        endpoint: 'http://minio:9000',
        forcePathStyle: true,
      },
    ];
    for (const s3 of configs) expect(bucketOrigins(s3)).toContain(await signed(s3));
    expect(bucketOrigins(null)).toEqual([]);
  });

  it('on local disk: refused with direct_upload_unavailable, nothing reserved', async () => {
    const client = await businessUser(onDisk, 'webdisk');
    const res = await client.post('/api/jobs/uploads', {
      filename: 'people.csv',
      size: 9 * 1024 * 1024,
      schema: SCHEMA,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('direct_upload_unavailable');
    const usage = await client.get('/api/auth/usage');
    expect(usage.json()).toMatchObject({ used: 0 });
    expect(String(usage.headers['content-security-policy'])).toContain("connect-src 'self';");
  });
});
