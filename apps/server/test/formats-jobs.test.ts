import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { writeZip } from '../../../packages/engine/test/zip-writer.ts';
import { multipartBody, testAppForFile, type Part } from './helpers.ts';
import { businessUser, jobsConfig } from './jobs-support.ts';

// POST /v1/jobs with a workbook, a zip and a gzip (docs/decisions/163): the job opens the file
// when it runs, with the `sheet` / `entry` given when it was created, and a file the engine
// refuses fails the job with the engine's reason.

const t = testAppForFile({
  env: { RUN_JOBS: 'true', LOG_LEVEL: 'silent' },
  config: jobsConfig(),
  deps: { now: () => new Date() },
});

const FIXTURES = new URL('../../../packages/engine/test/fixtures/xlsx/', import.meta.url);
const WORKBOOK = readFileSync(new URL('cells-openpyxl.xlsx', FIXTURES));
const CASE = (
  JSON.parse(readFileSync(new URL('expected.json', FIXTURES), 'utf8')) as {
    file: string;
    schema: unknown;
  }[]
).find((c) => c.file === 'cells-openpyxl.xlsx')!;

async function postJob(auth: Record<string, string>, name: string, file: Buffer, query = '') {
  const parts: Part[] = [
    { name: 'schema', value: JSON.stringify(CASE.schema) },
    { name: 'file', filename: name, content: file },
  ];
  const form = multipartBody(parts);
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/jobs${query}`,
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

describe('POST /v1/jobs with containers', () => {
  it('validates a workbook (its second sheet on request), a zip entry and a gzip; refuses a bomb', async () => {
    const { auth } = await businessUser(t, 41, 'fmtjob');
    const run = async (name: string, file: Buffer, query = '') => {
      const created = await postJob(auth, name, file, query);
      expect(created.statusCode, created.body).toBe(202);
      return waitForJob(auth, created.json().job_id as string);
    };

    const book = await run('people.xlsx', WORKBOOK);
    expect(book.status, JSON.stringify(book)).toBe('completed');
    expect(book.result.error_count).toBeGreaterThan(0);
    const report = await t.app.inject({
      url: new URL(book.result.report_url as string).pathname,
      headers: auth,
    });
    expect(report.body).toContain('People!A3');

    const second = await run('people.xlsx', WORKBOOK, '?sheet=2');
    expect(second.status, JSON.stringify(second)).toBe('completed');
    expect(second.result.stats.rows).toBe(2);

    const csv = 'id,name\n00001,Ann\n12,Bob\n';
    const zip = writeZip([
      { name: 'a.csv', data: csv },
      { name: 'b.csv', data: csv },
    ]);
    const entry = await run('two.zip', zip, '?entry=b.csv');
    expect(entry.status, JSON.stringify(entry)).toBe('completed');
    expect(entry.result.stats.rows).toBe(2);
    const several = await run('two.zip', zip);
    expect(several).toMatchObject({ status: 'failed' });
    expect(several.error).toMatch(/entry/);

    const gz = await run('people.csv.gz', gzipSync(csv));
    expect(gz.status, JSON.stringify(gz)).toBe('completed');
    expect(gz.result.stats.rows).toBe(2);

    const bomb = await run('zeros.csv.gz', gzipSync(Buffer.alloc(32 << 20)));
    expect(bomb).toMatchObject({ status: 'failed' });
    expect(bomb.error).toMatch(/decompress/);
  });
});
