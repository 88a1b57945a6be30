import { readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
  PLANS,
  RESULT_RETENTION_DAYS,
  STORED_ERRORS,
  type SubscriptionTier,
} from '@schemacheck/contracts';
import {
  createCsvReportWriter,
  parseSchemaText,
  validateBytes,
  type Issue,
  type ValidateOptions,
} from '@schemacheck/engine';
import { parse as parseCsv } from 'csv-parse/sync';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { usageCounters, users, validationResults } from '../src/db/schema.ts';
import { monthOf, usageFor } from '../src/validation/quota.ts';
import {
  Client,
  clientsOf,
  multipartBody,
  registerOnTier,
  testAppForFile,
  type Part,
} from './helpers.ts';

const t = testAppForFile();
const newClient = clientsOf(t, 7);

async function signedIn(tier: SubscriptionTier = 'free') {
  const client = newClient();
  return { client, ...(await registerOnTier(t, client, tier, 'ws')) };
}

const CSV_SCHEMA = {
  name: 'Products',
  fileType: 'csv',
  fields: [
    { name: 'sku', type: 'string', required: true, validation: { pattern: '^[A-Z]{3}-\\d{4}$' } },
    { name: 'price', type: 'number', required: true, validation: { minValue: 0, precision: 2 } },
    { name: 'email', type: 'email', required: false, validation: {} },
  ],
};
const JSON_SCHEMA = { ...CSV_SCHEMA, name: 'Products JSON', fileType: 'json' };

/** `rows` data rows; every `badEvery`th row has two errors. */
function productsCsv(rows: number, badEvery = 3): string {
  const lines = ['sku,price,email'];
  for (let i = 1; i <= rows; i++) {
    const bad = i % badEvery === 0;
    lines.push(
      `${bad ? 'bad' : 'ABC'}-${String(i % 10000).padStart(4, '0')},${bad ? '-1.5' : '9.99'},${
        bad ? 'not-an-email' : `u${i}@example.com`
      }`,
    );
  }
  return lines.join('\n') + '\n';
}

function productsJson(rows: number, ndjson = false): string {
  const recs = [];
  for (let i = 1; i <= rows; i++) {
    recs.push(
      JSON.stringify({
        sku: i % 4 === 0 ? 'nope' : `ABC-${String(i).padStart(4, '0')}`,
        price: i % 5 === 0 ? -3 : 1.25,
        ...(i % 7 === 0 ? { email: 'x@' } : {}),
      }),
    );
  }
  return ndjson ? recs.join('\n') + '\n' : `[${recs.join(',\n')}]`;
}

function validate(client: Client, parts: Part[], extra: Record<string, string> = {}) {
  const body = multipartBody(parts);
  return client.request({
    method: 'POST',
    url: '/api/validate',
    payload: body.payload,
    headers: { ...body.headers, ...extra },
  });
}

const form = (schema: unknown, content: string | Buffer, filename = 'products.csv'): Part[] => [
  { name: 'schema', value: typeof schema === 'string' ? schema : JSON.stringify(schema) },
  { name: 'file', filename, content },
];

function engine(
  schema: unknown,
  bytes: Buffer,
  options: Omit<ValidateOptions, 'maxErrors' | 'now'>,
) {
  const checked = parseSchemaText(JSON.stringify(schema));
  if (!checked.ok) throw new Error('bad test schema');
  const issues: Issue[] = [];
  const result = validateBytes(checked.value, bytes, {
    ...options,
    maxErrors: STORED_ERRORS,
    now: t.clock.now(),
    onIssue: (i) => issues.push(i),
  });
  return { result, issues };
}

async function usage(userId: string) {
  const [row] = await t.db.database.db
    .select()
    .from(usageCounters)
    .where(and(eq(usageCounters.userId, userId), eq(usageCounters.month, monthOf(t.clock.now()))));
  return row?.count ?? 0;
}

async function resultsOf(userId: string) {
  return t.db.database.db
    .select()
    .from(validationResults)
    .where(eq(validationResults.userId, userId));
}

function reportFiles(): string[] {
  const root = path.join(t.config.dataDir, 'reports');
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

async function setUsage(userId: string, count: number) {
  await t.db.database.db
    .insert(usageCounters)
    .values({ userId, month: monthOf(t.clock.now()), count })
    .onConflictDoUpdate({ target: [usageCounters.userId, usageCounters.month], set: { count } });
}

describe('POST /api/validate: results', () => {
  it('equal the engine’s for the same CSV bytes, and are stored', async () => {
    const { client, id } = await signedIn('pro');
    const csv = productsCsv(300);
    const res = await validate(client, form(CSV_SCHEMA, csv));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const { result } = engine(CSV_SCHEMA, Buffer.from(csv), { fileType: 'csv' });
    expect(body).toMatchObject({
      fileName: 'products.csv',
      fileType: 'csv',
      fileSize: Buffer.byteLength(csv),
      success: result.valid,
      totalRows: result.totalRows,
      validRows: result.validRows,
      invalidRows: result.invalidRows,
      errorCount: result.errorCount,
      errorsByField: result.errorsByField,
      errorsByCode: result.errorsByCode,
      warnings: result.warnings,
      reportAvailable: true,
    });
    expect(body.errors).toEqual(result.errors);
    expect(result.errorCount).toBeGreaterThan(0);
    expect(await usage(id)).toBe(1);

    const again = await client.get(`/api/validation-results/${body.id}`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(body);
    const [row] = await resultsOf(id);
    expect(row!.schemaUsed).toEqual(CSV_SCHEMA);
  });

  it('equal the engine’s for JSON and NDJSON (the name forces NDJSON)', async () => {
    const { client } = await signedIn('pro');
    const json = productsJson(120);
    const res = await validate(client, form(JSON_SCHEMA, json, 'items.json'));
    expect(res.statusCode).toBe(200);
    const { result } = engine(JSON_SCHEMA, Buffer.from(json), { fileType: 'json' });
    expect(res.json()).toMatchObject({
      fileType: 'json',
      errorCount: result.errorCount,
      totalRows: 120,
      errors: result.errors,
    });

    const nd = productsJson(50, true);
    const { fileType: _ft, ...noType } = JSON_SCHEMA;
    const res2 = await validate(client, form(noType, nd, 'items.ndjson'));
    expect(res2.statusCode).toBe(200);
    const e2 = engine(noType, Buffer.from(nd), { fileType: 'json', jsonShape: 'ndjson' });
    expect(res2.json()).toMatchObject({
      fileType: 'json',
      totalRows: 50,
      errorCount: e2.result.errorCount,
      errors: e2.result.errors,
    });
  });

  it('keep the first 1000 errors and count them all; the report holds every issue', async () => {
    const { client } = await signedIn('pro');
    const csv = productsCsv(3000, 2);
    const bytes = Buffer.from(csv);
    const res = await validate(client, form(CSV_SCHEMA, bytes, '../../Prüfung\u0007 ;list.csv'));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const { result, issues } = engine(CSV_SCHEMA, bytes, { fileType: 'csv' });
    expect(body.errorCount).toBe(result.errorCount);
    expect(body.errors).toHaveLength(STORED_ERRORS);
    expect(body.fileName).toBe('Prüfung ;list.csv');

    const report = await client.get(`/api/validation-results/${body.id}/error-report`);
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(report.headers['x-content-type-options']).toBe('nosniff');
    expect(report.headers['cache-control']).toBe('no-store');
    expect(report.headers['content-disposition']).toBe(
      `attachment; filename="error-report-Pr_fung _list.csv"; filename*=UTF-8''error-report-Pr%C3%BCfung%20%3Blist.csv`,
    );
    let expected = '';
    const writer = createCsvReportWriter((s) => (expected += s), { withPath: false });
    for (const i of issues) writer.add(i);
    expect(report.body).toBe(expected);
    const records = parseCsv(report.body, { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(result.errorCount);
    expect(records[0]).toEqual({
      row: String(issues[0]!.row),
      field: issues[0]!.field,
      code: issues[0]!.code,
      message: issues[0]!.message,
      value: issues[0]!.value?.startsWith('-') ? `'${issues[0]!.value}` : (issues[0]!.value ?? ''),
      severity: 'error',
      suggestion: '',
    });
  });

  it('gives JSON reports a path column', async () => {
    const { client } = await signedIn('business');
    const res = await validate(client, form(JSON_SCHEMA, productsJson(20), 'a.json'));
    const report = await client.get(`/api/validation-results/${res.json().id}/error-report`);
    expect(report.body.split('\r\n')[0]).toBe(
      'row,field,code,message,value,path,severity,suggestion',
    );
    expect(report.headers['content-disposition']).toContain('filename="error-report-a.csv"');
  });

  it('only the owner reads a result or its report; unknown and ill-formed ids are 404', async () => {
    const a = await signedIn('pro');
    const b = await signedIn('pro');
    const res = await validate(a.client, form(CSV_SCHEMA, productsCsv(10)));
    const id = res.json().id as string;
    for (const url of [
      `/api/validation-results/${id}`,
      `/api/validation-results/${id}/error-report`,
      '/api/validation-results/00000000-0000-4000-8000-000000000000',
      '/api/validation-results/not-a-uuid/error-report',
      "/api/validation-results/1'%20or%201=1",
    ]) {
      const r = await b.client.get(url);
      expect(r.statusCode, url).toBe(404);
      expect(r.json().code).toBe('not_found');
    }
    const anon = await t.app.inject({ method: 'GET', url: `/api/validation-results/${id}` });
    expect(anon.statusCode).toBe(401);
  });

  it('the CSP lets the web app start its engine worker from the same origin', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/csrf-token' });
    expect(String(res.headers['content-security-policy'])).toContain("worker-src 'self';");
  });

  it('refuses the report export on the free plan', async () => {
    const { client } = await signedIn('free');
    const res = await validate(client, form(CSV_SCHEMA, productsCsv(10)));
    expect(res.statusCode).toBe(200);
    expect(res.json().reportAvailable).toBe(false);
    const report = await client.get(`/api/validation-results/${res.json().id}/error-report`);
    expect(report.statusCode).toBe(403);
    expect(report.json()).toEqual({
      code: 'plan_required',
      error: 'Downloading the full error report is available on the Pro plan and above.',
      request_id: expect.any(String),
    });
  });
});

describe('POST /api/validate: refusals', () => {
  it('needs a session and a CSRF token', async () => {
    const { client } = await signedIn('pro');
    const body = multipartBody(form(CSV_SCHEMA, 'sku\n'));
    const noCsrf = await client.request({
      method: 'POST',
      url: '/api/validate',
      payload: body.payload,
      headers: body.headers,
      csrf: false,
    });
    expect(noCsrf.statusCode).toBe(403);
    const anon = new Client(t.app, '10.9.9.9');
    const r = await anon.request({
      method: 'POST',
      url: '/api/validate',
      payload: body.payload,
      headers: body.headers,
    });
    expect(r.statusCode).toBe(401);
  });

  it('unsupported, malformed, out of order, two files, bad schema: 4xx and never charged', async () => {
    const { client, id } = await signedIn('pro');
    const cases: [Part[] | { raw: Buffer; type: string }, number, string, string?][] = [
      [
        // A workbook by name whose bytes are not one: the engine's reason (docs/decisions/163).
        form(CSV_SCHEMA, 'a,b\n', 'sheet.xlsx'),
        415,
        'unsupported_file',
        'sheet.xlsx is not an Excel workbook (its content is not a zip): save it as .xlsx or CSV',
      ],
      [form(CSV_SCHEMA, 'MZ', 'setup.exe'), 415, 'unsupported_file'],
      [
        [
          { name: 'file', filename: 'a.csv', content: 'sku\n' },
          { name: 'schema', value: JSON.stringify(CSV_SCHEMA) },
          { name: 'schema', value: JSON.stringify(CSV_SCHEMA) },
        ],
        400,
        'invalid_upload',
      ],
      [[{ name: 'file', filename: 'a.csv', content: 'sku\n' }], 400, 'invalid_upload'],
      [
        [...form(CSV_SCHEMA, 'sku\n'), { name: 'file', filename: 'b.csv', content: 'sku\n' }],
        400,
        'invalid_upload',
      ],
      [[{ name: 'schema', value: JSON.stringify(CSV_SCHEMA) }], 400, 'invalid_upload'],
      [
        {
          raw: Buffer.from('--xyz\r\nContent-Disposition: garbage\r\n\r\nzzz'),
          type: 'multipart/form-data; boundary=xyz',
        },
        400,
        'invalid_upload',
      ],
      [{ raw: Buffer.from('hello'), type: 'multipart/form-data' }, 400, 'invalid_upload'],
    ];
    for (const [parts, status, code, message] of cases) {
      const res =
        'raw' in parts
          ? await client.request({
              method: 'POST',
              url: '/api/validate',
              payload: parts.raw,
              headers: { 'content-type': parts.type },
            })
          : await validate(client, parts);
      expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
      expect(res.json().code).toBe(code);
      if (message) expect(res.json().error).toBe(message);
    }
    const before = await validate(client, [
      { name: 'file', filename: 'a.csv', content: 'sku\n' },
      { name: 'schema', value: '{}' },
    ]);
    expect(before.json().code).toBe('invalid_schema');

    const json = await client.post('/api/validate', { schema: CSV_SCHEMA });
    expect([400, 415]).toContain(json.statusCode);

    const bad = await validate(
      client,
      form(
        {
          name: 'x',
          fileType: 'csv',
          fields: [
            { name: 'a', type: 'string', required: true, validation: { pattern: '(' } },
            { name: '', type: 'wat', required: true, validation: {} },
          ],
        },
        'a\n1\n',
      ),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('invalid_schema');
    const paths = (bad.json().problems as { path: string }[]).map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining(['fields[0].validation.pattern', 'fields[1].name', 'fields[1].type']),
    );
    const notJson = await validate(client, form('{"fields": [', 'a\n'));
    expect(notJson.json().code).toBe('invalid_schema');

    expect(await usage(id)).toBe(0);
    expect(await resultsOf(id)).toHaveLength(0);
  });
});

/** A CSV of exactly `bytes` bytes with `rows` data rows (header `sku,note`). */
function csvOfSize(bytes: number, rows: number): Buffer {
  const header = 'sku,note\n';
  const base = 'ABC-0001,'.length + 1;
  const room = bytes - header.length - rows * base;
  const per = Math.floor(room / rows);
  const lines = [header];
  for (let i = 0; i < rows; i++) {
    const pad = i === rows - 1 ? room - per * (rows - 1) : per;
    lines.push(`ABC-0001,${'x'.repeat(pad)}\n`);
  }
  const buf = Buffer.from(lines.join(''));
  if (buf.length !== bytes) throw new Error(`csvOfSize: ${buf.length} != ${bytes}`);
  return buf;
}

const SIMPLE = {
  name: 's',
  fileType: 'csv',
  fields: [
    { name: 'sku', type: 'string', required: true, validation: {} },
    { name: 'note', type: 'string', required: false, validation: {} },
  ],
};

describe('plan limits at their edges', () => {
  const free = PLANS.free.limits;

  it('file size: exactly the limit passes; one byte more is 413 and not charged', async () => {
    const { client, id } = await signedIn('free');
    const max = free.maxFileBytes!;
    const ok = await validate(client, form(SIMPLE, csvOfSize(max, 100)));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().fileSize).toBe(max);
    const over = await validate(client, form(SIMPLE, csvOfSize(max + 1, 100)));
    expect(over.statusCode).toBe(413);
    expect(over.json().code).toBe('file_too_large');
    expect(over.json().error).toBe("This file is larger than your plan's file size limit of 1 MB.");
    expect(over.json().error).toContain('file size');
    // Content-Length far over the limit: refused before the body is read
    const huge = await validate(client, form(SIMPLE, csvOfSize(3 * max, 100)));
    expect(huge.statusCode).toBe(413);
    expect(await usage(id)).toBe(1);
    expect(await resultsOf(id)).toHaveLength(1);
  });

  it('the file before the schema: the same result, bounded by the plan and never left on disk', async () => {
    const { client, id } = await signedIn('free');
    const max = free.maxFileBytes!;
    const fileFirst = (bytes: Buffer): Part[] => [
      { name: 'file', filename: 'products.csv', content: bytes },
      { name: 'schema', value: JSON.stringify(SIMPLE) },
    ];
    const ok = await validate(client, fileFirst(csvOfSize(max, 100)));
    expect(ok.statusCode, ok.body).toBe(200);
    const usual = await validate(client, form(SIMPLE, csvOfSize(max, 100)));
    const { id: _a, ...a } = ok.json();
    const { id: _b, ...b } = usual.json();
    expect(a).toEqual(b);
    const over = await validate(client, fileFirst(csvOfSize(max + 1, 100)));
    expect(over.statusCode).toBe(413);
    expect(over.json().code).toBe('file_too_large');
    expect(await usage(id)).toBe(2);
    expect(reportFiles().filter((f) => f.includes('spool'))).toEqual([]);
  });

  it('rows: exactly the limit passes; one row more is 422 and not charged', async () => {
    const { client, id } = await signedIn('free');
    const max = free.maxRows!;
    const ok = await validate(
      client,
      form(SIMPLE, productsCsv(max).replace(/^sku,price,email/, 'sku,note,x')),
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().totalRows).toBe(max);
    const over = await validate(
      client,
      form(SIMPLE, productsCsv(max + 1).replace(/^sku,price,email/, 'sku,note,x')),
    );
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({
      code: 'row_limit',
      error: 'This file has more than 500 rows, the limit of your plan.',
    });
    expect(await usage(id)).toBe(1);
    // a pro limit is checked the same way, far into a file
    const pro = await signedIn('pro');
    const proMax = PLANS.pro.limits.maxRows!;
    const big = await validate(pro.client, form(SIMPLE, `sku,note\n${'A,b\n'.repeat(proMax + 1)}`));
    expect(big.statusCode).toBe(422);
    expect(big.json().error).toContain('rows');
    const edge = await validate(pro.client, form(SIMPLE, `sku,note\n${'A,b\n'.repeat(proMax)}`));
    expect(edge.statusCode).toBe(200);
    expect(await usage(pro.id)).toBe(1);
  });

  it('monthly: the last validation passes, the next is 429 with the reset date', async () => {
    const { client, id } = await signedIn('free');
    const max = free.monthlyValidations!;
    await setUsage(id, max - 1);
    const ok = await validate(client, form(SIMPLE, 'sku,note\nA,b\n'));
    expect(ok.statusCode).toBe(200);
    expect(await usage(id)).toBe(max);
    const over = await validate(client, form(SIMPLE, 'sku,note\nA,b\n'));
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({
      code: 'monthly_limit',
      error: `You have used all ${max} validations for this month. Your limit resets on 1 April 2026.`,
    });
    expect(Number(over.headers['retry-after'])).toBe(
      (Date.parse('2026-04-01T00:00:00Z') - t.clock.now().getTime()) / 1000,
    );
    expect(await usage(id)).toBe(max);
  });

  it('20 parallel requests at limit − 1: exactly one succeeds', async () => {
    const { client, id } = await signedIn('pro');
    const max = PLANS.pro.limits.monthlyValidations!;
    await setUsage(id, max - 1);
    await client.token();
    const all = await Promise.all(
      Array.from({ length: 20 }, () => validate(client, form(SIMPLE, 'sku,note\nA,b\n'))),
    );
    const codes = all.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 429)).toHaveLength(19);
    expect(await usage(id)).toBe(max);
    expect(await resultsOf(id)).toHaveLength(1);
  });

  it('usage endpoint: numbers and reset date', async () => {
    const { client, id } = await signedIn('free');
    await validate(client, form(SIMPLE, 'sku,note\nA,b\n'));
    await validate(client, form(SIMPLE, 'sku,note\nA,b\n'));
    const res = await client.get('/api/auth/usage');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      hasLimit: true,
      used: 2,
      limit: free.monthlyValidations,
      remaining: free.monthlyValidations! - 2,
      resetDate: '2026-04-01T00:00:00.000Z',
    });
    await t.db.database.db
      .update(users)
      .set({ subscriptionTier: 'enterprise' })
      .where(eq(users.id, id));
    const ent = await client.get('/api/auth/usage');
    expect(ent.json()).toEqual({
      hasLimit: false,
      used: 2,
      limit: null,
      remaining: null,
      resetDate: '2026-04-01T00:00:00.000Z',
    });
    const anon = await t.app.inject({ method: 'GET', url: '/api/auth/usage' });
    expect(anon.statusCode).toBe(401);
    // a new month (UTC) starts at 0
    const db = t.db.database.db;
    expect((await usageFor(db, id, 'free', new Date('2026-03-31T23:59:59.999Z'))).used).toBe(2);
    expect(await usageFor(db, id, 'free', new Date('2026-04-01T00:00:00.000Z'))).toMatchObject({
      used: 0,
      resetDate: '2026-05-01T00:00:00.000Z',
    });
  });
});

describe('over a real socket', () => {
  let port = 0;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });

  /** Starts an upload whose file part is sent up to `sent` bytes, and returns the socket. */
  async function partialUpload(client: Client, sent: number, total: number) {
    const token = await client.token();
    const boundary = 'bnd123';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="schema"\r\n\r\n${JSON.stringify(SIMPLE)}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    // rows of 4 KB: the free plan's 500 rows are 2 MB, past its 1 MB size limit
    const row = `A,${'b'.repeat(4093)}\n`;
    const file = Buffer.from(`sku,note\n${row.repeat(Math.ceil(total / row.length))}`).subarray(
      0,
      total,
    );
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    let response = '';
    socket.on('data', (d) => (response += d.toString()));
    socket.on('error', () => {});
    socket.write(
      `POST /api/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\nx-csrf-token: ${token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
        `Content-Length: ${head.length + file.length + tail.length}\r\n\r\n`,
    );
    socket.write(head);
    socket.write(file.subarray(0, sent));
    return {
      socket,
      finish: () =>
        new Promise<string>((resolve) => {
          socket.on('end', () => resolve(response));
          socket.write(Buffer.concat([file.subarray(sent), tail]));
          const check = setInterval(() => {
            if (/\r\n\r\n\{.*\}$/s.test(response)) {
              clearInterval(check);
              socket.end();
              resolve(response);
            }
          }, 20);
        }),
    };
  }

  async function until(cond: () => boolean | Promise<boolean>, ms = 10_000) {
    const end = Date.now() + ms;
    while (!(await cond())) {
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('an aborted upload leaves nothing: no result, no report file, not charged, worker free', async () => {
    const { client, id } = await signedIn('pro');
    const up = await partialUpload(client, 200_000, 400_000);
    await until(() => t.app.validationPool.active === 1 && t.app.runningValidations.size === 1);
    await new Promise((r) => setTimeout(r, 100));
    up.socket.destroy();
    await until(() => t.app.runningValidations.size === 0 && t.app.validationPool.active === 0);
    expect(await usage(id)).toBe(0);
    expect(await resultsOf(id)).toHaveLength(0);
    expect(reportFiles().filter((f) => f.includes(id))).toEqual([]);
    // the server still answers, and the same user can validate again
    const again = await validate(client, form(SIMPLE, 'sku,note\nA,b\n'));
    expect(again.statusCode).toBe(200);
  });

  it('Free runs one validation at a time', async () => {
    const { client, id } = await signedIn('free');
    const up = await partialUpload(client, 1000, 50_000);
    await until(() => t.app.runningValidations.size === 1);
    const second = await validate(client, form(SIMPLE, 'sku,note\nA,b\n'));
    expect(second.statusCode).toBe(429);
    expect(second.json()).toMatchObject({
      code: 'validation_in_progress',
      error:
        'You can run one validation at a time on the Free plan. Wait for the current one to finish.',
    });
    const first = await up.finish();
    expect(first).toMatch(/^HTTP\/1.1 200/);
    expect(await usage(id)).toBe(1);
    await until(() => t.app.runningValidations.size === 0);
    const third = await validate(client, form(SIMPLE, 'sku,note\nA,b\n'));
    expect(third.statusCode).toBe(200);
  });

  it('a file over the limit sent for real is refused with 413 as soon as it is crossed', async () => {
    const { client, id } = await signedIn('free');
    const max = PLANS.free.limits.maxFileBytes!;
    const up = await partialUpload(client, max + 10, max + 500_000);
    const deadline = Date.now() + 10_000;
    let text = '';
    up.socket.on('data', (d) => (text += d.toString()));
    await until(() => /\r\n\r\n\{.*\}/s.test(text) || Date.now() > deadline);
    expect(text).toMatch(/^HTTP\/1.1 413/);
    expect(text).toContain('file size');
    up.socket.destroy();
    await until(() => t.app.runningValidations.size === 0);
    expect(await usage(id)).toBe(0);
  });
});

describe('account deletion', () => {
  it('removes the user’s report files', async () => {
    const { client, id, user } = await signedIn('pro');
    const res = await validate(client, form(CSV_SCHEMA, productsCsv(10)));
    expect(res.statusCode).toBe(200);
    expect(reportFiles().some((f) => f.includes(id))).toBe(true);
    const del = await client.post('/api/delete-account', { password: user.password });
    expect(del.statusCode).toBe(200);
    expect(reportFiles().some((f) => f.includes(id))).toBe(false);
    void RESULT_RETENTION_DAYS;
  });
});
