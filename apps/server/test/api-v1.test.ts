import {
  PLANS,
  SYNC_MAX_BYTES,
  SYNC_MAX_ROWS,
  type SubscriptionTier,
} from '@schemacheck/contracts';
import { parseSchemaText, validateBytes } from '@schemacheck/engine';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey } from '../src/api-keys/store.ts';
import { apiKeys, apiUsage, usageCounters, users, validationResults } from '../src/db/schema.ts';
import { monthOf } from '../src/validation/quota.ts';
import { expectDocumented } from './api-contract.ts';
import {
  clientsOf,
  multipartBody,
  registerOnTier,
  startTestApp,
  testAppForFile,
  type Part,
} from './helpers.ts';

const t = testAppForFile({ env: { API_RATE_LIMIT_PER_MINUTE: '1000' } });
const newClient = clientsOf(t, 21);

/** A user on `tier` with one API key (created through the web route, as the profile does). */
async function withKey(tier: SubscriptionTier = 'business') {
  const web = newClient();
  const { id } = await registerOnTier(t, web, tier, 'api');
  const created = await web.post('/api/api-keys', { name: 'Pipeline' });
  expect(created.statusCode, created.body).toBe(201);
  return { web, userId: id, key: created.json().key as string, keyId: created.json().id as string };
}

interface Call {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  key?: string | null;
  json?: unknown;
  parts?: Part[];
  headers?: Record<string, string>;
}

/** A public API call; its response is checked against the published OpenAPI document. */
async function call(c: Call): Promise<LightMyRequestResponse> {
  const method = c.method ?? 'GET';
  const headers: Record<string, string> = { ...c.headers };
  if (c.key) headers.authorization = `Bearer ${c.key}`;
  let payload: string | Buffer | undefined;
  if (c.parts) {
    const body = multipartBody(c.parts);
    payload = body.payload;
    Object.assign(headers, body.headers);
  } else if (c.json !== undefined) {
    payload = JSON.stringify(c.json);
    headers['content-type'] = 'application/json';
  }
  const res = await t.app.inject({
    method,
    url: c.url,
    headers,
    ...(payload !== undefined ? { payload } : {}),
  });
  expectDocumented(method, c.url, res);
  return res;
}

const PRODUCTS = {
  name: 'Products',
  type: 'csv',
  rules: {
    columns: [
      { name: 'sku', type: 'string', required: true, pattern: '^[A-Z]{3}-\\d{4}$' },
      { name: 'price', type: 'number', required: true, minValue: 0 },
      { name: 'email', type: 'email', required: false },
    ],
    additionalColumns: false,
  },
};

function productsCsv(rows: number, badEvery = 4): string {
  const lines = ['sku,price,email'];
  for (let i = 1; i <= rows; i++) {
    const bad = i % badEvery === 0;
    lines.push(
      `${bad ? '=bad' : 'ABC'}-${String(i % 10000).padStart(4, '0')},${bad ? -1 : 9.5},u${i}@example.com`,
    );
  }
  return lines.join('\n') + '\n';
}

const file = (content: string | Buffer, filename = 'products.csv'): Part => ({
  name: 'file',
  filename,
  content,
});

async function createSchema(key: string, body: unknown = PRODUCTS): Promise<string> {
  const res = await call({ method: 'POST', url: '/api/v1/schemas', key, json: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().schema_id as string;
}

async function validationsUsed(userId: string): Promise<number> {
  const [row] = await t.db.database.db
    .select()
    .from(usageCounters)
    .where(eq(usageCounters.userId, userId));
  return row?.month === monthOf(t.clock.now()) ? row.count : 0;
}

describe('API keys', () => {
  it('are shown once, stored as a hash, listed, and revoked at once', async () => {
    const { web, key, keyId, userId } = await withKey();
    expect(key).toMatch(/^sc_[0-9A-Za-z]{49}$/);
    const [row] = await t.db.database.db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
    expect(row!.keyHash).toBe(hashApiKey(key));
    expect(JSON.stringify(row)).not.toContain(key);
    expect(row!.keyPrefix).toBe(key.slice(0, 11));

    const list = await web.get('/api/api-keys');
    expect(list.json()).toEqual([
      expect.objectContaining({
        id: keyId,
        name: 'Pipeline',
        keyPrefix: key.slice(0, 11),
        revokedAt: null,
      }),
    ]);
    expect(list.body).not.toContain(key);

    const ok = await call({ url: '/api/v1/usage', key });
    expect(ok.statusCode).toBe(200);
    const listed = await web.get('/api/api-keys');
    expect(listed.json()[0].lastUsedAt).not.toBeNull();

    const revoked = await web.request({ method: 'DELETE', url: `/api/api-keys/${keyId}` });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().revokedAt).not.toBeNull();
    const after = await call({ url: '/api/v1/usage', key });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 'invalid_api_key' });
    expect(after.json().error).toMatch(/revoked/);
    // usage of the refused call is not recorded against nobody; the earlier one was
    const rows = await t.db.database.db.select().from(apiUsage).where(eq(apiUsage.userId, userId));
    expect(rows.map((r) => r.responseStatus)).toEqual([200]);
  });

  it('web routes need a session, CSRF, a name, the plan; others’ keys are 404', async () => {
    const { web, keyId } = await withKey();
    const noCsrf = await web.post('/api/api-keys', { name: 'x' }, { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    const blank = await web.post('/api/api-keys', { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toBe('Please enter a name for your API key.');
    const anon = await newClient().get('/api/api-keys');
    expect(anon.statusCode).toBe(401);

    const pro = newClient();
    await registerOnTier(t, pro, 'pro', 'api');
    const refused = await pro.post('/api/api-keys', { name: 'x' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('plan_required');
    const other = await pro.request({ method: 'DELETE', url: `/api/api-keys/${keyId}` });
    expect(other.statusCode).toBe(404);
    const bad = await web.request({ method: 'DELETE', url: '/api/api-keys/not-a-uuid' });
    expect(bad.statusCode).toBe(404);
  });

  it('refuses: no header, not Bearer, checksum (no lookup), unknown, query string, cookie only', async () => {
    const { web, key } = await withKey();
    expect((await call({ url: '/api/v1/usage' })).statusCode).toBe(401);
    const basic = await call({ url: '/api/v1/usage', headers: { authorization: `Basic ${key}` } });
    expect(basic.statusCode).toBe(401);
    // one character changed: the checksum no longer matches
    const typo = key.slice(0, 10) + (key[10] === 'a' ? 'b' : 'a') + key.slice(11);
    const mistyped = await call({ url: '/api/v1/usage', key: typo });
    expect(mistyped.statusCode).toBe(401);
    expect(mistyped.json().error).toMatch(/not a valid API key/);
    const unknown = await call({ url: '/api/v1/usage', key: generateApiKey() });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error).toMatch(/does not exist/);
    const inQuery = await call({ url: `/api/v1/usage?api_key=${key}` });
    expect(inQuery.statusCode).toBe(401);
    expect(inQuery.json().error).toMatch(/never in the URL/);
    const both = await call({ url: `/api/v1/usage?x=${key}`, key });
    expect(both.statusCode).toBe(401);
    // the web session's cookie means nothing here
    const cookieOnly = await web.get('/api/v1/usage');
    expect(cookieOnly.statusCode).toBe(401);
    expect(cookieOnly.json().code).toBe('invalid_api_key');
  });

  it('a user below Business gets 403 naming the plan; the key works again after upgrading', async () => {
    const { key, userId } = await withKey();
    await t.db.database.db
      .update(users)
      .set({ subscriptionTier: 'pro' })
      .where(eq(users.id, userId));
    const refused = await call({ url: '/api/v1/usage', key });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('plan_required');
    expect(refused.json().error).toContain('Pro plan');
    await t.db.database.db
      .update(users)
      .set({ subscriptionTier: 'enterprise' })
      .where(eq(users.id, userId));
    expect((await call({ url: '/api/v1/usage', key })).statusCode).toBe(200);
  });
});

describe('schemas', () => {
  it('create, list with pagination, read, replace, delete; others get 404', async () => {
    const { key } = await withKey();
    const created = await call({ method: 'POST', url: '/api/v1/schemas', key, json: PRODUCTS });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      schema_id: expect.any(String),
      name: 'Products',
      type: 'csv',
      created_at: t.clock.now().toISOString(),
      warnings: [],
    });
    const id = created.json().schema_id as string;
    for (let i = 0; i < 4; i++) {
      t.clock.advance(1000);
      await createSchema(key, { ...PRODUCTS, name: `S${i}` });
    }
    const page = await call({ url: '/api/v1/schemas?page=2&limit=2', key });
    expect(page.json()).toMatchObject({ page: 2, limit: 2, total: 5, has_more: true });
    expect(page.json().data.map((s: { name: string }) => s.name)).toEqual(['S1', 'S0']);
    const first = await call({ url: '/api/v1/schemas', key });
    expect(first.json()).toMatchObject({ page: 1, limit: 20, total: 5, has_more: false });
    for (const q of ['limit=101', 'limit=0', 'page=0', 'page=x']) {
      const bad = await call({ url: `/api/v1/schemas?${q}`, key });
      expect(bad.statusCode, q).toBe(400);
      expect(bad.json().code).toBe('validation');
    }

    const got = await call({ url: `/api/v1/schemas/${id}`, key });
    expect(got.json()).toMatchObject({ schema_id: id, name: 'Products', type: 'csv' });
    expect(got.json().rules.columns).toHaveLength(3);
    expect(got.json().rules.additionalColumns).toBe(false);

    const put = await call({
      method: 'PUT',
      url: `/api/v1/schemas/${id}`,
      key,
      json: { ...PRODUCTS, name: 'Renamed' },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().name).toBe('Renamed');

    const other = await withKey();
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await call({
        method,
        url: `/api/v1/schemas/${id}`,
        key: other.key,
        ...(method === 'PUT' ? { json: PRODUCTS } : {}),
      });
      expect(res.statusCode, method).toBe(404);
    }
    const del = await call({ method: 'DELETE', url: `/api/v1/schemas/${id}`, key });
    expect(del.statusCode).toBe(204);
    expect((await call({ url: `/api/v1/schemas/${id}`, key })).statusCode).toBe(404);
    expect((await call({ url: '/api/v1/schemas/nope', key })).statusCode).toBe(404);
  });

  it('the engine checks every schema: problems by path; JSON Schema and Table Schema accepted', async () => {
    const { key } = await withKey();
    const bad = await call({
      method: 'POST',
      url: '/api/v1/schemas',
      key,
      json: {
        name: 'Bad',
        type: 'csv',
        rules: {
          columns: [
            { name: 'a', type: 'string', required: true, pattern: '(?=x)' },
            { name: '', type: 'wat', required: true },
          ],
        },
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('invalid_schema');
    const paths = (bad.json().problems as { path: string }[]).map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'rules.columns[0].pattern',
        'rules.columns[1].name',
        'rules.columns[1].type',
      ]),
    );

    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/v1/schemas',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().code).toBe('invalid_json');
    const array = await call({ method: 'POST', url: '/api/v1/schemas', key, json: [1] });
    expect(array.statusCode).toBe(400);

    const jsonSchema = await call({
      method: 'POST',
      url: '/api/v1/schemas',
      key,
      json: {
        title: 'Users',
        type: 'object',
        properties: { id: { type: 'integer' }, email: { type: 'string', format: 'email' } },
        required: ['id'],
      },
    });
    expect(jsonSchema.statusCode, jsonSchema.body).toBe(201);
    expect(jsonSchema.json().type).toBe('json');
    expect(jsonSchema.json().warnings).toEqual([]);
    const table = await call({
      method: 'POST',
      url: '/api/v1/schemas',
      key,
      json: { fields: [{ name: 'id', type: 'integer', constraints: { required: true } }] },
    });
    expect(table.statusCode, table.body).toBe(201);
    expect(table.json().type).toBe('csv');
  });
});

describe('POST /v1/validate', () => {
  it('equals the engine’s result for the same file; the report is the full CSV and JSON', async () => {
    const { key, userId } = await withKey();
    const id = await createSchema(key);
    const csv = productsCsv(40);
    const res = await call({
      method: 'POST',
      url: `/api/v1/validate?schema_id=${id}`,
      key,
      parts: [file(csv)],
    });
    expect(res.statusCode, res.body).toBe(200);
    const checked = parseSchemaText(JSON.stringify(PRODUCTS));
    if (!checked.ok) throw new Error('bad schema');
    const engine = validateBytes(checked.value, Buffer.from(csv), {
      fileType: 'csv',
      maxErrors: 1000,
      now: t.clock.now(),
    });
    const body = res.json();
    expect(body.valid).toBe(false);
    expect(body.error_count).toBe(engine.errorCount);
    expect(body.stats).toMatchObject({ rows: 40, columns: 3 });
    expect(body.sample_errors).toEqual(
      engine.errors.slice(0, 100).map((e) => ({
        row: e.row,
        column: e.field,
        code: e.code,
        message: e.message,
        value: e.value,
        severity: 'error',
      })),
    );
    expect(await validationsUsed(userId)).toBe(1);
    const [stored] = await t.db.database.db
      .select()
      .from(validationResults)
      .where(eq(validationResults.id, body.report_id));
    expect(stored!.schemaId).toBe(id);

    const report = await call({ url: `/api/v1/reports/${body.report_id}`, key });
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-type']).toContain('text/csv');
    expect(report.body.split('\r\n')[0]).toBe('row,field,code,message,value,severity,suggestion');
    expect(report.body.trimEnd().split('\r\n')).toHaveLength(engine.errorCount + 1);
    expect(report.body).toContain(`"'=bad-0004"`);

    const json = await call({ url: `/api/v1/reports/${body.report_id}?format=json`, key });
    expect(json.statusCode).toBe(200);
    const full = json.json();
    expect(full).toMatchObject({
      report_id: body.report_id,
      valid: false,
      error_count: engine.errorCount,
    });
    expect(full.errors).toHaveLength(engine.errorCount);
    expect(full.errors[0]).toEqual(body.sample_errors[0]);
    expect(full.errors.map((e: { value: string }) => e.value)).toContain('=bad-0004');

    const other = await withKey();
    expect(
      (await call({ url: `/api/v1/reports/${body.report_id}`, key: other.key })).statusCode,
    ).toBe(404);
    expect((await call({ url: '/api/v1/reports/nope?format=json', key })).statusCode).toBe(404);
    expect(
      (await call({ url: `/api/v1/reports/${body.report_id}?format=xml`, key })).statusCode,
    ).toBe(400);

    const usage = await t.db.database.db.select().from(apiUsage).where(eq(apiUsage.userId, userId));
    const v = usage.find((u) => u.endpoint === '/api/v1/validate');
    expect(v).toMatchObject({
      method: 'POST',
      rowsProcessed: 40,
      bytesProcessed: csv.length,
      responseStatus: 200,
    });
  });

  it('takes an inline schema, in either order, JSON and NDJSON', async () => {
    const { key } = await withKey();
    const schema = {
      name: 'people',
      type: 'json',
      rules: { columns: [{ name: 'id', type: 'integer', required: true }] },
    };
    const res = await call({
      method: 'POST',
      url: '/api/v1/validate',
      key,
      parts: [
        file('{"id":1}\n{"id":"x"}\n', 'people.ndjson'),
        { name: 'schema', value: JSON.stringify(schema) },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      valid: false,
      error_count: 1,
      stats: { rows: 2, columns: 1 },
    });
    expect(res.json().sample_errors[0]).toMatchObject({
      row: 2,
      column: 'id',
      code: 'type',
      path: '$[1].id',
    });
  });

  it('a stored schema names the rules of its document that are not checked, on create and replace', async () => {
    const { key } = await withKey();
    const document = {
      type: 'object',
      properties: { id: { type: 'integer' }, kind: { anyOf: [{ const: 'a' }, { const: 'b' }] } },
      required: ['id'],
    };
    const created = await call({ method: 'POST', url: '/api/v1/schemas', key, json: document });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().warnings).toEqual([
      { code: 'schema', message: expect.stringMatching(/'anyOf' is not supported/) },
    ]);
    const id = created.json().schema_id as string;
    const replaced = await call({
      method: 'PUT',
      url: `/api/v1/schemas/${id}`,
      key,
      json: { ...document, patternProperties: { '^x': { type: 'string' } } },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().warnings.map((w: { message: string }) => w.message)).toEqual([
      expect.stringMatching(/patternProperties/),
      expect.stringMatching(/anyOf/),
    ]);
    const clean = await call({ method: 'PUT', url: `/api/v1/schemas/${id}`, key, json: PRODUCTS });
    expect(clean.json().warnings).toEqual([]);
  });

  it('names every schema rule it does not check in warnings (none is dropped silently)', async () => {
    const { key } = await withKey();
    const schema = {
      type: 'object',
      properties: { id: { type: 'integer' }, kind: { oneOf: [{ const: 'a' }, { const: 'b' }] } },
      required: ['id'],
    };
    const res = await call({
      method: 'POST',
      url: '/api/v1/validate',
      key,
      parts: [
        file('[{"id":1,"kind":"zzz"}]', 'rows.json'),
        { name: 'schema', value: JSON.stringify(schema) },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const warnings = res.json().warnings as Array<{ code: string; message: string }>;
    expect(warnings.filter((w) => w.code === 'schema').map((w) => w.message)).toEqual([
      expect.stringMatching(/oneOf/),
    ]);
  });

  it('every bad input gets a 4xx that says what to fix, and is not charged', async () => {
    const { key, userId } = await withKey();
    const id = await createSchema(key);
    const cases: [Call, number, string, RegExp?][] = [
      [{ url: '/api/v1/validate', parts: [file('a\n')] }, 400, 'invalid_upload', /schema_id/],
      [
        { url: `/api/v1/validate?schema_id=${crypto.randomUUID()}`, parts: [file('a\n')] },
        404,
        'not_found',
      ],
      [{ url: '/api/v1/validate?schema_id=nope', parts: [file('a\n')] }, 404, 'not_found'],
      [
        { url: `/api/v1/validate?schema_id=${id}`, parts: [file('x', 'sheet.xlsx')] },
        415,
        'unsupported_file',
      ],
      [
        { url: `/api/v1/validate?schema_id=${id}`, parts: [{ name: 'note', value: 'x' }] },
        400,
        'invalid_upload',
        /field named file/,
      ],
      [
        { url: `/api/v1/validate?schema_id=${id}`, parts: [file('a\n'), file('b\n')] },
        400,
        'invalid_upload',
      ],
      [
        {
          url: `/api/v1/validate?schema_id=${id}`,
          parts: [file('a\n'), { name: 'schema', value: '{}' }],
        },
        400,
        'invalid_upload',
        /not both/,
      ],
      [
        {
          url: '/api/v1/validate',
          parts: [{ name: 'schema', value: '{"fields": [' }, file('a\n')],
        },
        400,
        'invalid_schema',
      ],
      [
        { url: `/api/v1/validate?schema_id=${id}`, json: { file: 'a' } },
        415,
        'unsupported_media_type',
      ],
    ];
    for (const [c, status, code, message] of cases) {
      const res = await call({ method: 'POST', key, ...c });
      expect(res.statusCode, `${c.url} ${res.body}`).toBe(status);
      expect(res.json().code).toBe(code);
      if (message) expect(res.json().error).toMatch(message);
    }
    const garbled = await t.app.inject({
      method: 'POST',
      url: `/api/v1/validate?schema_id=${id}`,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'multipart/form-data; boundary=xyz',
      },
      payload: '--xyz\r\nContent-Disposition: garbage\r\n\r\nzzz',
    });
    expect(garbled.statusCode).toBe(400);
    expectDocumented('POST', '/api/v1/validate', garbled);
    expect(await validationsUsed(userId)).toBe(0);
  });

  it('sync limits: exactly 5 MB and 50,000 rows pass; one byte or one row more is 413 pointing to /v1/jobs', async () => {
    const { key, userId } = await withKey();
    const schema = {
      name: 's',
      type: 'csv',
      rules: { columns: [{ name: 'a', type: 'string', required: true }] },
    };
    const id = await createSchema(key, schema);
    const ofSize = (bytes: number) => {
      const header = 'a\n';
      const line = 'x'.repeat(199) + '\n';
      const n = Math.floor((bytes - header.length) / line.length);
      const rest = bytes - header.length - n * line.length;
      return Buffer.from(header + line.repeat(n) + (rest > 0 ? 'y'.repeat(rest - 1) + '\n' : ''));
    };
    const exact = ofSize(SYNC_MAX_BYTES);
    expect(exact.length).toBe(SYNC_MAX_BYTES);
    const ok = await call({
      method: 'POST',
      url: `/api/v1/validate?schema_id=${id}`,
      key,
      parts: [file(exact)],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const over = await call({
      method: 'POST',
      url: `/api/v1/validate?schema_id=${id}`,
      key,
      parts: [file(ofSize(SYNC_MAX_BYTES + 1))],
    });
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ code: 'sync_limit', limit: SYNC_MAX_BYTES });
    expect(over.json().error).toContain('/api/v1/jobs');

    const rows = (n: number) => 'a\n' + '1\n'.repeat(n);
    const okRows = await call({
      method: 'POST',
      url: `/api/v1/validate?schema_id=${id}`,
      key,
      parts: [file(rows(SYNC_MAX_ROWS))],
    });
    expect(okRows.statusCode).toBe(200);
    expect(okRows.json().stats.rows).toBe(SYNC_MAX_ROWS);
    const overRows = await call({
      method: 'POST',
      url: `/api/v1/validate?schema_id=${id}`,
      key,
      parts: [file(rows(SYNC_MAX_ROWS + 1))],
    });
    expect(overRows.statusCode).toBe(413);
    expect(overRows.json()).toMatchObject({ code: 'sync_limit', limit: SYNC_MAX_ROWS });
    expect(overRows.json().error).toContain('/api/v1/jobs');
    expect(await validationsUsed(userId)).toBe(2);
  });

  it('monthly limit: at limit − 1, of 10 parallel calls exactly one passes; the rest get 429 with Retry-After and the reset date', async () => {
    const { key, userId } = await withKey();
    const id = await createSchema(key);
    const limit = PLANS.business.limits.monthlyValidations!;
    await t.db.database.db
      .insert(usageCounters)
      .values({ userId, month: monthOf(t.clock.now()), count: limit - 1 });
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        call({
          method: 'POST',
          url: `/api/v1/validate?schema_id=${id}`,
          key,
          parts: [file(productsCsv(3))],
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, ...Array(9).fill(429)]);
    const refused = results.find((r) => r.statusCode === 429)!;
    expect(refused.json()).toMatchObject({
      code: 'monthly_limit',
      reset_date: '2026-04-01T00:00:00.000Z',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await validationsUsed(userId)).toBe(limit);

    const usage = await call({ url: '/api/v1/usage', key });
    expect(usage.json().validations).toEqual({
      used: limit,
      limit,
      remaining: 0,
      reset_date: '2026-04-01T00:00:00.000Z',
    });
    // Every call so far is counted by the time its answer arrives.
    expect(usage.json().api.calls).toBe(11);
  });
});

describe('rate limit, idempotency, errors', () => {
  it('sends RateLimit-* headers and refuses past the limit with 429 and Retry-After', async () => {
    // a second app on the same database, with a small limit
    const limited = await startTestApp({ db: t.db, env: { API_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const web = clientsOf(limited, 22)();
      await registerOnTier(limited, web, 'business', 'rl');
      const key = (await web.post('/api/api-keys', { name: 'k' })).json().key as string;
      const get = () =>
        limited.app.inject({ url: '/api/v1/usage', headers: { authorization: `Bearer ${key}` } });
      const first = await get();
      expect(first.headers).toMatchObject({
        'ratelimit-limit': '3',
        'ratelimit-remaining': '2',
        'ratelimit-reset': '60',
      });
      await get();
      // Another server on the same database counts against the same window.
      const other = await startTestApp({ db: t.db, env: { API_RATE_LIMIT_PER_MINUTE: '3' } });
      try {
        other.clock.t = limited.clock.t;
        const third = await other.app.inject({
          url: '/api/v1/usage',
          headers: { authorization: `Bearer ${key}` },
        });
        expect(third.headers['ratelimit-remaining']).toBe('0');
      } finally {
        await other.close();
      }
      const fourth = await get();
      expect(fourth.statusCode).toBe(429);
      expect(fourth.json().code).toBe('rate_limited');
      expect(fourth.headers['retry-after']).toBe('60');
      expectDocumented('GET', '/api/v1/usage', fourth);
      limited.clock.advance(60_000);
      expect((await get()).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('an account with a contract rate limit gets its own figure, on the next request', async () => {
    const { key, userId } = await withKey('enterprise');
    const get = () => call({ url: '/api/v1/usage', key });
    expect((await get()).headers['ratelimit-limit']).toBe('3000');
    // What npm run set-rate-limit writes.
    await t.db.database.db
      .update(users)
      .set({ apiRateLimitPerMinute: 2 })
      .where(eq(users.id, userId));
    const first = await get();
    expect(first.headers).toMatchObject({ 'ratelimit-limit': '2', 'ratelimit-remaining': '0' });
    expect(first.json().rate_limit).toMatchObject({ limit: 2 });
    expect((await get()).statusCode).toBe(429);
    await t.db.database.db
      .update(users)
      .set({ apiRateLimitPerMinute: null })
      .where(eq(users.id, userId));
    expect((await get()).headers['ratelimit-limit']).toBe('3000');
  });

  it('Idempotency-Key: the same request replays the first response; a different one is refused', async () => {
    const { key, userId } = await withKey();
    const headers = { 'idempotency-key': 'create-products-1' };
    const first = await call({
      method: 'POST',
      url: '/api/v1/schemas',
      key,
      json: PRODUCTS,
      headers,
    });
    const again = await call({
      method: 'POST',
      url: '/api/v1/schemas',
      key,
      json: PRODUCTS,
      headers,
    });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    const list = await call({ url: '/api/v1/schemas', key });
    expect(list.json().total).toBe(1);
    const different = await call({
      method: 'POST',
      url: '/api/v1/schemas',
      key,
      json: { ...PRODUCTS, name: 'Other' },
      headers,
    });
    expect(different.statusCode).toBe(422);
    expect(different.json().code).toBe('idempotency_mismatch');

    const id = first.json().schema_id as string;
    const vHeaders = { 'idempotency-key': 'validate-1' };
    const parts = [file(productsCsv(5))];
    const v1 = await call({
      method: 'POST',
      url: `/api/v1/validate?schema_id=${id}`,
      key,
      parts,
      headers: vHeaders,
    });
    const v2 = await call({
      method: 'POST',
      url: `/api/v1/validate?schema_id=${id}`,
      key,
      parts,
      headers: vHeaders,
    });
    expect(v2.json()).toEqual(v1.json());
    expect(await validationsUsed(userId)).toBe(1);
    const tooLong = await call({
      method: 'POST',
      url: '/api/v1/schemas',
      key,
      json: PRODUCTS,
      headers: { 'idempotency-key': 'x'.repeat(256) },
    });
    expect(tooLong.statusCode).toBe(400);
  });

  it('unknown paths are JSON 404, wrong methods 405, and the document is served', async () => {
    const { key } = await withKey();
    const missing = await t.app.inject({
      url: '/api/v1/nothing',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('not_found');
    const wrong = await t.app.inject({
      url: '/api/v1/validate',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
    const doc = await t.app.inject({ url: '/api/v1/openapi.json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toBe('3.1.0');
  });
});
