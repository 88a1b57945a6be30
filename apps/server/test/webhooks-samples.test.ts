import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { VERIFY_SAMPLES } from '../../web/src/features/api-docs/verify-samples.ts';
import { multipartBody, tempDir, testAppForFile } from './helpers.ts';
import { businessUser, deliveriesOf, jobsConfig, peopleCsv, SCHEMA } from './jobs-support.ts';

// The receivers shown on /api-docs, run as their users would (python3, node) against real
// deliveries: each accepts a signed job.completed and refuses a forged one.

const t = testAppForFile({
  env: { RUN_JOBS: 'true' },
  config: jobsConfig(),
  deps: { now: () => new Date() },
});
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function until(what: string, fn: () => boolean | Promise<boolean>, ms = 20_000) {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(VERIFY_SAMPLES)('the $label receiver from /api-docs', (sample) => {
  it('verifies a real job.completed delivery and refuses a forged one', async () => {
    const u = await businessUser(
      t,
      sample.language === 'python' ? 151 : 152,
      `smp${sample.language}`,
    );
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/webhooks`;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: u.auth,
      payload: { url, events: ['job.completed'] },
    });
    const hook = created.json() as { id: string; secret: string };

    const dir = tempDir('sc-sample-');
    const file = path.join(dir, sample.language === 'python' ? 'receiver.py' : 'receiver.mjs');
    writeFileSync(file, sample.code);
    const child = spawn(sample.language === 'python' ? 'python3' : process.execPath, [file], {
      env: { ...process.env, PORT: String(port), SCHEMACHECK_WEBHOOK_SECRET: hook.secret },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (d) => (out += d.toString()));
    child.stderr!.on('data', (d) => (out += d.toString()));
    await until('the receiver to listen', async () => {
      try {
        await fetch(url, { method: 'GET' });
        return true;
      } catch {
        return false;
      }
    });

    const forged = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,' + Buffer.alloc(32).toString('base64'),
      },
      body: '{"event":"job.completed","timestamp":0,"data":{}}',
    });
    expect(forged.status).toBe(400);

    const form = multipartBody([
      { name: 'schema', value: SCHEMA },
      { name: 'file', filename: 'people.csv', content: peopleCsv(10_000) },
    ]);
    const job = await t.app.inject({
      method: 'POST',
      url: '/api/v1/jobs',
      headers: { ...u.auth, ...form.headers },
      payload: form.payload,
    });
    const jobId = job.json().job_id as string;
    await until('the receiver to print the event', () => out.includes(`job.completed ${jobId}`));
    await expect
      .poll(async () =>
        (await deliveriesOf(t, u.auth, hook.id)).map((d) => [d.status, d.response_status]),
      )
      .toEqual([['succeeded', 204]]);
  });
});
