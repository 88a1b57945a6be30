import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageCounters, validationJobs, webhookDeliveries, webhooks } from '../src/db/schema.ts';
import { enqueueJob, uploadKeyFor } from '../src/jobs/validation-jobs.ts';
import { reserveValidation } from '../src/validation/quota.ts';
import { multipartBody, STRONG_PASSWORD, tempDir, testAppForFile } from './helpers.ts';
import {
  businessUser,
  deliveriesOf,
  jobsConfig,
  peopleCsv,
  Receiver,
  SCHEMA,
  verified,
} from './jobs-support.ts';

// Asynchronous jobs through /api/v1 with pg-boss working in this process (RUN_JOBS=true) and a
// real webhook receiver on 127.0.0.1 (docs/decisions/092, 093).

const t = testAppForFile({
  env: { RUN_JOBS: 'true', LOG_LEVEL: process.env.H14_LOG ?? 'silent' },
  config: jobsConfig(),
  deps: { now: () => new Date() },
});
const receiver = new Receiver();
beforeAll(async () => {
  await receiver.start();
});
afterAll(() => receiver.stop());

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * The CLI's JSON result for the file. Run asynchronously: the webhook receiver answers from this
 * process, and a blocked event loop would make the server's delivery time out and be sent again.
 */
async function cliResult(file: Buffer, name: string) {
  const dir = tempDir('sc-cli-');
  const f = path.join(dir, name);
  const s = path.join(dir, 'schema.json');
  writeFileSync(f, file);
  writeFileSync(s, SCHEMA);
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'packages/cli/bin/schemacheck.js'),
      'validate',
      f,
      '--schema',
      s,
      '--format',
      'json',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  await new Promise((resolve) => child.on('close', resolve));
  return JSON.parse(out) as {
    valid: boolean;
    totalRows: number;
    validRows: number;
    invalidRows: number;
    errorCount: number;
  };
}

async function postJob(auth: Record<string, string>, file: Buffer, name = 'people.csv') {
  const form = multipartBody([
    { name: 'schema', value: SCHEMA },
    { name: 'file', filename: name, content: file, contentType: 'text/csv' },
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/jobs',
    headers: { ...auth, ...form.headers },
    payload: form.payload,
  });
}

async function waitForJob(auth: Record<string, string>, id: string, ms = 60_000) {
  const end = Date.now() + ms;
  for (;;) {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}`, headers: auth });
    expect(res.statusCode).toBe(200);
    const job = res.json();
    if (job.status === 'completed' || job.status === 'failed') return job;
    if (Date.now() > end) throw new Error(`Job still ${job.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function addWebhook(auth: Record<string, string>, url = receiver.url) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: auth,
    payload: { url, events: ['job.completed', 'job.failed'] },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string };
}

describe('jobs', () => {
  it('a 30 MB file: 202, progress, completed, a verified job.completed webhook, the report, the CLI result', async () => {
    const u = await businessUser(t, 141, 'job30');
    const hook = await addWebhook(u.auth);
    const file = peopleCsv(30 * 1024 * 1024);

    const res = await postJob(u.auth, file);
    expect(res.statusCode, res.body).toBe(202);
    const created = res.json();
    expect(created).toEqual({
      job_id: expect.any(String),
      status: 'queued',
      estimated_seconds: expect.any(Number),
    });
    expect(created.estimated_seconds).toBeGreaterThanOrEqual(1);

    const job = await waitForJob(u.auth, created.job_id);
    const cli = await cliResult(file, 'people.csv');
    expect(job).toMatchObject({
      job_id: created.job_id,
      status: 'completed',
      progress: 1,
      file_name: 'people.csv',
      file_size: file.length,
      error: null,
      result: {
        valid: cli.valid,
        error_count: cli.errorCount,
        stats: { rows: cli.totalRows, valid_rows: cli.validRows, invalid_rows: cli.invalidRows },
      },
    });
    expect(cli.errorCount).toBeGreaterThan(0);
    expect(job.started_at).not.toBeNull();
    expect(job.completed_at).not.toBeNull();

    const [d] = await receiver.waitForJob(created.job_id);
    const payload = verified(hook.secret, d!);
    expect(payload).toEqual({
      event: 'job.completed',
      timestamp: expect.any(Number),
      livemode: true,
      data: {
        job_id: created.job_id,
        schema_id: null,
        file_name: 'people.csv',
        result: {
          total_rows: cli.totalRows,
          valid_rows: cli.validRows,
          invalid_rows: cli.invalidRows,
        },
        report_url: job.result.report_url,
      },
    });

    const reportPath = new URL(job.result.report_url).pathname;
    const report = await t.app.inject({ method: 'GET', url: reportPath, headers: u.auth });
    expect(report.statusCode).toBe(200);
    expect(report.body.trim().split('\r\n')).toHaveLength(cli.errorCount + 1);

    // charged once; the upload is gone
    const [usage] = await t.app.db
      .select()
      .from(usageCounters)
      .where(eq(usageCounters.userId, u.id));
    expect(usage!.count).toBe(1);
    const [row] = await t.app.db
      .select()
      .from(validationJobs)
      .where(eq(validationJobs.id, created.job_id));
    expect(row!.uploadKey).toBeNull();
    const uploads = path.join(t.config.dataDir, 'reports', u.id, 'uploads');
    expect(existsSync(uploads) ? readdirSync(uploads) : []).toEqual([]);
  }, 120_000);

  it('an empty file of no known type fails the job with a reason, and job.failed is delivered', async () => {
    const u = await businessUser(t, 142, 'jobfail');
    const hook = await addWebhook(u.auth);
    // An empty file is read like any other (docs/decisions/132) once its type is known; with no
    // extension and a schema that names no type, nothing says how to read it.
    const form = multipartBody([
      { name: 'schema', value: JSON.stringify({ ...JSON.parse(SCHEMA), fileType: undefined }) },
      { name: 'file', filename: 'people', content: Buffer.alloc(0) },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/jobs',
      headers: { ...u.auth, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(202);
    const job = await waitForJob(u.auth, res.json().job_id);
    expect(job).toMatchObject({ status: 'failed', result: null, error: 'The file is empty' });
    const [d] = await receiver.waitForJob(job.job_id);
    expect(verified(hook.secret, d!)).toMatchObject({
      event: 'job.failed',
      data: {
        job_id: job.job_id,
        file_name: 'people',
        result: null,
        report_url: null,
        error: 'The file is empty',
      },
    });
  });

  it('retries a webhook after a 500, logging every attempt with the same webhook-id', async () => {
    const u = await businessUser(t, 143, 'jobretry');
    const hook = await addWebhook(u.auth);
    receiver.script = [500];
    const res = await postJob(u.auth, peopleCsv(20_000));
    await waitForJob(u.auth, res.json().job_id);
    const got = await receiver.waitForJob(res.json().job_id, 2);
    expect(got[0]!.headers['webhook-id']).toBe(got[1]!.headers['webhook-id']);
    verified(hook.secret, got[1]!);
    await expect
      .poll(async () =>
        (await deliveriesOf(t, u.auth, hook.id)).map((x) => [
          x.attempt,
          x.status,
          x.response_status,
        ]),
      )
      .toEqual([
        [2, 'succeeded', 200],
        [1, 'failed', 500],
      ]);
  });

  it("a failure of ours fails the job and gives the month's validation back", async () => {
    const u = await businessUser(t, 149, 'jobours');
    const hook = await addWebhook(u.auth);
    // a queued job whose upload has gone (a disk lost between acceptance and the run)
    const reservation = await reserveValidation(t.app.db, u.id, null, new Date());
    const row = await enqueueJob(t.app, {
      id: randomUUID(),
      userId: u.id,
      schemaId: null,
      fileName: 'lost.csv',
      fileType: 'csv',
      fileSize: 10,
      uploadKey: uploadKeyFor(u.id, 'missing'),
      schema: { text: SCHEMA, value: JSON.parse(SCHEMA) },
      quotaMonth: reservation!.month,
      estimatedSeconds: 1,
    });
    const job = await waitForJob(u.auth, row.id);
    expect(job).toMatchObject({
      status: 'failed',
      error: 'The uploaded file is no longer available.',
    });
    const [usage] = await t.app.db
      .select()
      .from(usageCounters)
      .where(eq(usageCounters.userId, u.id));
    expect(usage!.count).toBe(0);
    const [d] = await receiver.waitForJob(row.id);
    expect(verified(hook.secret, d!)).toMatchObject({
      event: 'job.failed',
      data: { job_id: row.id },
    });
  });

  it('refuses private webhook URLs when saved', async () => {
    const u = await businessUser(t, 144, 'jobssrf');
    for (const url of [
      'http://10.0.0.1/x',
      'http://169.254.169.254/',
      'http://[::ffff:127.0.0.2]/',
      'http://localhost./x',
      'ftp://example.com/',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/webhooks',
        headers: u.auth,
        payload: { url, events: ['job.completed'] },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code).toBe('validation');
    }
  });

  it("another user's job and webhook are 404", async () => {
    const a = await businessUser(t, 145, 'joba');
    const b = await businessUser(t, 146, 'jobb');
    const hook = await addWebhook(a.auth);
    const res = await postJob(a.auth, peopleCsv(5_000));
    const id = res.json().job_id;
    await waitForJob(a.auth, id);
    for (const [method, url] of [
      ['GET', `/api/v1/jobs/${id}`],
      ['GET', `/api/v1/webhooks/${hook.id}/deliveries`],
      ['POST', `/api/v1/webhooks/${hook.id}/test`],
      ['DELETE', `/api/v1/webhooks/${hook.id}`],
    ] as const) {
      const r = await t.app.inject({ method, url, headers: b.auth });
      expect(r.statusCode, `${method} ${url}`).toBe(404);
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/jobs', headers: b.auth });
    expect(list.json()).toMatchObject({ data: [], total: 0 });
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/v1/jobs?status=completed',
      headers: a.auth,
    });
    expect(mine.json()).toMatchObject({ total: 1, data: [{ job_id: id }] });
  });

  it('deleting the account removes its jobs, uploads and webhooks', async () => {
    const u = await businessUser(t, 147, 'jobdel');
    await addWebhook(u.auth);
    const res = await postJob(u.auth, peopleCsv(5_000));
    await waitForJob(u.auth, res.json().job_id);
    const del = await u.client.post('/api/delete-account', { password: STRONG_PASSWORD });
    expect(del.statusCode).toBeLessThan(300);
    expect(
      await t.app.db.select().from(validationJobs).where(eq(validationJobs.userId, u.id)),
    ).toEqual([]);
    expect(await t.app.db.select().from(webhooks).where(eq(webhooks.userId, u.id))).toEqual([]);
    expect(
      await t.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.userId, u.id)),
    ).toEqual([]);
    expect(
      existsSync(path.join(t.config.dataDir, 'reports', u.id, 'uploads'))
        ? readdirSync(path.join(t.config.dataDir, 'reports', u.id, 'uploads'))
        : [],
    ).toEqual([]);
  });
});
