import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientsOf, registerOnTier, testAppForFile } from './helpers.ts';
import { jobsConfig, Receiver, verified } from './jobs-support.ts';

// The profile page's webhook calls (/api/webhooks, session and CSRF): create with the secret shown
// once, list, test event, delivery log, redeliver with the same webhook-id, delete; a webhook that
// keeps failing is switched off with a reason, and can be switched on again.

const t = testAppForFile({
  env: { RUN_JOBS: 'true' },
  config: jobsConfig({
    webhooks: { ...jobsConfig().webhooks!, retryDelaysMs: [200], disableAfterMs: 1 },
  }),
  deps: { now: () => new Date() },
});
const newClient = clientsOf(t, 148);
const receiver = new Receiver();
beforeAll(async () => {
  await receiver.start();
});
afterAll(() => receiver.stop());

type Delivery = {
  id: string;
  attempt: number;
  status: string;
  message_id: string;
  response_status: number | null;
};

async function deliveries(c: ReturnType<typeof newClient>, id: string): Promise<Delivery[]> {
  return (await c.get(`/api/webhooks/${id}/deliveries`)).json().data;
}

describe('/api/webhooks', () => {
  it('create (secret once), list, test event, log, redeliver, delete; CSRF and plan enforced', async () => {
    const c = newClient();
    await registerOnTier(t, c, 'business', 'wh');
    const noCsrf = await c.post(
      '/api/webhooks',
      { url: receiver.url, events: ['job.completed'] },
      { csrf: false },
    );
    expect(noCsrf.statusCode).toBe(403);

    const created = await c.post('/api/webhooks', { url: receiver.url, events: ['job.completed'] });
    expect(created.statusCode, created.body).toBe(201);
    const hook = created.json();
    expect(hook).toMatchObject({
      url: receiver.url,
      events: ['job.completed'],
      is_active: true,
      secret: expect.stringMatching(/^whsec_/),
    });
    const list = (await c.get('/api/webhooks')).json().data;
    expect(list).toHaveLength(1);
    expect(list[0]).not.toHaveProperty('secret');

    const before = receiver.deliveries.length;
    expect((await c.post(`/api/webhooks/${hook.id}/test`)).statusCode).toBe(202);
    const [d] = (await receiver.waitFor(before + 1)).slice(before);
    expect(verified(hook.secret, d!)).toMatchObject({
      event: 'webhook.test',
      data: { webhook_id: hook.id },
    });
    await expect.poll(async () => (await deliveries(c, hook.id))[0]?.status).toBe('succeeded');
    const [first] = await deliveries(c, hook.id);

    const again = await c.post(`/api/webhooks/${hook.id}/deliveries/${first!.id}/redeliver`);
    expect(again.statusCode).toBe(202);
    const [d2] = (await receiver.waitFor(before + 2)).slice(before + 1);
    expect(d2!.headers['webhook-id']).toBe(d!.headers['webhook-id']);
    await expect
      .poll(async () => (await deliveries(c, hook.id)).map((x) => [x.attempt, x.status]))
      .toEqual([
        [2, 'succeeded'],
        [1, 'succeeded'],
      ]);

    const other = newClient();
    await registerOnTier(t, other, 'business', 'whother');
    expect((await other.get(`/api/webhooks/${hook.id}/deliveries`)).statusCode).toBe(404);
    expect(
      (await other.request({ method: 'DELETE', url: `/api/webhooks/${hook.id}` })).statusCode,
    ).toBe(404);

    expect(
      (await c.request({ method: 'DELETE', url: `/api/webhooks/${hook.id}` })).statusCode,
    ).toBe(204);
    expect((await c.get('/api/webhooks')).json().data).toEqual([]);

    const free = newClient();
    await registerOnTier(t, free, 'free', 'whfree');
    const refused = await free.post('/api/webhooks', {
      url: receiver.url,
      events: ['job.completed'],
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('plan_required');
  });

  it('a webhook that keeps failing is disabled with a reason, and can be enabled again', async () => {
    const c = newClient();
    const { user } = await registerOnTier(t, c, 'business', 'whdis');
    const hook = (
      await c.post('/api/webhooks', { url: receiver.url, events: ['job.failed'] })
    ).json();
    receiver.script = [500, 500];
    await c.post(`/api/webhooks/${hook.id}/test`);
    await expect
      .poll(async () => (await c.get('/api/webhooks')).json().data[0].is_active, {
        timeout: 10_000,
      })
      .toBe(false);
    const [off] = (await c.get('/api/webhooks')).json().data;
    expect(off.disabled_reason).toMatch(/Every delivery has failed since/);
    expect(off.disabled_at).not.toBeNull();
    const log = await deliveries(c, hook.id);
    expect(log.map((x) => [x.attempt, x.status, x.response_status])).toEqual([
      [2, 'failed', 500],
      [1, 'failed', 500],
    ]);
    const mail = t.mailer.sent.find((m) => m.to === user.email);
    expect(mail?.subject).toBe('SchemaCheck stopped sending to one of your webhooks');
    expect(mail?.text).toContain(receiver.url);
    expect((await c.post(`/api/webhooks/${hook.id}/test`)).statusCode).toBe(400);
    const on = await c.post(`/api/webhooks/${hook.id}/enable`);
    expect(on.json()).toMatchObject({
      is_active: true,
      disabled_reason: null,
      failing_since: null,
    });
  });
});
