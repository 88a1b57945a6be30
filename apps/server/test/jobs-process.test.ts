import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/api-keys/store.ts';
import { openPostgres, type Database } from '../src/db/client.ts';
import {
  usageCounters,
  users,
  validationJobs,
  validationResults,
  webhookDeliveries,
} from '../src/db/schema.ts';
import { removeTempDirs, tempDir } from './helpers.ts';
import { peopleCsv, Receiver, SCHEMA, verified } from './jobs-support.ts';
import {
  killGroup,
  killStarted,
  startWebServer,
  startWorker,
  until,
  webServerReady,
} from './process-group.ts';

// Jobs in processes of their own, against PostgreSQL (docs/decisions/094): the web server runs
// with RUN_JOBS=false and `npm run worker` takes its jobs; a worker killed with SIGKILL in the
// middle of a job is replaced by another that finishes it: one result, one charge, one webhook.

const serverUrl = process.env.TEST_DATABASE_URL;

afterEach(killStarted);

describe.skipIf(!serverUrl)('jobs in separate worker processes (PostgreSQL)', () => {
  let dbName: string;
  let url: string;
  let database: Database;
  let dataDir: string;
  let env: Record<string, string>;
  const receiver = new Receiver();

  beforeAll(async () => {
    dbName = `schemacheck_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const u = new URL(serverUrl!);
    u.pathname = `/${dbName}`;
    url = u.toString();
    database = openPostgres(url);
    await database.migrate();
    dataDir = tempDir('sc-jobs-proc-');
    env = {
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      SESSION_SECRET: 'jobs-process-secret-jobs-process-secret-0',
      SCRYPT_LOG_N: '10',
      LOG_LEVEL: 'info',
      VALIDATION_WORKERS: '1',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOWED_ADDRESSES: '127.0.0.1',
      JOB_STALE_SECONDS: '5',
      // The 90 MiB file is one job here, taken over whole; split jobs have their own test
      // (jobs-split.test.ts).
      JOB_SPLIT_BYTES: '0',
      WEB_DIST: path.join(dataDir, 'no-web'),
    };
    await receiver.start();
  });

  afterAll(async () => {
    await receiver.stop();
    await database?.close();
    const a = new pg.Client({ connectionString: serverUrl });
    await a.connect();
    await a.query(`drop database if exists ${dbName} with (force)`);
    await a.end();
    removeTempDirs();
  });

  async function webServer() {
    const s = startWebServer('web', env);
    return { ...s, base: await webServerReady(s) };
  }

  const worker = (viaNpm: boolean) => startWorker('worker', env, viaNpm ? 'npm' : 'node');

  async function businessWithKey(name: string) {
    const [u] = await database.db
      .insert(users)
      .values({
        username: name,
        email: `${name}@example.com`,
        passwordHash: 'x',
        subscriptionTier: 'business',
      })
      .returning();
    const { key } = await createApiKey(database.db, u!.id, 'k', new Date());
    return { id: u!.id, auth: { authorization: `Bearer ${key}` } };
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

  async function postJob(base: string, auth: Record<string, string>, file: Buffer) {
    const form = new FormData();
    form.append('schema', SCHEMA);
    form.append('file', new Blob([file], { type: 'text/csv' }), 'people.csv');
    const res = await fetch(`${base}/api/v1/jobs`, { method: 'POST', headers: auth, body: form });
    expect(res.status, await res.clone().text()).toBe(202);
    return ((await res.json()) as { job_id: string }).job_id;
  }

  const jobRow = async (id: string) =>
    (await database.db.select().from(validationJobs).where(eq(validationJobs.id, id)))[0]!;

  it('npm run worker takes the jobs of a web server started with RUN_JOBS=false', async () => {
    const web = await webServer();
    const u = await businessWithKey(`wp${randomBytes(3).toString('hex')}`);
    const hook = await addWebhook(web.base, u.auth);
    const id = await postJob(web.base, u.auth, peopleCsv(200_000));
    // nobody works it yet
    await new Promise((r) => setTimeout(r, 1500));
    expect((await jobRow(id)).status).toBe('queued');

    const w = worker(true);
    await until('the worker', () => w.output().includes('SchemaCheck worker is ready'));
    await until('the job to complete', async () => (await jobRow(id)).status === 'completed');
    const [d] = await receiver.waitForJob(id);
    expect(verified(hook.secret, d!)).toMatchObject({
      event: 'job.completed',
      data: { job_id: id },
    });
    const res = await fetch(`${web.base}/api/v1/jobs/${id}`, { headers: u.auth });
    expect(await res.json()).toMatchObject({ status: 'completed', progress: 1 });
    expect(web.output()).not.toMatch(/Validation job completed/);
    expect(w.output()).toMatch(/Validation job completed/);
    killGroup(w.child, 'SIGTERM');
    killGroup(web.child, 'SIGTERM');
  }, 120_000);

  it('a worker killed with SIGKILL mid-job is replaced: one result, one charge, one webhook', async () => {
    // Large enough that a quiet machine takes about a second to check it, and the kill comes as
    // soon as the job is seen running: it must land in the middle. Built before any request: on a
    // busy machine building it takes many seconds, and a keep-alive connection left idle that
    // long is closed by the server, so the upload would be written into a closed socket (EPIPE).
    const upload = peopleCsv(90 * 1024 * 1024);
    const web = await webServer();
    const u = await businessWithKey(`wk${randomBytes(3).toString('hex')}`);
    const hook = await addWebhook(web.base, u.auth);
    const first = worker(false);
    await until('worker 1', () => first.output().includes('SchemaCheck worker is ready'));
    const id = await postJob(web.base, u.auth, upload);

    await until('the job to run', async () => (await jobRow(id)).status === 'running', 60_000, 10);
    killGroup(first.child, 'SIGKILL');
    await until('worker 1 to die', () => first.child.signalCode !== null);
    const killed = await jobRow(id);
    expect(killed.status).toBe('running'); // killed in the middle, not after
    expect(killed.uploadKey).not.toBeNull();

    const second = worker(false);
    await until(
      'the job to complete',
      async () => (await jobRow(id)).status === 'completed',
      90_000,
    );
    const done = await jobRow(id);
    expect(done.attempts).toBe(2);
    expect(done.uploadKey).toBeNull();
    expect(second.output()).toMatch(/Took over jobs whose process stopped/);

    const results = await database.db
      .select()
      .from(validationResults)
      .where(eq(validationResults.userId, u.id));
    expect(results.map((r) => r.id)).toEqual([done.resultId]);
    const [usage] = await database.db
      .select()
      .from(usageCounters)
      .where(eq(usageCounters.userId, u.id));
    expect(usage!.count).toBe(1);

    const [d] = await receiver.waitForJob(id);
    expect(verified(hook.secret, d!)).toMatchObject({
      event: 'job.completed',
      data: { job_id: id },
    });
    // no second message later either
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.deliveriesFor(id)).toHaveLength(1);
    const log = await database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.userId, u.id));
    expect(log).toHaveLength(1);
    expect(log[0]!.messageId).toBe(d!.headers['webhook-id']);
    const uploads = path.join(dataDir, 'reports', u.id, 'uploads');
    expect(
      existsSync(uploads) ? readdirSync(uploads).filter((f) => !f.includes('.tmp-')) : [],
    ).toEqual([]);
    killGroup(second.child, 'SIGTERM');
    killGroup(web.child, 'SIGTERM');
  }, 180_000);
});
