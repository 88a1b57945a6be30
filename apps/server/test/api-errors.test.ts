import { API_ERROR_CODES } from '@schemacheck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, WEB_ONLY_CODES } from '../src/errors.ts';
import { REQUEST_ID_MAX_LENGTH } from '../src/request-id.ts';
import { expectDocumented, openApi } from './api-contract.ts';
import { testAppForFile } from './helpers.ts';
import { businessUser } from './jobs-support.ts';

// One error shape for every answer of the API (docs/decisions/135): `{error, code, request_id}`
// plus documented details, whatever refused the request (a route, Fastify's router, Node's HTTP
// parser), and a request id the client can quote: its own X-Request-Id when it sent one.

const t = testAppForFile();
let base = '';
let auth: Record<string, string> = {};

beforeAll(async () => {
  ({ auth } = await businessUser(t, 181, 'errs'));
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.app.close().catch(() => {});
});

const UUIDISH = /^[0-9a-f-]{36}$/;

function expectShape(body: Record<string, unknown>, code: string, requestId: unknown) {
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe('string');
  expect(body.request_id).toBe(requestId);
}

describe('the error shape', () => {
  it('a path parameter over the router limit: 414 uri_too_long in our shape, the URL not echoed', async () => {
    const id = 'sc_' + 'A'.repeat(300);
    const url = `/api/v1/schemas/${id}`;
    const res = await t.app.inject({ method: 'GET', url, headers: auth });
    expect(res.statusCode).toBe(414);
    const body = res.json();
    expectShape(body, 'uri_too_long', res.headers['x-request-id']);
    expect(res.headers['x-request-id']).toMatch(UUIDISH);
    expect(res.body).not.toContain('AAAAAAAAAA');
    expect(Object.keys(body).sort()).toEqual(['code', 'error', 'request_id']);
    expectDocumented('GET', url, res);
  });

  it('oversized headers: 431 header_too_large with a code and a request id, over real HTTP', async () => {
    const res = await fetch(`${base}/api/v1/usage`, {
      headers: { ...auth, 'x-padding': 'x'.repeat(64 * 1024) },
    });
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as Record<string, unknown>;
    expectShape(body, 'header_too_large', res.headers.get('x-request-id'));
    expect(body.request_id).toMatch(UUIDISH);
  });

  it('invalid_text names the place with documented `issues`, not an undocumented `field`', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/schemas',
      headers: auth,
      payload: {
        name: 'a\u0000b',
        type: 'csv',
        rules: { columns: [{ name: 'id', type: 'string', required: true }] },
      },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expectShape(body, 'invalid_text', res.headers['x-request-id']);
    expect(body).not.toHaveProperty('field');
    expect(body.issues).toEqual([{ path: 'name', message: expect.any(String) }]);
    expectDocumented('POST', '/api/v1/schemas', res);
  });

  it('every /api/v1 error is documented with request_id: 401, 404, 405, 400 query, 415', async () => {
    const cases = [
      { method: 'GET', url: '/api/v1/usage', headers: {} },
      { method: 'GET', url: '/api/v1/schemas/00000000-0000-4000-8000-000000000000', headers: auth },
      { method: 'GET', url: '/api/v1/schemas?limit=1000', headers: auth },
      {
        method: 'POST',
        url: '/api/v1/schemas',
        headers: { ...auth, 'content-type': 'text/plain' },
        payload: 'x',
      },
    ] as const;
    for (const c of cases) {
      const res = await t.app.inject(c);
      expect(res.statusCode, c.url).toBeGreaterThanOrEqual(400);
      const body = res.json();
      expect(body.request_id, c.url).toBe(res.headers['x-request-id']);
      expect(body.code, c.url).toEqual(expect.any(String));
      expectDocumented(c.method, c.url, res);
    }
    const wrongMethod = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/usage',
      headers: auth,
    });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.json().request_id).toBe(wrongMethod.headers['x-request-id']);
  });
});

describe('request ids', () => {
  it('a sent X-Request-Id is used: in the header of a success and in an error body', async () => {
    const ok = await t.app.inject({
      method: 'GET',
      url: '/api/v1/usage',
      headers: { ...auth, 'x-request-id': 'pipeline-run-42:step.7' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-request-id']).toBe('pipeline-run-42:step.7');

    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/v1/schemas/00000000-0000-4000-8000-000000000000',
      headers: { ...auth, 'x-request-id': 'trace-abc' },
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.headers['x-request-id']).toBe('trace-abc');
    expect(refused.json().request_id).toBe('trace-abc');
  });

  it('a sent id is sanitised and bounded; one with nothing usable gets a new UUID', async () => {
    const dirty = await t.app.inject({
      method: 'GET',
      url: '/api/v1/usage',
      headers: { ...auth, 'x-request-id': 'ab"c<script>d e;f' + 'z'.repeat(500) },
    });
    const id = String(dirty.headers['x-request-id']);
    expect(id.startsWith('abcscriptdef')).toBe(true);
    expect(id).toMatch(/^[A-Za-z0-9._:=+/@-]+$/);
    expect(id.length).toBe(REQUEST_ID_MAX_LENGTH);

    const empty = await t.app.inject({
      method: 'GET',
      url: '/api/v1/usage',
      headers: { ...auth, 'x-request-id': '"<>"' },
    });
    expect(empty.headers['x-request-id']).toMatch(UUIDISH);
  });
});

describe('the error code table', () => {
  it("x-error-codes is every server code the public API can answer, with the server's status", () => {
    const published = (openApi['x-error-codes'] as Array<{ code: string; status: number }>).map(
      (e) => [e.code, e.status],
    );
    const server = Object.entries(ERRORS)
      .filter(([code]) => !WEB_ONLY_CODES.has(code as keyof typeof ERRORS))
      .map(([code, e]) => [code, e.status]);
    const sort = (l: Array<Array<string | number>>) =>
      [...l].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(sort(published)).toEqual(sort(server));
    expect(sort(API_ERROR_CODES.map(([code, status]) => [code, status]))).toEqual(sort(server));
    expect(published.map(([c]) => c)).toContain('schema_limit');
  });
});
