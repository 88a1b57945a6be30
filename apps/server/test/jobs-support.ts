import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Config } from '../src/config.ts';
import { createApiKey } from '../src/api-keys/store.ts';
import { clientsOf, registerOnTier, type TestApp } from './helpers.ts';

// Shared by the jobs and webhooks tests: a webhook receiver on 127.0.0.1 that records every
// delivery and answers what the test scripts, a Business user with an API key, files to send.

export interface Delivery {
  headers: Record<string, string>;
  body: string;
  at: number;
}

export class Receiver {
  readonly deliveries: Delivery[] = [];
  /** Status codes to answer, in order; 200 once they run out. */
  script: number[] = [];
  private server: http.Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) headers[k] = String(v);
        this.deliveries.push({
          headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        const status = this.script.shift() ?? 200;
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'nope');
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
    return this;
  }

  /** Waits until `n` deliveries have arrived (or fails after `ms`). */
  async waitFor(n: number, ms = 20_000): Promise<Delivery[]> {
    const end = Date.now() + ms;
    while (this.deliveries.length < n) {
      if (Date.now() > end) {
        throw new Error(`Only ${this.deliveries.length} of ${n} deliveries arrived`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.deliveries;
  }

  /** The deliveries that arrived about job `jobId`, in order. */
  deliveriesFor(jobId: string): Delivery[] {
    return this.deliveries.filter((d) => d.body.includes(`"job_id":"${jobId}"`));
  }

  /**
   * Waits until `n` deliveries about job `jobId` have arrived, and answers them: another test's
   * late retry (its first try answered after the sender's timeout) is not taken for this one's.
   */
  async waitForJob(jobId: string, n = 1, ms = 20_000): Promise<Delivery[]> {
    const end = Date.now() + ms;
    for (;;) {
      const mine = this.deliveriesFor(jobId);
      if (mine.length >= n) return mine;
      if (Date.now() > end) throw new Error(`Only ${mine.length} of ${n} deliveries arrived`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((r) => this.server!.close(r));
  }
}

/** Verifies a delivery with the Standard Webhooks reference library; returns its payload. */
export function verified(secret: string, d: Delivery): Record<string, unknown> {
  return new Webhook(secret).verify(d.body, {
    'webhook-id': d.headers['webhook-id']!,
    'webhook-timestamp': d.headers['webhook-timestamp']!,
    'webhook-signature': d.headers['webhook-signature']!,
  }) as Record<string, unknown>;
}

/** What the tests run jobs and webhooks with: fast polling, fast retries, loopback receivers. */
export function jobsConfig(extra: Partial<Config> = {}): Partial<Config> {
  return {
    jobsPollSeconds: 0.5,
    webhooks: {
      allowHttp: true,
      allowedAddresses: ['127.0.0.1'],
      timeoutMs: 3000,
      retryDelaysMs: [300, 300, 300],
      disableAfterMs: 5 * 24 * 60 * 60 * 1000,
    },
    validationJobs: { heartbeatMs: 200, staleMs: 3000 },
    ...extra,
  };
}

/** A Business user with an API key; `api` calls /api/v1 with it. */
export async function businessUser(t: TestApp, net: number, prefix: string) {
  const client = clientsOf(t, net)();
  const { user, id } = await registerOnTier(t, client, 'business', prefix);
  const { key } = await createApiKey(t.app.db, id, 'tests', new Date());
  const auth = { authorization: `Bearer ${key}` };
  return { user, id, key, client, auth };
}

export const SCHEMA = JSON.stringify({
  name: 'People',
  fileType: 'csv',
  fields: [
    { name: 'id', type: 'integer', required: true },
    { name: 'email', type: 'email', required: true },
    { name: 'score', type: 'number', required: true, validation: { minValue: 0, maxValue: 100 } },
  ],
});

/** A CSV of about `bytes` bytes for SCHEMA, with an error every 1000th row. */
export function peopleCsv(bytes: number): Buffer {
  const lines = ['id,email,score'];
  let size = lines[0]!.length + 2;
  for (let i = 1; size < bytes; i++) {
    const line =
      i % 1000 === 0 ? `${i},not-an-email,${i % 101}` : `${i},person${i}@example.com,${i % 101}`;
    lines.push(line);
    size += line.length + 2;
  }
  return Buffer.from(lines.join('\r\n') + '\r\n');
}

/** One webhook's delivery attempts through the public API, newest first. */
export async function deliveriesOf(
  t: TestApp,
  auth: Record<string, string>,
  webhookId: string,
): Promise<{ attempt: number; status: string; response_status: number }[]> {
  const r = await t.app.inject({
    method: 'GET',
    url: `/api/v1/webhooks/${webhookId}/deliveries`,
    headers: auth,
  });
  return r.json().data;
}
