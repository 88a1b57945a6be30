import {
  PLANS,
  TEST_MODE_MAX_FILE_BYTES,
  TEST_MODE_RATE_PER_MINUTE,
  type CreatedApiKey,
} from '@schemacheck/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey, isWellFormedKey } from '../src/api-keys/store.ts';
import { monthOf } from '../src/validation/quota.ts';
import { usageCounters } from '../src/db/schema.ts';
import { expectDocumented } from './api-contract.ts';
import {
  clientsOf,
  multipartBody,
  registerOnTier,
  testAppForFile,
  type Client,
} from './helpers.ts';
import { jobsConfig, Receiver, SCHEMA, verified } from './jobs-support.ts';

// Test-mode API keys (docs/decisions/174): created beside live keys in the profile, `sc_test_…`;
// full validation, jobs and webhooks with every result marked `livemode: false`; never counted
// against the month (they work when the month is used up); files up to 1 MB; a lower request
// rate, counted in the account's window.

const t = testAppForFile({
  env: { RUN_JOBS: 'true' },
  config: jobsConfig(),
  deps: { now: () => new Date() },
});
const receiver = new Receiver();
const newClient = clientsOf(t, 231);

let browser: Client;
let userId: string;
let live: CreatedApiKey;
let test: CreatedApiKey;

beforeAll(async () => {
  await receiver.start();
  browser = newClient();
  ({ id: userId } = await registerOnTier(t, browser, 'business', 'testmode'));
  const created = await Promise.all(
    [
      { name: 'Production', mode: 'live' },
      { name: 'CI', mode: 'test' },
    ].map((body) => browser.post('/api/api-keys', body)),
  );
  for (const r of created) expect(r.statusCode).toBe(201);
  [live, test] = created.map((r) => r.json() as CreatedApiKey) as [CreatedApiKey, CreatedApiKey];
});
afterAll(async () => {
  await receiver.stop();
});

const CSV = 'id,email,score\n1,a@example.com,50\n2,not-an-email,50\n';

function post(url: string, key: string, file: string | Buffer, name = 'people.csv') {
  const body = multipartBody([
    { name: 'schema', value: SCHEMA },
    { name: 'file', filename: name, content: file, contentType: 'text/csv' },
  ]);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...body.headers, authorization: `Bearer ${key}` },
    payload: body.payload,
  });
}

async function used(): Promise<number> {
  const [row] = await t.db.database.db
    .select({ count: usageCounters.count })
    .from(usageCounters)
    .where(eq(usageCounters.userId, userId));
  return row?.count ?? 0;
}

async function waitForJob(jobId: string, key: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const r = await t.app.inject({
      method: 'GET',
      url: `/api/v1/jobs/${jobId}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expectDocumented('GET', `/api/v1/jobs/${jobId}`, r);
    const job = r.json();
    if (job.status === 'completed' || job.status === 'failed') return job;
    if (Date.now() > deadline) throw new Error(`job still ${job.status}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

describe('test-mode API keys', () => {
  it('are created beside live keys and listed with their mode', async () => {
    expect(test.key).toMatch(/^sc_test_[0-9A-Za-z]{49}$/);
    expect(test).toMatchObject({ mode: 'test', name: 'CI' });
    expect(test.keyPrefix).toBe(test.key.slice(0, 16));
    expect(live.key).toMatch(/^sc_[0-9A-Za-z]{49}$/);
    expect(live.mode).toBe('live');
    const list = (await browser.get('/api/api-keys')).json() as { name: string; mode: string }[];
    expect(list.map((k) => [k.name, k.mode]).sort()).toEqual([
      ['CI', 'test'],
      ['Production', 'live'],
    ]);
    const bad = await browser.post('/api/api-keys', { name: 'x', mode: 'sandbox' });
    expect(bad.statusCode).toBe(400);
  });

  it('have a checksum like live keys: a mistyped one is refused before any lookup', async () => {
    const key = generateApiKey('test');
    expect(isWellFormedKey(key)).toBe(true);
    expect(isWellFormedKey(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
    expect(isWellFormedKey(key.replace('sc_test_', 'sc_tset_'))).toBe(false);
    const r = await post('/api/v1/validate', key, CSV);
    expect(r.statusCode).toBe(401);
    expect(r.json()).toMatchObject({
      code: 'invalid_api_key',
      error: 'This API key does not exist.',
    });
  });

  it('validate fully, marked livemode: false, and never count against the month', async () => {
    const before = await used();
    const r = await post('/api/v1/validate', test.key, CSV);
    expect(r.statusCode).toBe(200);
    expectDocumented('POST', '/api/v1/validate', r);
    expect(r.json()).toMatchObject({ valid: false, error_count: 1, livemode: false });
    expect(r.json().sample_errors[0]).toMatchObject({ row: 3, column: 'email', code: 'type' });
    expect(await used()).toBe(before);

    const l = await post('/api/v1/validate', live.key, CSV);
    expect(l.json()).toMatchObject({ valid: false, livemode: true });
    expect(await used()).toBe(before + 1);
  });

  it('still work when the month is used up', async () => {
    const limit = PLANS.business.limits.monthlyValidations!;
    await t.db.database.db
      .insert(usageCounters)
      .values({ userId, month: monthOf(new Date()), count: limit })
      .onConflictDoUpdate({
        target: [usageCounters.userId, usageCounters.month],
        set: { count: limit },
      });
    const refused = await post('/api/v1/validate', live.key, CSV);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('monthly_limit');
    const ok = await post('/api/v1/validate', test.key, CSV);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().livemode).toBe(false);
    expect(await used()).toBe(limit);
    await t.db.database.db
      .update(usageCounters)
      .set({ count: 0 })
      .where(eq(usageCounters.userId, userId));
  });

  it('refuse files over 1 MB, saying why, on /validate and /jobs', async () => {
    const big = Buffer.alloc(TEST_MODE_MAX_FILE_BYTES + 10, 'x');
    for (const url of ['/api/v1/validate', '/api/v1/jobs']) {
      const r = await post(url, test.key, Buffer.concat([Buffer.from('id,email,score\n'), big]));
      expect(r.statusCode, url).toBe(413);
      expectDocumented('POST', url, r);
      expect(r.json()).toMatchObject({ code: 'file_too_large', limit: TEST_MODE_MAX_FILE_BYTES });
      expect(r.json().error).toContain('Test-mode API keys (sc_test_…) accept files up to 1 MB');
    }
    expect(await used()).toBe(0);
  });

  it('run jobs and send webhooks, both marked livemode: false', async () => {
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { authorization: `Bearer ${test.key}` },
      payload: { url: receiver.url },
    });
    expect(hook.statusCode).toBe(201);
    const { secret } = hook.json();

    const created = await post('/api/v1/jobs', test.key, CSV);
    expect(created.statusCode).toBe(202);
    const job = await waitForJob(created.json().job_id, test.key);
    expect(job).toMatchObject({ status: 'completed', livemode: false });
    expect(job.result).toMatchObject({ valid: false, error_count: 1 });

    const liveJob = await post('/api/v1/jobs', live.key, CSV);
    expect((await waitForJob(liveJob.json().job_id, live.key)).livemode).toBe(true);
    expect(await used()).toBe(1);

    const deliveries = await receiver.waitFor(2);
    const events = deliveries.map((d) => verified(secret, d)) as {
      livemode: boolean;
      data: { job_id: string };
    }[];
    const byJob = new Map(events.map((e) => [e.data.job_id, e.livemode]));
    expect(byJob.get(created.json().job_id)).toBe(false);
    expect(byJob.get(liveJob.json().job_id)).toBe(true);
  }, 90_000);

  it(`are limited to ${TEST_MODE_RATE_PER_MINUTE} requests a minute`, async () => {
    // A fresh account, so that no earlier request of this file counts in its window.
    const owner = newClient();
    await registerOnTier(t, owner, 'business', 'testrate');
    const key = (await owner.post('/api/api-keys', { name: 'CI', mode: 'test' })).json().key;
    const statuses: number[] = [];
    let last;
    for (let i = 0; i <= TEST_MODE_RATE_PER_MINUTE; i++) {
      last = await t.app.inject({
        method: 'GET',
        url: '/api/v1/usage',
        headers: { authorization: `Bearer ${key}` },
      });
      statuses.push(last.statusCode);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(TEST_MODE_RATE_PER_MINUTE);
    expect(last!.statusCode).toBe(429);
    expect(last!.headers['ratelimit-limit']).toBe(String(TEST_MODE_RATE_PER_MINUTE));
    expect(last!.json()).toMatchObject({ code: 'rate_limited' });
    expect(last!.json().error).toContain('test-mode key');
  });
});
