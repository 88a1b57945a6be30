import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/api-keys/store.ts';
import { openPostgres, type Database } from '../src/db/client.ts';
import {
  usageCounters,
  users,
  validationJobs,
  validationResults,
  webhookDeliveries,
} from '../src/db/schema.ts';
import { monthOf } from '../src/validation/quota.ts';
import { removeTempDirs, tempDir } from './helpers.ts';
import { peopleCsv, Receiver, SCHEMA, verified } from './jobs-support.ts';
import {
  gone,
  killGroup,
  killStarted,
  startedProcesses,
  startWebServer,
  startWorker,
  until,
  webServerReady,
  workersReady,
  type GroupProcess,
} from './process-group.ts';
import { startS3Server, type S3Server } from './s3-support.ts';

// The production topology of docs/deploy.md in one test (issue 25): two web servers
// (RUN_JOBS=false) and two `npm run worker` processes on one PostgreSQL database and one bucket
// (s3rver, in this process), each process with a DATA_DIR of its own. Whatever a user does on
// one server holds on the other: reports, jobs, webhooks, the month's quota, the API rate limit;
// a worker killed mid-job loses nothing; and no process writes a file under its DATA_DIR.

const serverUrl = process.env.TEST_DATABASE_URL;

/** Everything (files and folders) under `dir`, relative to it. */
function entriesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).map((e) =>
    path.relative(dir, path.join(e.parentPath, e.name)),
  );
}

describe.skipIf(!serverUrl)('many web servers and workers on PostgreSQL and S3', () => {
  let dbName: string;
  let database: Database;
  let s3: S3Server;
  const receiver = new Receiver();
  let a: GroupProcess & { base: string };
  let b: GroupProcess & { base: string };
  let workers: GroupProcess[];

  beforeAll(async () => {
    dbName = `schemacheck_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const u = new URL(serverUrl!);
    u.pathname = `/${dbName}`;
    const url = u.toString();
    database = openPostgres(url);
    await database.migrate();
    // Also puts the bucket's credentials in this process's environment, which the children take.
    s3 = await startS3Server();
    await receiver.start();

    const env = (name: string): Record<string, string> => ({
      ...s3.env,
      DATABASE_URL: url,
      DATA_DIR: tempDir(`sc-many-${name}-`),
      SESSION_SECRET: 'many-servers-secret-many-servers-secret-0',
      SCRYPT_LOG_N: '10',
      LOG_LEVEL: 'info',
      VALIDATION_WORKERS: '1',
      // The tests' receiver listens on 127.0.0.1 over http, which the outbound guard refuses
      // unless allowed.
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOWED_ADDRESSES: '127.0.0.1',
      JOB_STALE_SECONDS: '5',
    });
    const web = (name: string) => {
      const e = env(name);
      return startWebServer(name, { ...e, WEB_DIST: path.join(e.DATA_DIR!, 'no-web') });
    };
    const [startedA, startedB] = [web('a'), web('b')];
    workers = ['w1', 'w2'].map((name) => startWorker(name, env(name), 'npm'));
    const [baseA, baseB] = await Promise.all([webServerReady(startedA), webServerReady(startedB)]);
    a = Object.assign(startedA, { base: baseA });
    b = Object.assign(startedB, { base: baseB });
    await workersReady(workers, 150_000);
  }, 200_000);

  afterAll(async () => {
    killStarted();
    await receiver.stop();
    await s3?.close();
    await database?.close();
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    removeTempDirs();
  });

  async function businessWithKey(prefix: string) {
    const [u] = await database.db
      .insert(users)
      .values({
        username: `${prefix}${randomBytes(3).toString('hex')}`,
        email: `${prefix}${randomBytes(3).toString('hex')}@example.com`,
        passwordHash: 'x',
        subscriptionTier: 'business',
      })
      .returning();
    const { key } = await createApiKey(database.db, u!.id, 'k', new Date());
    return { id: u!.id, auth: { authorization: `Bearer ${key}` } };
  }

  function form(file: Buffer): FormData {
    const f = new FormData();
    f.append('schema', SCHEMA);
    f.append('file', new Blob([file], { type: 'text/csv' }), 'people.csv');
    return f;
  }

  async function postJob(base: string, auth: Record<string, string>, file: Buffer) {
    const res = await fetch(`${base}/api/v1/jobs`, {
      method: 'POST',
      headers: auth,
      body: form(file),
    });
    expect(res.status, await res.clone().text()).toBe(202);
    return ((await res.json()) as { job_id: string }).job_id;
  }

  async function addWebhook(base: string, auth: Record<string, string>) {
    const res = await fetch(`${base}/api/v1/webhooks`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['job.completed', 'job.failed'] }),
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string; secret: string };
  }

  const jobRow = async (id: string) =>
    (await database.db.select().from(validationJobs).where(eq(validationJobs.id, id)))[0]!;

  /** Waits until the job's one delivery row has succeeded: no attempt of it is left to run. */
  async function deliveredOnce(userId: string, jobId: string, secret: string) {
    const rows = await until('the webhook to succeed', async () => {
      const r = await database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.userId, userId));
      return r.length > 0 && r.every((d) => d.status === 'succeeded') ? r : null;
    });
    expect(rows).toHaveLength(1);
    const got = receiver.deliveriesFor(jobId);
    expect(got).toHaveLength(1);
    expect(got[0]!.headers['webhook-id']).toBe(rows[0]!.messageId);
    expect(verified(secret, got[0]!)).toMatchObject({
      event: 'job.completed',
      data: { job_id: jobId },
    });
  }

  it('a file validated on server A has its report downloaded from server B', async () => {
    const u = await businessWithKey('ab');
    const res = await fetch(`${a.base}/api/v1/validate`, {
      method: 'POST',
      headers: u.auth,
      body: form(peopleCsv(200_000)),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const result = (await res.json()) as { report_id: string; error_count: number };
    expect(result.error_count).toBeGreaterThan(0);

    const fromA = await fetch(`${a.base}/api/v1/reports/${result.report_id}`, {
      headers: u.auth,
    });
    const fromB = await fetch(`${b.base}/api/v1/reports/${result.report_id}`, {
      headers: u.auth,
    });
    expect(fromB.status).toBe(200);
    const report = await fromB.text();
    // A header and one line per error.
    expect(report.trim().split('\r\n')).toHaveLength(result.error_count + 1);
    expect(report).toBe(await fromA.text());
    const invalid = await fetch(`${b.base}/api/v1/reports/${result.report_id}/invalid`, {
      headers: u.auth,
    });
    expect(invalid.status).toBe(200);
    expect((await invalid.text()).trim().split('\r\n')).toHaveLength(result.error_count + 1);
  });

  it("the month's quota and the API rate limit are the account's on every server", async () => {
    const quota = await businessWithKey('quota');
    const limit = 50_000; // Business
    await database.db
      .insert(usageCounters)
      .values({ userId: quota.id, month: monthOf(new Date()), count: limit - 2 });
    const validate = (base: string) =>
      fetch(`${base}/api/v1/validate`, {
        method: 'POST',
        headers: quota.auth,
        body: form(peopleCsv(2_000)),
      });
    const answers: [number, string | undefined][] = [];
    for (const base of [a.base, b.base, a.base, b.base]) {
      const r = await validate(base);
      answers.push([r.status, ((await r.json()) as { code?: string }).code]);
    }
    expect(answers).toEqual([
      [200, undefined],
      [200, undefined],
      [429, 'monthly_limit'],
      [429, 'monthly_limit'],
    ]);
    const usage = await fetch(`${a.base}/api/v1/usage`, { headers: quota.auth });
    expect(await usage.json()).toMatchObject({ validations: { used: limit, limit } });

    const limited = await businessWithKey('rate');
    await database.db
      .update(users)
      .set({ apiRateLimitPerMinute: 4 })
      .where(eq(users.id, limited.id));
    const seen: [number, string | null][] = [];
    for (const base of [a.base, b.base, a.base, b.base, a.base, b.base]) {
      const r = await fetch(`${base}/api/v1/usage`, { headers: limited.auth });
      seen.push([r.status, r.headers.get('ratelimit-remaining')]);
    }
    expect(seen).toEqual([
      [200, '3'],
      [200, '2'],
      [200, '1'],
      [200, '0'],
      [429, '0'],
      [429, '0'],
    ]);
  });

  it('a job posted on A is worked by a worker and its webhook delivered once', async () => {
    const u = await businessWithKey('job');
    const hook = await addWebhook(b.base, u.auth);
    const id = await postJob(a.base, u.auth, peopleCsv(300_000));
    await until('the job to complete', async () => (await jobRow(id)).status === 'completed');
    const status = await fetch(`${b.base}/api/v1/jobs/${id}`, { headers: u.auth });
    expect(await status.json()).toMatchObject({ status: 'completed', progress: 1 });
    for (const web of [a, b]) expect(web.output()).not.toMatch(/Validation job started/);
    const ran = workers.filter((w) => w.output().includes(`"jobId":"${id}"`));
    expect(ran).toHaveLength(1);
    await deliveredOnce(u.id, id, hook.secret);
  });

  it('a worker killed with SIGKILL mid-job hands the job to the other', async () => {
    // Large enough that the job runs for seconds; built before any request (see jobs-process).
    const upload = peopleCsv(40 * 1024 * 1024);
    const u = await businessWithKey('kill');
    const hook = await addWebhook(a.base, u.auth);
    const id = await postJob(a.base, u.auth, upload);

    const holder = await until(
      'a worker to start the job',
      () =>
        workers.find((w) =>
          w.output().includes(`"jobId":"${id}","attempt":1,"msg":"Validation job started"`),
        ),
      60_000,
      10,
    );
    killGroup(holder.child, 'SIGKILL');
    await until('the worker to die', () => gone(holder.child));
    const killed = await jobRow(id);
    expect(killed.status).toBe('running'); // killed in the middle, not after

    const other = workers.find((w) => w !== holder)!;
    await until(
      'the job to complete',
      async () => (await jobRow(id)).status === 'completed',
      90_000,
    );
    const done = await jobRow(id);
    expect(done.attempts).toBe(2);
    expect(done.uploadKey).toBeNull();
    expect(other.output()).toMatch(/Took over jobs whose process stopped/);
    expect(other.output()).toContain(`"jobId":"${id}","attempt":2,"msg":"Validation job started"`);

    const results = await database.db
      .select()
      .from(validationResults)
      .where(eq(validationResults.userId, u.id));
    expect(results.map((r) => r.id)).toEqual([done.resultId]);
    const [usage] = await database.db
      .select()
      .from(usageCounters)
      .where(and(eq(usageCounters.userId, u.id), eq(usageCounters.month, monthOf(new Date()))));
    expect(usage!.count).toBe(1);
    await deliveredOnce(u.id, id, hook.secret);
    const report = await fetch(`${b.base}/api/v1/reports/${done.resultId}`, { headers: u.auth });
    expect(report.status).toBe(200);
  }, 180_000);

  it('no process wrote anything under its DATA_DIR', () => {
    // The configuration creates each DATA_DIR; with DATABASE_URL, S3_BUCKET, SESSION_SECRET and no
    // mail sent, nothing is put in it, not even a folder: no database, lock, secret, report,
    // upload, spool or outbox.
    const procs = startedProcesses();
    expect(procs).toHaveLength(4);
    for (const p of procs)
      expect({ [p.name]: entriesUnder(p.env.DATA_DIR!) }).toEqual({ [p.name]: [] });
  });
});
