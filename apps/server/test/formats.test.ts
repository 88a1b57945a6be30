import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { bytesSource, planInputs } from '@schemacheck/engine';
import { describe, expect, it } from 'vitest';
import { nodePlatform } from '@schemacheck/node-platform';
import { writeZip } from '../../../packages/engine/test/zip-writer.ts';
import { clientsOf, multipartBody, registerOnTier, testAppForFile, type Part } from './helpers.ts';

// The formats beyond CSV and JSON through the server (docs/decisions/163): the same data as CSV,
// CSV.gz, a zip and the workbook gives the same errors through POST /api/v1/validate and the
// web's POST /api/validate, a workbook's errors carry their cell everywhere, and the files the
// engine will not read are refused with its reason.

const t = testAppForFile({ env: { API_RATE_LIMIT_PER_MINUTE: '1000' } });
const newClient = clientsOf(t, 31);

const FIXTURES = new URL('../../../packages/engine/test/fixtures/xlsx/', import.meta.url);
const WORKBOOK = readFileSync(new URL('cells-openpyxl.xlsx', FIXTURES));
const CASE = (
  JSON.parse(readFileSync(new URL('expected.json', FIXTURES), 'utf8')) as {
    file: string;
    schema: unknown;
  }[]
).find((c) => c.file === 'cells-openpyxl.xlsx')!;
const SCHEMA = JSON.stringify(CASE.schema);

/** The workbook's first sheet as the engine reads it: the same data, as a CSV file. */
async function sheetAsCsv(): Promise<Buffer> {
  const [planned] = await planInputs('book.xlsx', bytesSource(WORKBOOK), nodePlatform);
  const opened = await planned!.open();
  const chunks: Uint8Array[] = [];
  for await (const chunk of opened.chunks) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function withKey() {
  const web = newClient();
  await registerOnTier(t, web, 'business', 'fmt');
  const created = await web.post('/api/api-keys', { name: 'Formats' });
  expect(created.statusCode, created.body).toBe(201);
  return { web, key: created.json().key as string };
}

async function v1(key: string, parts: Part[], query = '') {
  const body = multipartBody(parts);
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/validate${query}`,
    headers: { ...body.headers, authorization: `Bearer ${key}` },
    payload: body.payload,
  });
}

async function web(client: ReturnType<typeof newClient>, parts: Part[]) {
  const body = multipartBody(parts);
  return client.request({
    method: 'POST',
    url: '/api/validate',
    payload: body.payload,
    headers: body.headers,
  });
}

const form = (filename: string, content: Buffer, extra: Part[] = []): Part[] => [
  { name: 'schema', value: SCHEMA },
  ...extra,
  { name: 'file', filename, content },
];

type Err = { row: number; column?: string; field?: string; code: string; message: string };
const key = (e: Err) => ({
  row: e.row,
  column: e.column ?? e.field,
  code: e.code,
  message: e.message,
});

describe('the same data as CSV, CSV.gz, zip and XLSX', () => {
  it('gives the same errors through /v1/validate and /api/validate, with cells for the workbook', async () => {
    const csv = await sheetAsCsv();
    const files: [string, Buffer][] = [
      ['people.csv', csv],
      ['people.csv.gz', gzipSync(csv)],
      // gzip found by its first bytes, whatever the name says
      ['people', gzipSync(csv)],
      ['people.zip', writeZip([{ name: 'export/people.csv', data: csv, deflate: true }])],
      ['people.xlsx', WORKBOOK],
    ];
    const { web: client, key: apiKey } = await withKey();
    const seen = new Map<string, unknown>();
    for (const [name, bytes] of files) {
      const api = await v1(apiKey, form(name, bytes));
      expect(api.statusCode, `${name}: ${api.body}`).toBe(200);
      const body = api.json();
      expect(body.error_count, name).toBeGreaterThan(0);
      seen.set(`v1 ${name}`, (body.sample_errors as Err[]).map(key));

      const page = await web(client, form(name, bytes));
      expect(page.statusCode, `${name}: ${page.body}`).toBe(200);
      seen.set(`web ${name}`, (page.json().errors as Err[]).map(key));

      const cells = (page.json().errors as { cell?: string }[]).map((e) => e.cell);
      const sampleCells = (body.sample_errors as { cell?: string }[]).map((e) => e.cell);
      if (name.endsWith('.xlsx')) {
        expect(cells.every((c) => typeof c === 'string' && c.startsWith('People!'))).toBe(true);
        expect(sampleCells).toEqual(cells.slice(0, sampleCells.length));
        // The stored report keeps the cell: CSV text and /v1 JSON alike.
        const report = await t.app.inject({
          url: `/api/v1/reports/${body.report_id}`,
          headers: { authorization: `Bearer ${apiKey}` },
        });
        expect(report.statusCode).toBe(200);
        expect(report.body.split('\r\n')[0]).toMatch(/,cell,severity,suggestion$/);
        expect(report.body).toContain('People!A3');
        const json = await t.app.inject({
          url: `/api/v1/reports/${body.report_id}?format=json`,
          headers: { authorization: `Bearer ${apiKey}` },
        });
        expect(json.statusCode).toBe(200);
        expect(json.json().errors[0].cell).toBe(sampleCells[0]);
      } else {
        expect(cells.every((c) => c === undefined)).toBe(true);
      }
    }
    const expected = seen.get('v1 people.csv');
    for (const [what, errors] of seen) {
      if (what.startsWith('v1')) expect(errors, what).toEqual(expected);
      else expect(errors, what).toEqual(seen.get('web people.csv'));
    }
  });

  it('reads the sheet or entry asked for', async () => {
    const csv = await sheetAsCsv();
    const { key: apiKey } = await withKey();
    const zip = writeZip([
      { name: 'a.csv', data: csv },
      { name: 'b.csv', data: 'id\n1\n' },
    ]);
    const several = await v1(apiKey, form('two.zip', zip));
    expect(several.statusCode, several.body).toBe(400);
    expect(several.body).toMatch(/entry/);
    const chosen = await v1(apiKey, form('two.zip', zip), '?entry=a.csv');
    expect(chosen.statusCode, chosen.body).toBe(200);
    const asField = await v1(apiKey, form('two.zip', zip, [{ name: 'entry', value: 'a.csv' }]));
    expect(asField.json().sample_errors).toEqual(chosen.json().sample_errors);

    const noSheet = await v1(apiKey, form('people.xlsx', WORKBOOK), '?sheet=Nope');
    expect(noSheet.statusCode, noSheet.body).toBe(400);
    const second = await v1(apiKey, form('people.xlsx', WORKBOOK), '?sheet=2');
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().stats.rows).toBe(2);
  });
});

describe('files the engine will not read', () => {
  it('refuses a gzip bomb and an .xls with a 4xx and the reason', async () => {
    const { web: client, key: apiKey } = await withKey();
    // 64 MiB of zeros in about 64 KiB: far past the ratio cap.
    const bomb = gzipSync(Buffer.alloc(64 << 20));
    const xls = readFileSync(new URL('binary.xlsb', FIXTURES));
    const ole = Buffer.alloc(4096);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(ole);

    for (const res of [
      await v1(apiKey, form('zeros.csv.gz', bomb)),
      await web(client, form('zeros.csv.gz', bomb)),
    ]) {
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.body).toMatch(/decompress/);
    }
    for (const res of [
      await v1(apiKey, form('old.xls', ole)),
      await web(client, form('old.xls', ole)),
    ]) {
      expect(res.statusCode, res.body).toBe(415);
      expect(res.body).toMatch(/save it as \.xlsx or CSV/);
    }
    const xlsb = await v1(apiKey, form('book.xlsb', xls));
    expect(xlsb.statusCode, xlsb.body).toBe(415);
    expect(xlsb.body).toMatch(/xlsx or CSV/);
  });

  it('counts the decompressed bytes against the plan limit, and says so', async () => {
    const { key: apiKey } = await withKey();
    // 6 MiB of lines with random digits: compressed well under the 5 MB sync limit and under
    // the ratio cap, decompressed past it.
    const lines: string[] = [];
    // (30,000 rows of about 210 bytes: under the 50,000-row sync limit too)
    for (let n = 0; n < 30_000; n++) {
      lines.push(`${randomBytes(12).toString('hex')},${'x'.repeat(160)},${n}\n`);
    }
    const big = Buffer.from(lines.join(''));
    const res = await v1(apiKey, form('big.csv.gz', gzipSync(big)));
    expect(res.statusCode, res.body).toBe(413);
    expect(res.body).toMatch(/decompressed/);
  });
});
