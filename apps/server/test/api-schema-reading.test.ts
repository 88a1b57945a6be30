import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { expectDocumented } from './api-contract.ts';
import { clientsOf, multipartBody, registerOnTier, testAppForFile, type Part } from './helpers.ts';

// Saved schemas are read by the engine from the body as sent, exactly as inline schemas, the CLI
// and the browser read them (docs/decisions/131, 132): a misspelt rule is refused with the rule
// meant, an unknown one is warned about, and bounds past 2^53 keep their digits.

const t = testAppForFile({ env: { API_RATE_LIMIT_PER_MINUTE: '1000' } });
const newClient = clientsOf(t, 62);

async function businessKey(): Promise<string> {
  const web = newClient();
  await registerOnTier(t, web, 'business', 'reading');
  const created = await web.post('/api/api-keys', { name: 'Pipeline' });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().key as string;
}

async function call(
  key: string,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body?: { json?: string; parts?: Part[] },
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  let payload: string | Buffer | undefined;
  if (body?.parts) {
    const form = multipartBody(body.parts);
    payload = form.payload;
    Object.assign(headers, form.headers);
  } else if (body?.json !== undefined) {
    payload = body.json;
    headers['content-type'] = 'application/json';
  }
  const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  expectDocumented(method, url, res);
  return res;
}

const apiSchema = (column: Record<string, unknown>) =>
  JSON.stringify({
    name: 'Codes',
    type: 'csv',
    rules: { columns: [{ name: 'code', type: 'string', required: true, ...column }] },
  });

describe('saved schemas are read like every other schema', () => {
  it('refuses a misspelt rule on POST and PUT, naming the rule meant', async () => {
    const key = await businessKey();
    const created = await call(key, 'POST', '/api/v1/schemas', {
      json: apiSchema({ maxLenght: 5 }),
    });
    expect(created.statusCode, created.body).toBe(400);
    expect(created.json()).toMatchObject({
      code: 'invalid_schema',
      problems: [
        {
          path: 'rules.columns[0].maxLenght',
          message: 'unknown rule; did you mean "maxLength"?',
        },
      ],
    });

    const ok = await call(key, 'POST', '/api/v1/schemas', { json: apiSchema({ maxLength: 5 }) });
    expect(ok.statusCode, ok.body).toBe(201);
    const id = ok.json().schema_id as string;
    const replaced = await call(key, 'PUT', `/api/v1/schemas/${id}`, {
      json: apiSchema({ validation: { patern: '^[A-Z]+$' } }),
    });
    expect(replaced.statusCode, replaced.body).toBe(400);
    expect(replaced.json().error).toBe(
      'The schema has problems: rules.columns[0].validation.patern: unknown rule; did you mean "pattern"?',
    );
  });

  it('warns about an unknown rule that is not a typo, as an inline schema does', async () => {
    const key = await businessKey();
    const created = await call(key, 'POST', '/api/v1/schemas', {
      json: apiSchema({ colour: 'red' }),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().warnings).toEqual([
      {
        code: 'schema',
        message: "Option 'colour' is not known and was ignored at rules.columns[0].colour",
      },
    ]);
    const inline = await call(key, 'POST', '/api/v1/validate', {
      parts: [
        { name: 'schema', value: apiSchema({ colour: 'red' }) },
        { name: 'file', filename: 'codes.csv', content: 'code\nAB\n' },
      ],
    });
    expect(inline.statusCode, inline.body).toBe(200);
    expect(inline.json().warnings).toEqual(created.json().warnings);
  });

  it('keeps a bound past 2^53 exact', async () => {
    const key = await businessKey();
    const text = JSON.stringify({
      name: 'Big',
      type: 'csv',
      rules: { columns: [{ name: 'n', type: 'integer', required: true, maxValue: 0 }] },
    }).replace('"maxValue":0', '"maxValue":9007199254740993');
    const created = await call(key, 'POST', '/api/v1/schemas', { json: text });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().schema_id as string;
    const valid = await call(key, 'POST', `/api/v1/validate?schema_id=${id}`, {
      parts: [{ name: 'file', filename: 'n.csv', content: 'n\n9007199254740993\n' }],
    });
    expect(valid.json()).toMatchObject({ valid: true, error_count: 0 });
  });

  it('stores no file type for a schema that implies none, so each file decides', async () => {
    const key = await businessKey();
    // A minimal Table Schema: nothing tells it from the web form, and it names no type.
    const created = await call(key, 'POST', '/api/v1/schemas', {
      json: JSON.stringify({ fields: [{ name: 'sku', type: 'string' }] }),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().type).toBeNull();
    const id = created.json().schema_id as string;
    expect((await call(key, 'GET', `/api/v1/schemas/${id}`)).json().type).toBeNull();

    const csv = await call(key, 'POST', `/api/v1/validate?schema_id=${id}`, {
      parts: [{ name: 'file', filename: 'items.csv', content: 'sku\nA1\n' }],
    });
    expect(csv.json()).toMatchObject({ valid: true, error_count: 0 });
    const json = await call(key, 'POST', `/api/v1/validate?schema_id=${id}`, {
      parts: [{ name: 'file', filename: 'items.json', content: '[{"sku":"A1"}]' }],
    });
    expect(json.json()).toMatchObject({ valid: true, error_count: 0 });

    // Forms that imply a type keep taking it.
    const table = await call(key, 'POST', '/api/v1/schemas', {
      json: JSON.stringify({ fields: [{ name: 'sku', type: 'string', constraints: {} }] }),
    });
    expect(table.json().type).toBe('csv');
    const jsonSchema = await call(key, 'POST', '/api/v1/schemas', {
      json: JSON.stringify({ type: 'object', properties: { sku: { type: 'string' } } }),
    });
    expect(jsonSchema.json().type).toBe('json');
  });
});
