import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/api-keys/store.ts';
import { validationJobs } from '../src/db/schema.ts';
import { sweepAbandonedUploads } from '../src/jobs/direct-uploads.ts';
import { multipartBody, removeTempDirs, startTestApp, type TestApp } from './helpers.ts';
import { businessUser, jobsConfig, peopleCsv, SCHEMA } from './jobs-support.ts';
import { startS3Server, type S3Server } from './s3-support.ts';

// Jobs whose file does not pass through the web server (docs/decisions/235), with pg-boss
// working in the test process: `upload: true` against a real S3-protocol server (s3rver), the
// parts PUT to the presigned URLs with fetch and the upload completed with their ETags; the same
// request on local disk refused; `source_url` fetched from an HTTP server on 127.0.0.1, which
// the tests' outbound settings allow as they allow the webhook receivers (WEBHOOK_ALLOW_HTTP,
// WEBHOOK_ALLOWED_ADDRESSES=127.0.0.1), and every other private address refused.

let s3: S3Server;
let onS3: TestApp;
let onDisk: TestApp;
let files: http.Server;
let filesUrl = '';
const served = new Map<string, Buffer>();

beforeAll(async () => {
  s3 = await startS3Server();
  const options = {
    config: jobsConfig(),
    deps: { now: () => new Date() },
  };
  onS3 = await startTestApp({ ...options, env: { ...s3.env, RUN_JOBS: 'true' } });
  onDisk = await startTestApp({ ...options, env: { RUN_JOBS: 'true' } });
  files = http.createServer((req, res) => {
    if (req.url === '/moved') {
      res.writeHead(302, { location: 'http://10.0.0.1/people.csv' }).end();
      return;
    }
    if (req.url === '/missing.csv') {
      res.writeHead(404).end('no');
      return;
    }
    const body = served.get(req.url ?? '');
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/csv' }).end(body);
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  files?.closeAllConnections();
  await new Promise((r) => files?.close(r));
  await onS3?.close();
  await onDisk?.close();
  await s3?.close();
  removeTempDirs();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function api(
  t: TestApp,
  auth: Record<string, string>,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
) {
  return t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: auth,
    ...(body !== undefined ? { payload: body as Json } : {}),
  });
}

async function waitForJob(t: TestApp, auth: Record<string, string>, id: string): Promise<Json> {
  const end = Date.now() + 60_000;
  for (;;) {
    const res = await api(t, auth, 'GET', `/jobs/${id}`);
    expect(res.statusCode).toBe(200);
    const job = res.json();
    if (job.status === 'completed' || job.status === 'failed') return job;
    if (Date.now() > end) throw new Error(`Job still ${job.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function report(t: TestApp, auth: Record<string, string>, job: Json): Promise<string> {
  const res = await api(t, auth, 'GET', `/reports/${job.result.report_id}`);
  expect(res.statusCode).toBe(200);
  return res.body;
}

/** PUTs each part of `file` to its presigned URL (no API key), as a client would. */
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

async function testModeKey(t: TestApp, userId: string) {
  const { key } = await createApiKey(t.app.db, userId, 'test mode', new Date(), 'test');
  return { authorization: `Bearer ${key}` };
}

describe('direct uploads (upload: true) on S3 storage', () => {
  it('answers presigned parts; the parts PUT and completed make a job whose result and report match the multipart-posted job', async () => {
    const u = await businessUser(onS3, 235, 'direct');
    const file = peopleCsv(9 * 1024 * 1024);

    const created = await api(onS3, u.auth, 'POST', '/jobs', {
      upload: true,
      filename: 'people.csv',
      size: file.length,
      schema: SCHEMA,
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body.status).toBe('awaiting_upload');
    expect(body.part_size).toBeGreaterThanOrEqual(5 * 1024 * 1024);
    expect(body.parts.map((p: Json) => p.part_number)).toEqual([1, 2]);
    expect(body.complete_url).toMatch(new RegExp(`/api/v1/jobs/${body.job_id}/complete$`));
    const waiting = await api(onS3, u.auth, 'GET', `/jobs/${body.job_id}`);
    expect(waiting.json().status).toBe('awaiting_upload');

    const parts = await sendParts(body, file);
    const completed = await api(onS3, u.auth, 'POST', `/jobs/${body.job_id}/complete`, { parts });
    expect(completed.statusCode, completed.body).toBe(202);
    expect(completed.json()).toMatchObject({ job_id: body.job_id, status: 'queued' });
    const direct = await waitForJob(onS3, u.auth, body.job_id);
    expect(direct.status, direct.error).toBe('completed');
    expect(direct.file_size).toBe(file.length);

    // A second complete finds the job no longer waiting.
    const again = await api(onS3, u.auth, 'POST', `/jobs/${body.job_id}/complete`, { parts });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('job_not_awaiting_upload');

    const form = multipartBody([
      { name: 'schema', value: SCHEMA },
      { name: 'file', filename: 'people.csv', content: file, contentType: 'text/csv' },
    ]);
    const posted = await onS3.app.inject({
      method: 'POST',
      url: '/api/v1/jobs',
      headers: { ...u.auth, ...form.headers },
      payload: form.payload,
    });
    expect(posted.statusCode, posted.body).toBe(202);
    const multipart = await waitForJob(onS3, u.auth, posted.json().job_id);
    expect(multipart.status).toBe('completed');

    const { validated_in_ms: _a, ...directStats } = direct.result.stats;
    const { validated_in_ms: _b, ...multipartStats } = multipart.result.stats;
    expect(directStats).toEqual(multipartStats);
    expect(direct.result.error_count).toBe(multipart.result.error_count);
    expect(direct.result.error_count).toBeGreaterThan(0);
    expect(await report(onS3, u.auth, direct)).toBe(await report(onS3, u.auth, multipart));
  }, 120_000);

  it('refuses a file over the limit: declared at the start, or found when completing (the job fails)', async () => {
    const u = await businessUser(onS3, 235, 'direct-large');
    const testAuth = await testModeKey(onS3, u.id);

    const declared = await api(onS3, testAuth, 'POST', '/jobs', {
      upload: true,
      filename: 'people.csv',
      size: 5 * 1024 * 1024,
      schema: SCHEMA,
    });
    expect(declared.statusCode).toBe(413);
    expect(declared.json().code).toBe('file_too_large');

    const created = await api(onS3, testAuth, 'POST', '/jobs', {
      upload: true,
      filename: 'people.csv',
      size: 500_000,
      schema: SCHEMA,
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body.parts).toHaveLength(1);
    // More than declared, and more than the key's 1 MB.
    const parts = await sendParts({ ...body, part_size: 2_000_000 }, peopleCsv(2_000_000));
    const completed = await api(onS3, testAuth, 'POST', `/jobs/${body.job_id}/complete`, {
      parts,
    });
    expect(completed.statusCode).toBe(413);
    expect(completed.json().code).toBe('file_too_large');
    const job = (await api(onS3, testAuth, 'GET', `/jobs/${body.job_id}`)).json();
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/1 MB/);
  }, 60_000);

  it('an upload never completed is aborted after 24 hours and its job fails', async () => {
    const u = await businessUser(onS3, 235, 'direct-abandoned');
    const created = await api(onS3, u.auth, 'POST', '/jobs', {
      upload: true,
      filename: 'people.csv',
      size: 1000,
      schema: SCHEMA,
    });
    const body = created.json();
    await onS3.app.db
      .update(validationJobs)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(validationJobs.id, body.job_id));
    expect(await sweepAbandonedUploads(onS3.app)).toBe(1);
    const job = (await api(onS3, u.auth, 'GET', `/jobs/${body.job_id}`)).json();
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/not completed within 24 hours/);
    // Its parts can no longer be completed into a job (s3rver cannot abort a multipart upload,
    // which S3 does here; the lifecycle rule is the backstop).
    const late = await api(onS3, u.auth, 'POST', `/jobs/${body.job_id}/complete`, {
      parts: [{ part_number: 1, etag: '"x"' }],
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('job_not_awaiting_upload');
  });
});

describe('direct uploads on local disk', () => {
  it('are refused with direct_upload_unavailable', async () => {
    const u = await businessUser(onDisk, 236, 'direct-disk');
    const res = await api(onDisk, u.auth, 'POST', '/jobs', {
      upload: true,
      filename: 'people.csv',
      size: 1000,
      schema: SCHEMA,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('direct_upload_unavailable');
    expect(res.json().error).toMatch(/object storage/);
  });
});

describe('source_url jobs', () => {
  it('fetches the file and validates it like a posted one', async () => {
    const u = await businessUser(onDisk, 236, 'source');
    const file = peopleCsv(300_000);
    served.set('/data/people.csv', file);
    const res = await api(onDisk, u.auth, 'POST', '/jobs', {
      source_url: `${filesUrl}/data/people.csv`,
      schema: SCHEMA,
    });
    expect(res.statusCode, res.body).toBe(202);
    const job = await waitForJob(onDisk, u.auth, res.json().job_id);
    expect(job.status, job.error).toBe('completed');
    expect(job.file_name).toBe('people.csv');
    expect(job.file_size).toBe(file.length);
    expect(job.result.stats.rows).toBeGreaterThan(1000);
    expect(job.result.error_count).toBeGreaterThan(0);
  });

  it('fails the job with the reason: a private address, a redirect to one, an HTTP error, too large', async () => {
    const u = await businessUser(onDisk, 236, 'source-refused');
    const testAuth = await testModeKey(onDisk, u.id);
    served.set('/big.csv', peopleCsv(1_500_000));
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [u.auth, 'http://10.0.0.1/people.csv', /Refused: 10\.0\.0\.1 is a private/],
      [u.auth, `${filesUrl}/moved`, /Refused: 10\.0\.0\.1 is a private/],
      [u.auth, `${filesUrl}/missing.csv`, /HTTP 404/],
      [testAuth, `${filesUrl}/big.csv`, /larger than the file size limit of 1 MB/],
    ];
    for (const [auth, url, reason] of cases) {
      const res = await api(onDisk, auth, 'POST', '/jobs', { source_url: url, schema: SCHEMA });
      expect(res.statusCode, res.body).toBe(202);
      const job = await waitForJob(onDisk, auth, res.json().job_id);
      expect(job.status, url).toBe('failed');
      expect(job.error, url).toMatch(/^The file could not be fetched: /);
      expect(job.error, url).toMatch(reason);
    }
  });

  it('refuses a URL that is not http(s), or a body with neither upload nor source_url', async () => {
    const u = await businessUser(onDisk, 236, 'source-bad');
    const ftp = await api(onDisk, u.auth, 'POST', '/jobs', {
      source_url: 'ftp://example.com/people.csv',
      schema: SCHEMA,
    });
    expect(ftp.statusCode).toBe(400);
    expect(ftp.json().error).toMatch(/Only http and https/);
    const neither = await api(onDisk, u.auth, 'POST', '/jobs', { schema: SCHEMA });
    expect(neither.statusCode).toBe(400);
    expect(neither.json().error).toMatch(/upload: true .* or source_url/);
  });
});
