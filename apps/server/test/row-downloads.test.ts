import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { bytesSource, planInputs } from '@schemacheck/engine';
import { nodePlatform } from '@schemacheck/node-platform';
import { describe, expect, it } from 'vitest';
import { writeZip } from '../../../packages/engine/test/zip-writer.ts';
import { rowOutputKey } from '../src/reports/row-outputs.ts';
import { purgeExpiredResults } from '../src/validation/results.ts';
import { clientsOf, multipartBody, registerOnTier, testAppForFile, type Part } from './helpers.ts';

// The good rows back from the server (docs/decisions/205): after a validation with a full
// report, GET /api/v1/reports/{id}/valid and /invalid (and the web's /valid-rows, /invalid-rows)
// stream the rows that passed and the rows that failed in the input's form; a workbook's sheet
// comes back as CSV, a gzip or zip uncompressed; they go when the result goes.

// Two validation workers: the idle one writes the rows of each upload (docs/decisions/259), so
// these downloads are the outputs of that path end to end.
const t = testAppForFile({ env: { API_RATE_LIMIT_PER_MINUTE: '1000', VALIDATION_WORKERS: '2' } });
const newClient = clientsOf(t, 205);

const SCHEMA = JSON.stringify({
  name: 'products',
  fields: [
    { name: 'sku', type: 'string', required: true, validation: { pattern: '^[A-Z]{3}-\\d{4}$' } },
    { name: 'price', type: 'number', required: true, validation: { minValue: 0 } },
    { name: 'note', type: 'string' },
  ],
});
const CSV =
  'sku,price,note\n' +
  'ABC-0001,9.99,plain\n' +
  'bad,-1,"has, comma"\n' +
  'ABC-0002,0,"says ""hi"""\n' +
  'ABC-0003,-5\n';
const VALID = 'sku,price,note\r\nABC-0001,9.99,plain\r\nABC-0002,0,"says ""hi"""\r\n';
const INVALID_HEAD = 'sku,price,note,errors\r\n';

async function withKey(tier: 'business' | 'free' = 'business') {
  const web = newClient();
  await registerOnTier(t, web, tier, 'rows');
  if (tier === 'free') return { web, key: '' };
  const created = await web.post('/api/api-keys', { name: 'Rows' });
  expect(created.statusCode, created.body).toBe(201);
  return { web, key: created.json().key as string };
}

const form = (filename: string, content: Buffer | string, schema = SCHEMA): Part[] => [
  { name: 'schema', value: schema },
  { name: 'file', filename, content: Buffer.from(content) },
];

async function v1Validate(key: string, parts: Part[], query = '') {
  const body = multipartBody(parts);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/validate${query}`,
    headers: { ...body.headers, authorization: `Bearer ${key}` },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { report_id: string; error_count: number };
}

const get = (key: string, url: string) =>
  t.app.inject({ url, headers: { authorization: `Bearer ${key}` } });

async function rowsOf(key: string, id: string) {
  const valid = await get(key, `/api/v1/reports/${id}/valid`);
  const invalid = await get(key, `/api/v1/reports/${id}/invalid`);
  expect(valid.statusCode, valid.body).toBe(200);
  expect(invalid.statusCode, invalid.body).toBe(200);
  return { valid, invalid };
}

describe('GET /api/v1/reports/{id}/valid and /invalid', () => {
  it('gives the rows that passed as they were and the rows that failed with their errors', async () => {
    const { key } = await withKey();
    const { report_id } = await v1Validate(key, form('products.csv', CSV));
    const { valid, invalid } = await rowsOf(key, report_id);
    expect(valid.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(valid.headers['content-disposition']).toContain('valid-rows-products.csv');
    expect(valid.body).toBe(VALID);
    expect(invalid.headers['content-disposition']).toContain('invalid-rows-products.csv');
    const lines = invalid.body.split('\r\n');
    expect(lines[0]).toBe(INVALID_HEAD.trimEnd());
    expect(lines[1]).toBe(
      'bad,-1,"has, comma",sku: Must match the pattern ^[A-Z]{3}-\\d{4}$; price: Must be at least 0',
    );
    // A short row is padded to the header.
    expect(lines[2]).toMatch(/^ABC-0003,-5,,.*price: Must be at least 0$/);
    expect(lines).toHaveLength(4);
  });

  it('gives the same rows for the same data as CSV.gz, zip and a workbook (as CSV)', async () => {
    const { key } = await withKey();
    const plain = await rowsOf(key, (await v1Validate(key, form('p.csv', CSV))).report_id);
    const zip = writeZip([
      { name: 'p.csv', data: Buffer.from(CSV), deflate: true },
      { name: 'other.csv', data: Buffer.from('sku\n') },
    ]);
    for (const [name, bytes, query] of [
      ['p.csv.gz', gzipSync(CSV), ''],
      ['p.zip', zip, '?entry=p.csv'],
    ] as const) {
      const got = await rowsOf(key, (await v1Validate(key, form(name, bytes), query)).report_id);
      expect(got.valid.body, name).toBe(plain.valid.body);
      expect(got.invalid.body, name).toBe(plain.invalid.body);
      expect(got.valid.headers['content-disposition'], name).toContain('valid-rows-p.csv');
    }

    // A workbook written by openpyxl: its sheet comes back as CSV, the same as its CSV reading.
    const fixtures = new URL('../../../packages/engine/test/fixtures/xlsx/', import.meta.url);
    const book = readFileSync(new URL('cells-openpyxl.xlsx', fixtures));
    const expected = JSON.parse(readFileSync(new URL('expected.json', fixtures), 'utf8')) as {
      file: string;
      schema: unknown;
    }[];
    const schema = JSON.stringify(expected.find((c) => c.file === 'cells-openpyxl.xlsx')!.schema);
    const [planned] = await planInputs('book.xlsx', bytesSource(book), nodePlatform);
    const chunks: Uint8Array[] = [];
    for await (const chunk of (await planned!.open()).chunks) chunks.push(chunk);
    const sheetCsv = Buffer.concat(chunks);
    const fromBook = await rowsOf(
      key,
      (await v1Validate(key, form('people.xlsx', book, schema))).report_id,
    );
    const fromCsv = await rowsOf(
      key,
      (await v1Validate(key, form('people.csv', sheetCsv, schema))).report_id,
    );
    expect(fromBook.valid.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(fromBook.valid.headers['content-disposition']).toContain('valid-rows-people.csv');
    expect(fromBook.invalid.body.split('\r\n').length).toBeGreaterThan(2);
    expect(fromBook.valid.body).toBe(fromCsv.valid.body);
    expect(fromBook.invalid.body).toBe(fromCsv.invalid.body);
  });

  it('gives JSON back as an array or as NDJSON, as it came', async () => {
    const { key } = await withKey();
    const schema = JSON.stringify({
      name: 'n',
      fields: [{ name: 'n', type: 'number', required: true, validation: { minValue: 0 } }],
    });
    const array = await rowsOf(
      key,
      (
        await v1Validate(
          key,
          form('n.json', '[{"n":1},{"n":-2},{"n":12345678901234567890}]', schema),
        )
      ).report_id,
    );
    expect(array.valid.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(array.valid.headers['content-disposition']).toContain('valid-rows-n.json');
    expect(JSON.parse(array.invalid.body)).toEqual([{ n: -2 }]);
    // Big numbers keep their digits.
    expect(array.valid.body).toContain('12345678901234567890');
    const lines = await rowsOf(
      key,
      (await v1Validate(key, form('n.ndjson', '{"n":-1}\n{"n":3}\n', schema))).report_id,
    );
    expect(lines.valid.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(lines.valid.headers['content-disposition']).toContain('valid-rows-n.ndjson');
    expect(lines.valid.body).toBe('{"n":3}\n');
    expect(lines.invalid.body).toBe('{"n":-1}\n');
  });

  it("is the owner's only, and goes with the result", async () => {
    const { key } = await withKey();
    const { key: other } = await withKey();
    const { report_id } = await v1Validate(key, form('products.csv', CSV));
    expect((await get(other, `/api/v1/reports/${report_id}/valid`)).statusCode).toBe(404);
    expect((await get(key, `/api/v1/reports/not-an-id/invalid`)).statusCode).toBe(404);

    const later = new Date(t.clock.now().getTime() + 91 * 24 * 60 * 60 * 1000);
    await purgeExpiredResults(t.app.db, t.app.storage, later);
    expect((await get(key, `/api/v1/reports/${report_id}/valid`)).statusCode).toBe(404);
    for await (const { key: stored } of t.app.storage.list()) {
      expect(stored).not.toContain(report_id);
    }
    expect(rowOutputKey('u1', report_id, 'valid')).toBe(`u1/rows/${report_id}.valid`);
  });
});

describe('the web downloads of a stored result', () => {
  it('serve the rows to the owner on a plan with the full report, and say which plan otherwise', async () => {
    const { web } = await withKey();
    const body = multipartBody(form('products.csv', CSV));
    const res = await web.request({
      method: 'POST',
      url: '/api/validate',
      payload: body.payload,
      headers: body.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as string;
    const valid = await web.get(`/api/validation-results/${id}/valid-rows`);
    expect(valid.statusCode, valid.body).toBe(200);
    expect(valid.body).toBe(VALID);
    const invalid = await web.get(`/api/validation-results/${id}/invalid-rows`);
    expect(invalid.body.startsWith(INVALID_HEAD)).toBe(true);

    const { web: free } = await withKey('free');
    const freeBody = multipartBody(form('products.csv', CSV));
    const freeRun = await free.request({
      method: 'POST',
      url: '/api/validate',
      payload: freeBody.payload,
      headers: freeBody.headers,
    });
    expect(freeRun.statusCode, freeRun.body).toBe(200);
    const refused = await free.get(`/api/validation-results/${freeRun.json().id}/valid-rows`);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toMatch(/Pro plan/);
    expect((await free.get(`/api/validation-results/${id}/valid-rows`)).statusCode).toBe(404);
  });
});
