import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import {
  Client,
  LogCapture,
  makeWebDist,
  newUser,
  startTestApp,
  testConfig,
  type TestApp,
  removeTempDirs,
} from './helpers.ts';

let t: TestApp;
let logs: LogCapture;
beforeAll(async () => {
  logs = new LogCapture();
  t = await startTestApp({
    env: { WEB_DIST: makeWebDist(), LOG_LEVEL: 'debug' },
    deps: { logStream: logs },
  });
  // A route that fails like a bug would, to see what a 500 looks like.
  t.app.get('/api/test-crash', async () => {
    throw new Error('secret internal detail at /srv/app/db.ts:42');
  });
  // Stand-in for a public API route: API keys only, so no session and no CSRF check.
  t.app.post('/api/v1/test-echo', async (request) => ({ signedIn: request.auth !== null }));
});
afterAll(async () => {
  await t?.close();
});

describe('health', () => {
  it('GET /healthz runs select 1 and answers {status:"ok"}', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers 503 when the database does not', async () => {
    const broken: Database = {
      ...t.db.database,
      ping: () => Promise.reject(new Error('connection refused')),
    };
    const app = await buildApp(testConfig(), { database: broken });
    try {
      const res = await app.inject({ method: 'GET', url: '/healthz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'unavailable', code: 'service_unavailable' });
    } finally {
      await app.close();
    }
  });
});

describe('security headers', () => {
  it('are on API responses and pages', async () => {
    for (const url of ['/api/csrf-token', '/', '/dashboard']) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-eval'/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
      // http APP_URL: no HSTS, no upgrade-insecure-requests (they would break http://localhost).
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('the reset page is served with Referrer-Policy: no-referrer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/reset-password?token=abc' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });
});

describe('errors', () => {
  it('a crash is a 500 with the generic message, no stack, no detail; the log has it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test-crash' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      error: 'Something went wrong on our side. Please try again.',
      code: 'internal',
      request_id: expect.any(String),
    });
    expect(res.body).not.toContain('secret internal detail');
    expect(res.body).not.toContain('.ts');
    expect(logs.text).toContain('secret internal detail');
  });

  it('unknown /api paths are JSON 404s', async () => {
    for (const url of ['/api/nope', '/api', '/api/auth/nope?x=1']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        error: 'Not found',
        code: 'not_found',
        request_id: expect.any(String),
      });
    }
  });

  it('a mutating call to an unknown path is a 404, not a CSRF refusal', async () => {
    for (const url of ['/api/v1/validat', '/api/nope']) {
      const res = await t.app.inject({ method: 'POST', url, payload: {} });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({
        error: 'Not found',
        code: 'not_found',
        request_id: expect.any(String),
      });
    }
  });

  it('a wrong method on a known path is 405 with Allow', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/auth/me', headers: {} });
    expect(res.statusCode).toBe(405);
    const c = new Client(t.app);
    const res2 = await c.request({ method: 'PUT', url: '/api/auth/login', payload: {} });
    expect(res2.statusCode).toBe(405);
    expect(res2.headers.allow).toBe('POST');
    expect(res2.json().code).toBe('method_not_allowed');
    const res3 = await c.get('/api/auth/register');
    expect(res3.statusCode).toBe(405);
  });

  it('malformed JSON is a 400 in the error shape', async () => {
    const c = new Client(t.app);
    const res = await c.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"usernameOrEmail": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'The request body is not valid JSON',
      code: 'invalid_json',
      request_id: expect.any(String),
    });
  });

  it('JSON nested too deep is refused before anything walks it', async () => {
    const c = new Client(t.app);
    const res = await c.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '['.repeat(5000) + ']'.repeat(5000),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/nested more than 64 levels/);
  });

  it('a body that is not an object is a 400', async () => {
    const c = new Client(t.app);
    for (const payload of ['[]', '"x"', '42', 'null']) {
      const res = await c.request({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation');
    }
  });

  it('a body over the limit is a 413', async () => {
    const c = new Client(t.app);
    const res = await c.post('/api/auth/forgot-password', {
      email: 'a@example.com',
      pad: 'x'.repeat(20_000),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      error: 'The request body is too large',
      code: 'payload_too_large',
      request_id: expect.any(String),
    });
  });

  it('__proto__ in a body is refused, not merged', async () => {
    const c = new Client(t.app);
    const res = await c.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"usernameOrEmail":"a","password":"b","__proto__":{"admin":true}}',
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('public API (/api/v1)', () => {
  it('takes no CSRF token and never reads the session cookie', async () => {
    const c = new Client(t.app, '10.3.0.1');
    await c.register();
    const res = await c.post('/api/v1/test-echo', {}, { csrf: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ signedIn: false });
  });

  it('an encoded path cannot borrow the exemption', async () => {
    const c = new Client(t.app, '10.3.0.2');
    await c.register();
    for (const url of [
      '/api/v1/..%2Fauth/logout',
      '/api/v1/../auth/logout',
      '/api/v1%2F../auth/logout',
    ]) {
      const res = await c.post(url, {}, { csrf: false });
      expect(res.statusCode).not.toBe(200);
    }
    expect((await c.get('/api/auth/me')).statusCode).toBe(200);
  });
});

describe('web app', () => {
  it('serves files of the build, hashed assets cached for a year', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log("app");');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers the signed-in app routes with the app shell (200)', async () => {
    for (const url of ['/dashboard', '/profile?x=1', '/stripe/success?session_id=cs_1']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<title>SPA</title>');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves pre-rendered pages; a trailing slash redirects; unknown pages are a 404 page', async () => {
    const home = await t.app.inject({ method: 'GET', url: '/' });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('<title>Home</title>');
    const page = await t.app.inject({ method: 'GET', url: '/csv-validator' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>CSV validator</title>');
    const slash = await t.app.inject({ method: 'GET', url: '/csv-validator/?a=1' });
    expect(slash.statusCode).toBe(301);
    expect(slash.headers.location).toBe('/csv-validator?a=1');
    for (const url of ['/no/such/page', '/csv-validator/x', '/index.html', '/spa.html']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<title>Page Not Found</title>');
    }
  });

  it('a missing asset is a plain 404, and paths cannot leave the build folder', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    for (const url of [
      '/../../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2fetc%2fpasswd',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.body).not.toContain('root:');
    }
  });

  it('without a build, pages answer 503 with the command to build one; the API still works', async () => {
    const app = await buildApp(testConfig(), { database: t.db.database });
    try {
      const res = await app.inject({ method: 'GET', url: '/dashboard' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toBe('Web app not built: run npm run build -w @schemacheck/web');
      expect((await app.inject({ method: 'GET', url: '/api/nope' })).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('logs', () => {
  it('never contain passwords, session tokens, CSRF tokens or cookies', async () => {
    const c = new Client(t.app);
    const u = newUser();
    await c.register(u);
    await c.get('/api/auth/me');
    await c.post('/api/auth/logout');
    await c.login(u.username, u.password);
    await c.login(u.username, 'Wrong-Password-1');
    const session = c.cookies.get('sc_session')!;
    expect(logs.lines.length).toBeGreaterThan(5);
    expect(logs.text).not.toContain(u.password);
    expect(logs.text).not.toContain('Wrong-Password-1');
    expect(logs.text).not.toContain(session);
    expect(logs.text).not.toContain(c.csrfToken!);
    expect(logs.text).not.toContain('sc_session=');
    // Requests are logged with an id, method and URL.
    const line = logs.lines
      .map((l) => JSON.parse(l))
      .find((l) => l.req?.url === '/api/auth/me' && l.req.method === 'GET');
    expect(line).toMatchObject({ req: { method: 'GET', url: '/api/auth/me' } });
    expect(line.reqId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('timeouts', () => {
  it('closes a connection whose headers do not arrive in time (slow-loris)', async () => {
    const base = testConfig();
    const config = {
      ...base,
      http: {
        ...base.http,
        headersTimeoutMs: 500,
        requestTimeoutMs: 1000,
        connectionsCheckingIntervalMs: 100,
      },
    };
    const app = await buildApp(config, { database: t.db.database });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as AddressInfo;
      expect(app.server.headersTimeout).toBe(500);
      expect(app.server.requestTimeout).toBe(1000);
      const started = Date.now();
      const answer = await new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        let data = '';
        socket.on('data', (d) => (data += d.toString()));
        socket.on('close', () => resolve(data));
        socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
        const drip = setInterval(() => socket.write('X-Slow: 1\r\n'), 100);
        socket.on('close', () => clearInterval(drip));
      });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await app.close();
    }
  });
});

afterAll(removeTempDirs);
