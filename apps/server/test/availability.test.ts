import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, usageCounters, users, webhookDeliveries, webhooks } from '../src/db/schema.ts';
import { createWebhook } from '../src/webhooks/service.ts';
import { clientsOf, multipartBody, registerOnTier, testAppForFile } from './helpers.ts';
import { businessUser, deliveriesOf, jobsConfig, SCHEMA } from './jobs-support.ts';

// One tenant must never stop another (issue 20 §1; docs/decisions/120-123): what a webhook
// receiver answers cannot stop the process, one account's slow endpoint cannot hold the delivery
// slots, the API limit and the key and webhook caps are the account's and hold under
// concurrency, a receiver's Retry-After cannot push retries out of existence, and Redeliver sends
// now. pg-boss works in this process (RUN_JOBS=true) against real receivers on 127.0.0.1, with
// the production attempt timeout (15 s) so that a slow endpoint is as slow as in production.

const RETRY_DELAYS = [300, 60_000, 60_000];
const t = testAppForFile({
  env: { RUN_JOBS: 'true', LOG_LEVEL: process.env.H14_LOG ?? 'silent' },
  config: jobsConfig({
    webhooks: {
      allowHttp: true,
      allowedAddresses: ['127.0.0.1'],
      timeoutMs: 15_000,
      retryDelaysMs: RETRY_DELAYS,
      disableAfterMs: 5 * 24 * 60 * 60 * 1000,
    },
  }),
  deps: { now: () => new Date() },
});

// "The process stays up": a rejection nobody handles ends a Node process (pg-boss writes a
// failed handler's error without awaiting it). Here every such rejection is recorded instead.
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});

interface Answer {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Milliseconds before answering. */
  delayMs?: number;
}

/** A webhook receiver on 127.0.0.1 that answers from a script and lets a test await arrivals. */
class Endpoint {
  readonly arrivals: { at: number; body: string }[] = [];
  script: Answer[] = [];
  url = '';
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.arrivals.push({ at: Date.now(), body: Buffer.concat(chunks).toString('utf8') });
      for (const w of this.waiters.splice(0)) w();
      const a = this.script.shift() ?? this.fallback;
      const answer = () => {
        if (!res.writable) return;
        res.writeHead(a.status ?? 200, { 'content-type': 'text/plain', ...a.headers });
        res.end(a.body ?? 'ok');
      };
      if (a.delayMs) setTimeout(answer, a.delayMs).unref();
      else answer();
    });
  });
  private waiters: (() => void)[] = [];

  constructor(private readonly fallback: Answer = {}) {}

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  /** Resolves when `n` requests have arrived; rejects after `ms`. */
  async arrived(n: number, ms = 10_000): Promise<{ at: number; body: string }[]> {
    const end = Date.now() + ms;
    while (this.arrivals.length < n) {
      const left = end - Date.now();
      if (left <= 0) throw new Error(`${this.arrivals.length} of ${n} requests arrived`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.arrivals;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

const endpoints: Endpoint[] = [];
async function endpoint(fallback?: Answer): Promise<Endpoint> {
  const e = await new Endpoint(fallback).start();
  endpoints.push(e);
  return e;
}
afterEach(async () => {
  for (const e of endpoints.splice(0)) await e.stop();
});

async function api(
  auth: Record<string, string>,
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
) {
  return t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: auth,
    ...(payload ? { payload } : {}),
  });
}

async function addWebhook(auth: Record<string, string>, url: string) {
  const res = await api(auth, 'POST', '/webhooks', { url, events: ['job.completed'] });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

function deliveryRows(webhookId: string) {
  return t.app.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, webhookId))
    .orderBy(webhookDeliveries.attempt);
}

async function postJob(auth: Record<string, string>, schema: string, csv: string) {
  const form = multipartBody([
    { name: 'schema', value: schema },
    { name: 'file', filename: 'data.csv', content: csv, contentType: 'text/csv' },
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/jobs',
    headers: { ...auth, ...form.headers },
    payload: form.payload,
  });
}

async function jobWhenEnded(auth: Record<string, string>, id: string) {
  let job: { status: string; completed_at: string | null; result: { valid: boolean } | null };
  await expect
    .poll(
      async () => {
        job = (await api(auth, 'GET', `/jobs/${id}`)).json();
        return job.status;
      },
      { timeout: 20_000, interval: 50 },
    )
    .toMatch(/^(completed|failed)$/);
  return job!;
}

describe('what comes from outside is stored, and a job handler never ends the process', () => {
  it('a receiver answering with U+0000 is recorded (failed, then delivered) and the process stays up', async () => {
    const u = await businessUser(t, 201, 'nul');
    const receiver = await endpoint();
    receiver.script = [
      { status: 500, body: 'ok\0' },
      { status: 200, body: 'ok\0\ud800' },
    ];
    const hook = await addWebhook(u.auth, receiver.url);
    const test = await api(u.auth, 'POST', `/webhooks/${hook.id}/test`);
    expect(test.statusCode, test.body).toBe(202);
    await receiver.arrived(2);
    await expect
      .poll(async () => (await deliveriesOf(t, u.auth, hook.id)).map((d) => [d.attempt, d.status]))
      .toEqual([
        [2, 'succeeded'],
        [1, 'failed'],
      ]);
    const [first, second] = await deliveryRows(hook.id);
    expect(first).toMatchObject({ status: 'failed', responseStatus: 500, error: 'HTTP 500' });
    expect(first!.responseExcerpt).toBe('ok\ufffd');
    expect(second!.responseExcerpt).toBe('ok\ufffd\ufffd');
    // Still serving, and nothing was left unhandled.
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect(unhandled).toEqual([]);
  });

  it('a job keeps a schema holding U+0000 exactly and runs with it', async () => {
    const u = await businessUser(t, 202, 'nulschema');
    const schema = JSON.stringify({
      name: 'Codes',
      fileType: 'csv',
      fields: [
        { name: 'code', type: 'enum', required: true, validation: { values: ['x\0y', 'z'] } },
      ],
    });
    const res = await postJob(u.auth, schema, 'code\r\nx\0y\r\nz\r\n');
    expect(res.statusCode, res.body).toBe(202);
    const job = await jobWhenEnded(u.auth, res.json().job_id);
    expect(job.status).toBe('completed');
    // With U+FFFD in place of U+0000 the first row would break the enum.
    expect(job.result!.valid).toBe(true);
    expect(unhandled).toEqual([]);
  });

  it('an idempotent answer quoting U+0000 or a lone surrogate is stored and replayed exactly, and counted once', async () => {
    const u = await businessUser(t, 203, 'nulidem');
    // U+0000 arrives in a CSV cell; a lone surrogate only as a JSON escape (UTF-8 cannot carry it).
    const cases = [
      {
        key: 'nul-1',
        schema: SCHEMA,
        name: 'people.csv',
        file: 'id,email,score\r\n1,a\0b@x.org,5\r\n',
      },
      {
        key: 'surrogate-1',
        schema: SCHEMA.replace('"csv"', '"json"'),
        name: 'people.json',
        file: '[{"id":1,"email":"c\\ud800@x.org","score":5}]',
      },
    ];
    for (const c of cases) {
      const send = () => {
        const form = multipartBody([
          { name: 'schema', value: c.schema },
          { name: 'file', filename: c.name, content: c.file },
        ]);
        return t.app.inject({
          method: 'POST',
          url: '/api/v1/validate',
          headers: { ...u.auth, ...form.headers, 'idempotency-key': c.key },
          payload: form.payload,
        });
      };
      const first = await send();
      expect(first.statusCode, first.body).toBe(200);
      expect(first.body).toMatch(/\\u0000|\\ud800/);
      const again = await send();
      expect(again.statusCode, again.body).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toBe(first.body);
    }
    const [usage] = await t.app.db
      .select()
      .from(usageCounters)
      .where(eq(usageCounters.userId, u.id));
    expect(usage!.count).toBe(2);
  });
});

describe('retries', () => {
  it("a receiver's huge Retry-After is clamped to the schedule's longest step", async () => {
    const u = await businessUser(t, 204, 'retryafter');
    const receiver = await endpoint();
    receiver.script = [{ status: 503, headers: { 'retry-after': '99999999999' } }];
    const hook = await addWebhook(u.auth, receiver.url);
    const before = Date.now();
    await api(u.auth, 'POST', `/webhooks/${hook.id}/test`);
    await expect.poll(async () => (await deliveryRows(hook.id)).length).toBe(2);
    const [, next] = await deliveryRows(hook.id);
    expect(next!.status).toBe('pending');
    // The schedule's step here is 300 ms; the receiver asked for 3,000 years; 60 s is the longest.
    const waits = next!.nextAttemptAt!.getTime() - before;
    expect(waits).toBeGreaterThan(50_000);
    expect(waits).toBeLessThan(Math.max(...RETRY_DELAYS) + 10_000);
  });

  it('Redeliver sends a pending retry now, and the log says when it went', async () => {
    const u = await businessUser(t, 205, 'redeliver');
    const receiver = await endpoint();
    // Attempt 1 fails, attempt 2 (300 ms later) fails, attempt 3 is due in a minute.
    receiver.script = [{ status: 500 }, { status: 500 }];
    const hook = await addWebhook(u.auth, receiver.url);
    await api(u.auth, 'POST', `/webhooks/${hook.id}/test`);
    await receiver.arrived(2);
    await expect.poll(async () => (await deliveryRows(hook.id)).length).toBe(3);
    const pending = (await deliveryRows(hook.id))[2]!;
    expect(pending.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 30_000);

    const res = await api(
      u.auth,
      'POST',
      `/webhooks/${hook.id}/deliveries/${pending.id}/redeliver`,
    );
    expect(res.statusCode, res.body).toBeLessThan(300);
    const asked = Date.now();
    const arrivals = await receiver.arrived(3, 10_000);
    expect(arrivals[2]!.at - asked).toBeLessThan(5_000);
    await expect
      .poll(async () => (await deliveriesOf(t, u.auth, hook.id)).map((d) => d.status))
      .toEqual(['succeeded', 'failed', 'failed']);
  });
});

describe('the API limit and the caps are per account, and hold under concurrency', () => {
  it('every key of an account shares one rate limit', async () => {
    const client = clientsOf(t, 206)();
    const { id } = await registerOnTier(t, client, 'business', 'ratelimit');
    await t.app.db.update(users).set({ apiRateLimitPerMinute: 5 }).where(eq(users.id, id));
    const keys: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await client.post('/api/api-keys', { name: `k${i}` });
      expect(res.statusCode, res.body).toBe(201);
      keys.push(res.json().key as string);
    }
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 7; i++) {
      last = await api({ authorization: `Bearer ${keys[i % 3]}` }, 'GET', '/usage');
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(last!.headers['ratelimit-limit']).toBe('5');
    expect(last!.headers['retry-after']).toMatch(/^\d+$/);
    expect(last!.json().error).toMatch(/shared by all its API keys/);
  });

  it('20 parallel key creations leave 10 active keys on Business; 50 on Enterprise', async () => {
    const client = clientsOf(t, 207)();
    const { id } = await registerOnTier(t, client, 'business', 'keycap');
    await client.token();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.post('/api/api-keys', { name: `k${i}` })),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(10);
    const refused = results.filter((r) => r.statusCode !== 201);
    expect(refused).toHaveLength(10);
    expect(refused[0]!.statusCode).toBe(400);
    expect(refused[0]!.json().error).toBe(
      'An account on the Business plan can have at most 10 active API keys. Revoke one you no longer use first.',
    );
    const active = async () =>
      (
        await t.app.db
          .select({ n: count() })
          .from(apiKeys)
          .where(and(eq(apiKeys.userId, id), isNull(apiKeys.revokedAt)))
      )[0]!.n;
    expect(await active()).toBe(10);

    // A revoked key frees its place.
    const one = results.find((r) => r.statusCode === 201)!.json().id as string;
    expect(
      (await client.request({ method: 'DELETE', url: `/api/api-keys/${one}` })).statusCode,
    ).toBe(200);
    expect((await client.post('/api/api-keys', { name: 'again' })).statusCode).toBe(201);

    await t.app.db.update(users).set({ subscriptionTier: 'enterprise' }).where(eq(users.id, id));
    const more = await Promise.all(
      Array.from({ length: 45 }, (_, i) => client.post('/api/api-keys', { name: `e${i}` })),
    );
    expect(more.filter((r) => r.statusCode === 201)).toHaveLength(40);
    expect(await active()).toBe(50);
  });

  it('20 parallel webhook creations leave 10 webhooks (over HTTP, and straight through the service)', async () => {
    const hooksOf = async (userId: string) =>
      (await t.app.db.select({ n: count() }).from(webhooks).where(eq(webhooks.userId, userId)))[0]!
        .n;
    const u = await businessUser(t, 208, 'hookcap');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api(u.auth, 'POST', '/webhooks', {
          url: `http://127.0.0.1:9/hook${i}`,
          events: ['job.completed'],
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(10);
    expect(results.find((r) => r.statusCode !== 201)!.json().error).toBe(
      'An account can have at most 10 webhooks. Delete one first.',
    );
    expect(await hooksOf(u.id)).toBe(10);

    // Without the HTTP layer's own pacing every count runs before any insert (PGlite queues
    // statements in order), the sharpest form of the race.
    const v = await businessUser(t, 211, 'hookcap2');
    const direct = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        createWebhook(t.app.webhookDeps, v.id, {
          url: `http://127.0.0.1:9/hook${i}`,
          events: ['job.completed'],
        }),
      ),
    );
    expect(direct.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect(await hooksOf(v.id)).toBe(10);
  });
});

describe('fair delivery', () => {
  it(
    "one account flooding a 20-second endpoint with test events does not delay another account's job.completed",
    { timeout: 45_000 },
    async () => {
      // Account A: two webhooks on an endpoint that answers after 20 s (longer than an attempt may
      // take), sent as many test events as it will take.
      const a = await businessUser(t, 209, 'flood');
      const slow = await endpoint({ delayMs: 20_000 });
      const floodHooks = [await addWebhook(a.auth, slow.url), await addWebhook(a.auth, slow.url)];
      const sent = [];
      for (const hook of floodHooks) {
        for (let i = 0; i < 12; i++)
          sent.push(await api(a.auth, 'POST', `/webhooks/${hook.id}/test`));
      }
      await slow.arrived(2);

      // Account B: one job and a webhook on a healthy endpoint.
      const b = await businessUser(t, 210, 'victim');
      const healthy = await endpoint();
      await addWebhook(b.auth, healthy.url);
      const res = await postJob(b.auth, SCHEMA, 'id,email,score\r\n1,a@example.com,5\r\n');
      expect(res.statusCode, res.body).toBe(202);
      const job = await jobWhenEnded(b.auth, res.json().job_id);
      expect(job.status).toBe('completed');
      const [arrival] = await healthy.arrived(1, 15_000);
      expect(arrival!.at - Date.parse(job.completed_at!)).toBeLessThan(15_000);
      expect(JSON.parse(arrival!.body).event).toBe('job.completed');

      // The endpoint never held more than the account's share of attempts at once.
      expect(slow.arrivals.length).toBeLessThanOrEqual(2);
      // Test events beyond the per-webhook rate were refused with a reason.
      const refused = sent.filter((r) => r.statusCode === 429);
      expect(refused).toHaveLength(2 * 7);
      expect(refused[0]!.json().error).toMatch(/at most 5 test events a minute/);
      expect(refused[0]!.headers['retry-after']).toMatch(/^\d+$/);
    },
  );
});
