import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressPolicy, refusalOf } from '../src/lib/address-policy.ts';
import { checkDestination, type OutboundPolicy, type Resolver } from '../src/lib/outbound.ts';
import { postJson, RESPONSE_CAP, retryAfterSeconds } from '../src/webhooks/http-client.ts';
import { newWebhookSecret, signatureHeaders } from '../src/webhooks/signing.ts';
import { nextDelayMs, retryDelayMs } from '../src/webhooks/deliveries.ts';

// The delivery client against real HTTP servers on 127.0.0.1: Standard Webhooks signatures that
// the reference verifier accepts, and every SSRF refusal (docs/decisions/090, 091).

interface Seen {
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let base: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      seen.push({ headers: req.headers, body });
      if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      } else if (req.url === '/huge') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('x'.repeat(1024 * 1024));
      } else if (req.url === '/slow') {
        setTimeout(() => res.writeHead(200).end('late'), 3000);
      } else if (req.url === '/gone') {
        res.writeHead(410).end('gone');
      } else {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const loopbackAllowed: OutboundPolicy = {
  addresses: addressPolicy(['127.0.0.1']),
  allowHttp: true,
};
const strict: OutboundPolicy = { addresses: addressPolicy([]), allowHttp: true };

describe('Standard Webhooks signatures', () => {
  it('are accepted by the standardwebhooks reference verifier, and refused when tampered', async () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ event: 'job.completed', timestamp: Date.now(), data: {} });
    const headers = signatureHeaders(secret, 'msg_abc', body, new Date());
    const r = await postJson(`${base}/hook`, body, headers, {
      policy: loopbackAllowed,
      timeoutMs: 2000,
    });
    expect(r).toMatchObject({ ok: true, status: 200, excerpt: 'thanks', error: null });
    const got = seen.at(-1)!;
    const wh = new Webhook(secret);
    const h = {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    };
    expect(wh.verify(got.body, h)).toEqual(JSON.parse(body));
    expect(got.headers['user-agent']).toBe('SchemaCheck-Webhooks/1.0');
    expect(() => wh.verify(got.body.replace('completed', 'failed'), h)).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(got.body, h)).toThrow();
  });
});

describe('addresses', () => {
  const p = addressPolicy([]);
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '0.0.0.0',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    'fd00:ec2::254',
    'fe80::1',
    'ff02::1',
    '64:ff9b::7f00:1',
  ])('refuses %s', (a) => {
    expect(refusalOf(a, p)).not.toBeNull();
  });
  it.each(['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])('allows %s', (a) => {
    expect(refusalOf(a, p)).toBeNull();
  });
  it('allows an allow-listed private address and nothing next to it', () => {
    const q = addressPolicy(['127.0.0.1']);
    expect(refusalOf('127.0.0.1', q)).toBeNull();
    expect(refusalOf('127.0.0.2', q)).not.toBeNull();
  });
});

describe('SSRF refusals at delivery', () => {
  const post = (url: string, policy = strict) =>
    postJson(url, '{}', {}, { policy, timeoutMs: 2000 });

  it.each([
    'http://10.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::1]/hook',
    'http://2130706433/hook',
    'http://0x7f000001/hook',
    'http://127.1/hook',
    'http://0/hook',
  ])('refuses %s before connecting', async (url) => {
    const before = seen.length;
    const r = await post(url.replace('/hook', `:${new URL(base).port}/hook`));
    expect(r.ok).toBe(false);
    expect(r.status).toBeNull();
    expect(r.error).toMatch(/^Refused:/);
    expect(seen.length).toBe(before);
  });

  it('refuses a name that resolves to 127.0.0.1 when loopback is not allowed', async () => {
    const before = seen.length;
    const r = await post(`http://localhost:${new URL(base).port}/hook`);
    expect(r.error).toMatch(/Refused: localhost resolves to/);
    expect(seen.length).toBe(before);
  });

  it('checks the address at connect time: DNS rebinding after the save-time check fails', async () => {
    let calls = 0;
    // The first answer (when the webhook is saved) is public, every later one is loopback.
    const rebinding: Resolver = async () =>
      calls++ === 0
        ? [{ address: '93.184.215.14', family: 4 }]
        : [{ address: '127.0.0.1', family: 4 }];
    const policy: OutboundPolicy = { ...strict, resolver: rebinding };
    const url = `http://rebind.example:${new URL(base).port}/hook`;
    await expect(checkDestination(url, policy)).resolves.toBeUndefined();
    const before = seen.length;
    const r = await post(url, policy);
    expect(r.error).toMatch(/Refused: rebind\.example resolves to 127\.0\.0\.1/);
    expect(seen.length).toBe(before);
  });

  it('refuses a name with one public and one private address', async () => {
    const mixed: Resolver = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: 'fd00::1', family: 6 },
    ];
    await expect(
      checkDestination('https://mixed.example/hook', { ...strict, resolver: mixed }),
    ).rejects.toThrow(/fd00::1/);
  });

  it('does not follow a redirect to a private address: a 3xx is a failure', async () => {
    const r = await post(`${base}/redirect`, loopbackAllowed);
    expect(r).toMatchObject({ ok: false, status: 302 });
    expect(r.error).toMatch(/Redirect not followed/);
    expect(seen.some((s) => s.headers.host?.startsWith('169.254'))).toBe(false);
  });

  it('refuses other schemes, credentials, and http when https is required', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'gopher://x/', 'data:,x']) {
      expect((await post(url)).error).toBe('Only http and https URLs are accepted');
    }
    expect((await post('http://u:p@example.com/')).error).toMatch(/user name or password/);
    const httpsOnly = { ...strict, allowHttp: false };
    expect((await post('http://example.com/', httpsOnly)).error).toBe('The URL must use https');
  });

  it('gives each attempt one deadline and reads at most the response cap', async () => {
    const slow = await postJson(
      `${base}/slow`,
      '{}',
      {},
      { policy: loopbackAllowed, timeoutMs: 300 },
    );
    expect(slow).toMatchObject({ ok: false, status: null });
    expect(slow.error).toMatch(/No complete response within/);
    const huge = await post(`${base}/huge`, loopbackAllowed);
    expect(huge.ok).toBe(true);
    expect(huge.excerpt!.length).toBeLessThanOrEqual(1024);
    expect(RESPONSE_CAP).toBeLessThan(1024 * 1024);
  });
});

describe('retry schedule', () => {
  it('waits the configured delays with ±10 % jitter, and stops after the last', () => {
    const delays = [5000, 300_000];
    expect(retryDelayMs(delays, 2, () => 0)).toBe(4500);
    expect(retryDelayMs(delays, 2, () => 1)).toBe(5500);
    expect(retryDelayMs(delays, 3, () => 0.5)).toBe(300_000);
    expect(retryDelayMs(delays, 4)).toBeNull();
  });
});

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP dates, and ignores anything else', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds(' 0 ', now)).toBe(0);
    expect(retryAfterSeconds('Tue, 10 Mar 2026 12:01:30 GMT', now)).toBe(90);
    expect(retryAfterSeconds('Tue, 10 Mar 2026 11:00:00 GMT', now)).toBe(0);
    for (const bad of [undefined, '', '-5', '1.5', 'soon', '12abc']) {
      expect(retryAfterSeconds(bad, now)).toBeNull();
    }
  });

  it("lengthens the schedule's wait up to its longest step, never beyond", () => {
    const delays = [5000, 300_000, 1_800_000];
    const mid = () => 0.5;
    expect(nextDelayMs(delays, 2, null, mid)).toBe(5000);
    expect(nextDelayMs(delays, 2, 60, mid)).toBe(60_000);
    expect(nextDelayMs(delays, 2, 1, mid)).toBe(5000);
    expect(nextDelayMs(delays, 2, 99_999_999_999, mid)).toBe(1_800_000);
    expect(nextDelayMs(delays, 5, 60, mid)).toBeNull();
  });
});
