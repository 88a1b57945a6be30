import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { testAppForFile } from '../../../apps/server/test/helpers.ts';
import { businessUser, jobsConfig, Receiver } from '../../../apps/server/test/jobs-support.ts';
import {
  createSchemaCheckClient,
  JobTimeoutError,
  SchemaCheckError,
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type Job,
  type SchemaCheckClient,
  type ValidationResult,
} from '../src/index.ts';

// The client against a real server listening on a loopback port, jobs and webhooks running: every
// helper (uploads, jobs polling, webhook verification) and the typed raw operations, as a user of
// the package calls them, with a Business user's API key.

const t = testAppForFile({
  env: { RUN_JOBS: 'true' },
  config: jobsConfig(),
  deps: { now: () => new Date() },
});
const receiver = new Receiver();
let base = '';
let sc: SchemaCheckClient;

const SCHEMA = {
  name: 'Orders',
  type: 'csv',
  rules: {
    columns: [
      { name: 'id', type: 'integer', required: true, minValue: 1 },
      { name: 'email', type: 'email', required: true },
    ],
  },
};
const CSV = 'id,email\n1,a@example.com\n0,not-an-email\n';

beforeAll(async () => {
  await receiver.start();
  const { key } = await businessUser(t, 221, 'client');
  base = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/api/v1`;
  sc = createSchemaCheckClient({ apiKey: key, baseUrl: base });
});
afterAll(async () => {
  await receiver.stop();
});

describe('the typed client', () => {
  it('validates a file with an inline schema and answers the typed result', async () => {
    const result = await sc.validateFile({
      file: { data: CSV, name: 'orders.csv' },
      schema: SCHEMA,
    });
    expectTypeOf(result).toEqualTypeOf<ValidationResult>();
    expect(result.valid).toBe(false);
    expect(result.error_count).toBe(2);
    expect(result.stats.rows).toBe(2);
    expect(result.sample_errors.map((e) => [e.row, e.column, e.code])).toEqual([
      [3, 'id', 'minimum'],
      [3, 'email', 'type'],
    ]);
  });

  it('calls any operation through the typed raw client, and validates against a saved schema', async () => {
    const created = await sc.api.POST('/schemas', { body: SCHEMA });
    expect(created.response.status).toBe(201);
    const schemaId = created.data!.schema_id;
    const saved = await sc.api.GET('/schemas/{schema_id}', {
      params: { path: { schema_id: schemaId } },
    });
    expect(saved.data!.rules.columns.map((c) => c.name)).toEqual(['id', 'email']);

    const bytes = new TextEncoder().encode('id,email\n5,e@example.com\n');
    const result = await sc.validateFile({ file: { data: bytes, name: 'ok.csv' }, schemaId });
    expect(result).toMatchObject({ valid: true, error_count: 0 });

    const usage = await sc.api.GET('/usage');
    expect(usage.data!.validations.used).toBeGreaterThanOrEqual(2);
  });

  it('throws the API error with its code, status and request id', async () => {
    const wrongKey = createSchemaCheckClient({ apiKey: 'sc_nope', baseUrl: base });
    const error = await wrongKey
      .validateFile({ file: { data: CSV, name: 'a.csv' }, schema: SCHEMA })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaCheckError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key' });
    expect((error as SchemaCheckError).requestId).toMatch(/\S/);

    const badSchema = await sc
      .validateFile({
        file: { data: CSV, name: 'a.csv' },
        schema: '{"name":"x"',
        requestId: 'my-trace-42',
      })
      .catch((e: unknown) => e as SchemaCheckError);
    expect(badSchema).toBeInstanceOf(SchemaCheckError);
    expect((badSchema as SchemaCheckError).status).toBe(400);
    expect((badSchema as SchemaCheckError).requestId).toBe('my-trace-42');
  });

  it('runs a job to its end, reporting progress, and a webhook delivery verifies', async () => {
    const hook = await sc.api.POST('/webhooks', { body: { url: receiver.url } });
    expect(hook.response.status).toBe(201);
    const secret = hook.data!.secret;
    expect(secret).toMatch(/^whsec_/);

    const seen: Job['status'][] = [];
    const job = await sc.runJob(
      { file: { data: new Blob([CSV]), name: 'orders.csv' }, schema: SCHEMA },
      { intervalMs: 100, timeoutMs: 60_000, onUpdate: (j) => seen.push(j.status) },
    );
    expect(job.status).toBe('completed');
    expect(job.result).toMatchObject({ valid: false, error_count: 2 });
    expect(seen.at(-1)).toBe('completed');

    const [delivery] = await receiver.waitFor(1);
    const event = await verifyWebhook(secret, delivery!.body, delivery!.headers);
    expect(event.event).toBe('job.completed');
    if (event.event === 'job.completed') {
      expect(event.data.job_id).toBe(job.job_id);
      expect(event.data.result.total_rows).toBe(2);
    }
    // A Headers object works the same; a changed body, another secret or an old delivery do not.
    await expect(
      verifyWebhook(secret, delivery!.body, new Headers(delivery!.headers)),
    ).resolves.toMatchObject({ event: 'job.completed' });
    await expect(
      verifyWebhook(
        secret,
        delivery!.body.replace('"total_rows":2', '"total_rows":3'),
        delivery!.headers,
      ),
    ).rejects.toThrow(WebhookVerificationError);
    await expect(
      verifyWebhook(
        `whsec_${btoa('another secret of 24 bytes')}`,
        delivery!.body,
        delivery!.headers,
      ),
    ).rejects.toThrow('No signature matches');
    await expect(
      verifyWebhook(secret, delivery!.body, delivery!.headers, {
        now: new Date(Date.now() + 3_600_000),
      }),
    ).rejects.toThrow('outside the tolerance');
  }, 90_000);

  it('stops waiting at the time limit, the job going on', async () => {
    const created = await sc.createJob({
      file: { data: CSV, name: 'orders.csv' },
      schema: SCHEMA,
      idempotencyKey: `client-${Date.now()}`,
    });
    expect(created.status).toBe('queued');
    const error = await sc.waitForJob(created.job_id, { timeoutMs: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobTimeoutError);
    expect((error as JobTimeoutError).job.job_id).toBe(created.job_id);
    const finished = await sc.waitForJob(created.job_id, { intervalMs: 100, timeoutMs: 60_000 });
    expect(['completed', 'failed']).toContain(finished.status);
  }, 90_000);
});

describe('webhook signatures', () => {
  it('agree with the Standard Webhooks reference library both ways', async () => {
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    const body = JSON.stringify({ event: 'webhook.test', data: { webhook_id: 'w' } });
    const at = new Date();
    const reference = new Webhook(secret).sign('msg_1', at, body);
    const seconds = Math.floor(at.getTime() / 1000);
    expect(await signWebhook(secret, 'msg_1', seconds, body)).toBe(reference);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(seconds),
      // Several signatures (a secret being rotated): any match is enough.
      'webhook-signature': `v1,AAAA ${reference}`,
    };
    await expect(verifyWebhook(secret, body, headers)).resolves.toMatchObject({
      event: 'webhook.test',
    });
    await expect(
      verifyWebhook(secret, body, { ...headers, 'webhook-id': 'msg_2' }),
    ).rejects.toThrow(WebhookVerificationError);
    await expect(verifyWebhook(secret, body, {})).rejects.toThrow('Missing webhook-id');
  });
});
