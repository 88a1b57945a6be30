import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  createCsvReportWriter,
  createRowSplitter,
  createValidator,
  parseSchemaText,
} from '@schemacheck/engine';
import { asc, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/api-keys/store.ts';
import { openPostgres, type Database } from '../src/db/client.ts';
import {
  usageCounters,
  users,
  validationJobParts,
  validationJobs,
  validationResults,
} from '../src/db/schema.ts';
import { outcomeKeyFor } from '../src/jobs/split-jobs.ts';
import { rowOutputKey } from '../src/reports/row-outputs.ts';
import type { Storage } from '../src/storage/index.ts';
import { LocalStorage } from '../src/storage/local.ts';
import {
  multipartBody,
  removeTempDirs,
  startTestApp,
  tempDir,
  testAppForFile,
  type TestApp,
} from './helpers.ts';
import { startS3Server, type S3Server } from './s3-support.ts';
import { businessUser, jobsConfig } from './jobs-support.ts';
import {
  killGroup,
  killStarted,
  startWebServer,
  startWorker,
  until,
  webServerReady,
  workersReady,
} from './process-group.ts';

// One big CSV file validated by several workers (docs/decisions/239): a job above
// JOB_SPLIT_BYTES is cut into parts at record boundaries, child jobs validate the parts, and
// the merge gives exactly what the same job validated in one piece gives: the result, the report
// and the valid/invalid rows, byte for byte, charged once. On PostgreSQL the file is 100 MB and a
// worker process is killed with SIGKILL in the middle of a part: that part alone runs again.

const postgres = process.env.TEST_DATABASE_URL;
const MB = 1024 * 1024;

const SCHEMA = JSON.stringify({
  name: 'Orders',
  fileType: 'csv',
  fields: [
    { name: 'id', type: 'integer', required: true, validation: { unique: true } },
    { name: 'email', type: 'email', required: true },
    { name: 'score', type: 'number', required: true, validation: { minValue: 0, maxValue: 100 } },
    { name: 'note', type: 'string', required: false },
  ],
});

/**
 * A CSV of about `bytes` bytes for SCHEMA: a bad email every 997th row (more errors than the
 * 1,000 a result keeps), an id seen 40% of the file earlier every 50,021st row (duplicates across
 * parts), and a quoted note holding a line break, a comma and a doubled quote every 613th row.
 */
function ordersCsv(bytes: number, strayQuoteRow?: number): Buffer {
  const rowsGuess = Math.ceil(bytes / 48);
  const back = Math.floor(rowsGuess * 0.4);
  const out: Buffer[] = [Buffer.from('id,email,score,note\n')];
  let size = out[0]!.length;
  let lines: string[] = [];
  for (let i = 1; size < bytes; i++) {
    const id = i % 50_021 === 0 && i > back ? i - back : i;
    const email = i % 997 === 0 ? `person${i}.example.com` : `person${i}@example.com`;
    const note =
      i === strayQuoteRow
        ? `n"${i}` // kept as it is by the reader, but it breaks the boundary scan's quote parity
        : i % 613 === 0
          ? `"first line\nsecond, ""quoted"" ${i}"`
          : `n${i % 89}`;
    const line = `${id},${email},${i % 103},${note}\n`;
    lines.push(line);
    size += line.length;
    if (lines.length === 50_000) {
      out.push(Buffer.from(lines.join('')));
      lines = [];
    }
  }
  out.push(Buffer.from(lines.join('')));
  return Buffer.concat(out);
}

async function readStored(storage: Storage, key: string): Promise<Buffer | null> {
  const s = await storage.get(key);
  if (!s) return null;
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** What a job's result is, less what differs between any two runs (ids, times). */
function comparable(job: Record<string, unknown>) {
  const result = job.result as Record<string, unknown> & { stats: Record<string, unknown> };
  return {
    status: job.status,
    file_size: job.file_size,
    rows_processed: job.rows_processed,
    result: {
      ...result,
      report_id: undefined,
      report_url: undefined,
      stats: { ...result.stats, validated_in_ms: undefined },
    },
  };
}

// On PostgreSQL a 100 MB file (10^8 bytes: the Business plan's limit is 100 MiB); PGlite in one
// process is slower, so a smaller one there. Built once, before any app starts or connection
// opens: on a busy machine it takes seconds.
const file = ordersCsv(postgres ? 100_000_000 : 12 * MB);

async function postJob(t: TestApp, auth: Record<string, string>, body: Buffer) {
  const form = multipartBody([
    { name: 'schema', value: SCHEMA },
    { name: 'file', filename: 'orders.csv', content: body, contentType: 'text/csv' },
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/jobs',
    headers: { ...auth, ...form.headers },
    payload: form.payload,
  });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().job_id as string;
}

async function finished(t: TestApp, auth: Record<string, string>, id: string) {
  const end = Date.now() + 300_000;
  for (;;) {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}`, headers: auth });
    const job = res.json();
    if (job.status === 'completed' || job.status === 'failed') return job;
    if (Date.now() > end) throw new Error(`Job still ${job.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function outputs(
  t: TestApp,
  auth: Record<string, string>,
  userId: string,
  job: { result: { report_id: string } },
) {
  const id = job.result.report_id;
  const csv = await t.app.inject({ method: 'GET', url: `/api/v1/reports/${id}`, headers: auth });
  const json = await t.app.inject({
    method: 'GET',
    url: `/api/v1/reports/${id}?format=json`,
    headers: auth,
  });
  expect(csv.statusCode).toBe(200);
  expect(json.statusCode).toBe(200);
  const report = JSON.parse(json.body) as Record<string, unknown>;
  return {
    csv: csv.rawPayload,
    json: { ...report, id: undefined, report_id: undefined, created_at: undefined },
    valid: await readStored(t.app.storage, rowOutputKey(userId, id, 'valid')),
    invalid: await readStored(t.app.storage, rowOutputKey(userId, id, 'invalid')),
  };
}

/**
 * Posts `body` as a job split in 4 (JOB_SPLIT_BYTES at a quarter of it), then again with
 * splitting off, and compares everything a user gets back.
 */
async function splitMatchesWhole(t: TestApp, body: Buffer, net: number, prefix: string) {
  t.app.config.jobSplitBytes = Math.ceil(body.length / 4);
  const u = await businessUser(t, net, prefix);
  const splitId = await postJob(t, u.auth, body);
  const split = await finished(t, u.auth, splitId);
  expect(split.status, split.error).toBe('completed');
  const [row] = await t.app.db.select().from(validationJobs).where(eq(validationJobs.id, splitId));
  expect(row!.splitParts).toBe(4);
  expect(row!.partsDone).toBe(4);
  // The parts' rows and outcomes are gone with the job's end, and so is the upload.
  expect(
    await t.app.db.select().from(validationJobParts).where(eq(validationJobParts.jobId, splitId)),
  ).toEqual([]);
  // The outcomes are deleted just after the job completes.
  for (
    let tries = 0;
    (await readStored(t.app.storage, outcomeKeyFor(u.id, splitId, 0))) !== null;
    tries++
  ) {
    expect(tries).toBeLessThan(100);
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(row!.uploadKey).toBeNull();

  t.app.config.jobSplitBytes = null;
  const wholeId = await postJob(t, u.auth, body);
  const whole = await finished(t, u.auth, wholeId);
  expect(whole.status, whole.error).toBe('completed');
  const [wholeRow] = await t.app.db
    .select()
    .from(validationJobs)
    .where(eq(validationJobs.id, wholeId));
  expect(wholeRow!.splitParts).toBeNull();

  expect(comparable(split)).toEqual(comparable(whole));
  expect(split.result.error_count).toBeGreaterThan(1000);
  const a = await outputs(t, u.auth, u.id, split);
  const b = await outputs(t, u.auth, u.id, whole);
  expect(a.csv.equals(b.csv)).toBe(true);
  expect(a.json).toEqual(b.json);
  expect(a.valid!.equals(b.valid!)).toBe(true);
  expect(a.invalid!.equals(b.invalid!)).toBe(true);
  // Duplicates across parts name the row where the id was first seen.
  expect(b.csv.toString()).toMatch(/,unique,/);

  const [usage] = await t.app.db.select().from(usageCounters).where(eq(usageCounters.userId, u.id));
  expect(usage!.count).toBe(2);
  const results = await t.app.db
    .select()
    .from(validationResults)
    .where(eq(validationResults.userId, u.id));
  expect(results).toHaveLength(2);
}

const appEnv = {
  RUN_JOBS: 'true',
  LOG_LEVEL: process.env.H14_LOG ?? 'silent',
  VALIDATION_WORKERS: '2',
};

describe('split jobs in this process', () => {
  const t = testAppForFile({
    env: appEnv,
    config: jobsConfig(),
    deps: { now: () => new Date() },
  });

  it('4 parts on 2 workers give, byte for byte, what one piece gives, charged once each', async () => {
    await splitMatchesWhole(t, file, 151, 'split');
  }, 600_000);

  it('a stray quote past the middle: the rest of the file is read in one piece, same result', async () => {
    // 4 MiB: 1 MiB chunks, one per part; the quote in a row past the middle.
    const body = ordersCsv(4 * MB, Math.round(((4 * MB) / 48) * 0.6));
    await splitMatchesWhole(t, body, 153, 'splitq');
  }, 300_000);
});

describe('split jobs on an S3 bucket', () => {
  // The plan's scan, the parts and the merge read the upload with Range GETs.
  const small = ordersCsv(6 * MB);
  let s3: S3Server;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3Server();
    t = await startTestApp({
      env: { ...appEnv, ...s3.env },
      config: jobsConfig(),
      deps: { now: () => new Date() },
    });
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('4 parts give, byte for byte, what one piece gives', async () => {
    await splitMatchesWhole(t, small, 152, 'splits3');
  }, 300_000);
});

// Worker processes on PostgreSQL, as in jobs-process.test.ts.
afterEach(killStarted);

/** The report, the valid and the invalid rows as the engine writes them reading in one piece. */
function expectedOf(file: Buffer) {
  const parsed = parseSchemaText(SCHEMA);
  if (!parsed.ok) throw new Error('schema');
  let report = '';
  const valid: Uint8Array[] = [];
  const invalid: Uint8Array[] = [];
  const writer = createCsvReportWriter((text) => (report += text), { withPath: false });
  const splitter = createRowSplitter(
    { valid: (bytes) => valid.push(bytes), invalid: (bytes) => invalid.push(bytes) },
    { fileType: 'csv' },
  );
  const validator = createValidator(parsed.value, {
    fileType: 'csv',
    maxErrors: 1000,
    onIssue: (issue) => {
      writer.add(issue);
      splitter.issue(issue);
    },
  });
  for (let at = 0; at < file.length; at += 4 * MB) {
    const piece = file.subarray(at, at + 4 * MB);
    validator.push(piece);
    splitter.push(piece);
  }
  const result = validator.end();
  splitter.end();
  const text = (pieces: Uint8Array[]) => Buffer.concat(pieces).toString('utf8');
  return { result, report, valid: text(valid), invalid: text(invalid) };
}

describe.skipIf(!postgres)('split jobs on worker processes (PostgreSQL)', () => {
  let dbName: string;
  let database: Database;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dbName = `schemacheck_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgres });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const u = new URL(postgres!);
    u.pathname = `/${dbName}`;
    database = openPostgres(u.toString());
    await database.migrate();
    dataDir = tempDir('sc-split-proc-');
    env = {
      DATABASE_URL: u.toString(),
      DATA_DIR: dataDir,
      SESSION_SECRET: 'split-jobs-secret-split-jobs-secret-0000',
      SCRYPT_LOG_N: '10',
      LOG_LEVEL: 'info',
      VALIDATION_WORKERS: '1',
      JOB_STALE_SECONDS: '5',
      WEB_DIST: path.join(dataDir, 'no-web'),
    };
  });

  afterAll(async () => {
    await database?.close();
    const a = new pg.Client({ connectionString: postgres });
    await a.connect();
    await a.query(`drop database if exists ${dbName} with (force)`);
    await a.end();
    removeTempDirs();
  });

  it('a worker killed with SIGKILL mid-part: that part runs again, nothing is lost, one charge', async () => {
    const expected = expectedOf(file);
    env.JOB_SPLIT_BYTES = String(Math.ceil(file.length / 4));
    const web = startWebServer('web', env);
    const base = await webServerReady(web);
    const [user] = await database.db
      .insert(users)
      .values({
        username: `split${randomBytes(3).toString('hex')}`,
        email: `split${randomBytes(3).toString('hex')}@example.com`,
        passwordHash: 'x',
        subscriptionTier: 'business',
      })
      .returning();
    const { key } = await createApiKey(database.db, user!.id, 'k', new Date());
    const auth = { authorization: `Bearer ${key}` };
    const first = startWorker('first', env);
    const second = startWorker('second', env);
    await workersReady([first, second]);

    const form = new FormData();
    form.append('schema', SCHEMA);
    form.append('file', new Blob([file], { type: 'text/csv' }), 'orders.csv');
    const res = await fetch(`${base}/api/v1/jobs`, { method: 'POST', headers: auth, body: form });
    expect(res.status, await res.clone().text()).toBe(202);
    const id = ((await res.json()) as { job_id: string }).job_id;

    // The first part the first worker starts: killed while it runs.
    const part = await until(
      'a part on the first worker',
      () => /"part":(\d+)[^\n]*Validation part started/.exec(first.output())?.[1],
      120_000,
      10,
    );
    killGroup(first.child, 'SIGKILL');
    await until('worker 1 to die', () => first.child.signalCode !== null);
    const parts = () =>
      database.db
        .select()
        .from(validationJobParts)
        .where(eq(validationJobParts.jobId, id))
        .orderBy(asc(validationJobParts.part));
    const killed = (await parts()).find((p) => p.part === Number(part))!;
    expect(killed.status).toBe('running'); // killed in the middle, not after

    const job = await until(
      'the job to end',
      async () => {
        const [r] = await database.db
          .select()
          .from(validationJobs)
          .where(eq(validationJobs.id, id));
        return r!.status === 'completed' || r!.status === 'failed' ? r : null;
      },
      300_000,
      200,
    );
    expect(job.status, job.errorMessage ?? '').toBe('completed');
    expect(job.splitParts).toBe(4);
    expect(second.output()).toMatch(/Took over job parts whose process stopped/);
    // Only the killed part ran twice; the others once (the log of each start says which).
    const starts = `${first.output()}${second.output()}`.match(
      /"part":\d+[^\n]*Validation part started/g,
    )!;
    const counts = new Map<string, number>();
    for (const s of starts) {
      const p = /"part":(\d+)/.exec(s)![1]!;
      counts.set(p, (counts.get(p) ?? 0) + 1);
    }
    expect(Object.fromEntries(counts)).toEqual(
      Object.fromEntries(['0', '1', '2', '3'].map((p) => [p, p === part ? 2 : 1])),
    );

    const results = await database.db
      .select()
      .from(validationResults)
      .where(eq(validationResults.userId, user!.id));
    expect(results.map((r) => r.id)).toEqual([job.resultId]);
    expect(results[0]!.totalRows).toBe(expected.result.totalRows);
    expect(results[0]!.invalidRows).toBe(expected.result.invalidRows);
    expect(results[0]!.errorCount).toBe(expected.result.errorCount);
    const [usage] = await database.db
      .select()
      .from(usageCounters)
      .where(eq(usageCounters.userId, user!.id));
    expect(usage!.count).toBe(1);

    const storage = new LocalStorage(path.join(dataDir, 'reports'));
    const report = await fetch(`${base}/api/v1/reports/${job.resultId}`, { headers: auth });
    expect(Buffer.from(await report.arrayBuffer()).toString()).toBe(expected.report);
    expect(
      (await readStored(storage, rowOutputKey(user!.id, job.resultId!, 'valid')))!.toString(),
    ).toBe(expected.valid);
    expect(
      (await readStored(storage, rowOutputKey(user!.id, job.resultId!, 'invalid')))!.toString(),
    ).toBe(expected.invalid);
    expect(await parts()).toEqual([]);
    killGroup(second.child, 'SIGTERM');
    killGroup(web.child, 'SIGTERM');
  }, 600_000);
});
