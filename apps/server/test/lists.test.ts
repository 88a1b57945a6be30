import { PLANS, type SubscriptionTier } from '@schemacheck/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { users } from '../src/db/schema.ts';
import { expectDocumented } from './api-contract.ts';
import { clientsOf, multipartBody, registerOnTier, testAppForFile, type Part } from './helpers.ts';

// Reference lists (issue 22, docs/decisions/200-202): /v1/lists CRUD, the Profile page's
// /api/lists, plan limits, and validations (/v1/validate, saved schemas, /api/validate) that
// check `inList` against the account's lists, run cross-field rules of the API form, and say
// severity and "did you mean" in results and reports.

const t = testAppForFile({ env: { API_RATE_LIMIT_PER_MINUTE: '1000' } });
const newClient = clientsOf(t, 232);

async function withKey(tier: SubscriptionTier = 'business') {
  const web = newClient();
  await registerOnTier(t, web, tier, 'lists');
  const created = await web.post('/api/api-keys', { name: 'Lists' });
  expect(created.statusCode, created.body).toBe(201);
  return { web, key: created.json().key as string };
}

async function call(c: {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  key: string;
  json?: unknown;
  parts?: Part[];
}): Promise<LightMyRequestResponse> {
  const method = c.method ?? 'GET';
  const headers: Record<string, string> = { authorization: `Bearer ${c.key}` };
  let payload: string | Buffer | undefined;
  if (c.parts) {
    const body = multipartBody(c.parts);
    payload = body.payload;
    Object.assign(headers, body.headers);
  } else if (c.json !== undefined) {
    payload = JSON.stringify(c.json);
    headers['content-type'] = 'application/json';
  }
  const res = await t.app.inject({ method, url: c.url, headers, ...(payload ? { payload } : {}) });
  expectDocumented(method, c.url, res);
  return res;
}

const CATEGORIES = ['Income', 'Expense', 'Transfer'];

/** The API form with an inList column and cross-field rules (one of them a warning). */
const LEDGER = {
  name: 'Ledger',
  type: 'csv',
  rules: {
    columns: [
      { name: 'category', type: 'string', required: true, inList: 'categories' },
      { name: 'start', type: 'date', required: true },
      { name: 'end', type: 'date', required: true },
      { name: 'note', type: 'string', required: false },
    ],
    rules: [
      { kind: 'compare', left: 'end', op: '>=', right: 'start' },
      {
        kind: 'requiredWhen',
        field: 'note',
        when: { field: 'category', op: '=', value: 'Transfer' },
        severity: 'warning',
        message: '{field} is advised when category is {other}',
      },
    ],
  },
};

const LEDGER_CSV = [
  'category,start,end,note',
  'Income,2024-01-01,2024-01-31,ok',
  'Expnese,2024-02-01,2024-02-28,typo',
  'Transfer,2024-03-10,2024-03-01,',
].join('\n');

describe('/v1/lists', () => {
  it('creates, lists, reads, replaces, uploads and deletes lists, per account', async () => {
    const { key } = await withKey();
    const created = await call({
      method: 'POST',
      url: '/api/v1/lists',
      key,
      json: { name: 'categories', values: ['Income', 'Expense', 'Income', 'Transfer'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ name: 'categories', value_count: 3 });
    const id = created.json().list_id as string;

    const again = await call({
      method: 'POST',
      url: '/api/v1/lists',
      key,
      json: { name: 'categories', values: ['x'] },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'list_exists',
      error: 'A list named categories exists. Replace its values with PUT /v1/lists/categories.',
    });

    const bad = await call({
      method: 'POST',
      url: '/api/v1/lists',
      key,
      json: { name: 'no spaces allowed', values: ['x'] },
    });
    expect(bad.statusCode).toBe(400);

    const page = await call({ url: '/api/v1/lists', key });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({
      data: [{ list_id: id, name: 'categories', value_count: 3 }],
      total: 1,
      limits: { values_per_list: PLANS.business.limits.listValues, lists: 100 },
    });
    expect(page.json().data[0].values).toBeUndefined();

    const byName = await call({ url: '/api/v1/lists/categories', key });
    expect(byName.json().values).toEqual(CATEGORIES);
    const byId = await call({ url: `/api/v1/lists/${id}`, key });
    expect(byId.json().name).toBe('categories');

    const replaced = await call({
      method: 'PUT',
      url: `/api/v1/lists/${id}`,
      key,
      json: { values: [...CATEGORIES, 'Refund'] },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().value_count).toBe(4);

    // A CSV's column by header name; empty cells skipped, quotes read.
    const upload = await call({
      method: 'POST',
      url: '/api/v1/lists/upload',
      key,
      parts: [
        { name: 'name', value: 'countries' },
        { name: 'column', value: 'code' },
        {
          name: 'file',
          filename: 'countries.csv',
          content: 'name,code\r\nGermany,DE\r\n"France, Republic of",FR\r\nNowhere,\r\n',
        },
      ],
    });
    expect(upload.statusCode, upload.body).toBe(201);
    expect(upload.json().value_count).toBe(2);
    expect((await call({ url: '/api/v1/lists/countries', key })).json().values).toEqual([
      'DE',
      'FR',
    ]);
    // A text file, one value a line, replacing the list of that name.
    const text = await call({
      method: 'POST',
      url: '/api/v1/lists/upload',
      key,
      parts: [
        { name: 'name', value: 'countries' },
        { name: 'replace', value: 'true' },
        { name: 'file', filename: 'codes.txt', content: 'DE\nFR\nIT\n\n' },
      ],
    });
    expect(text.statusCode, text.body).toBe(200);
    expect(text.json().value_count).toBe(3);
    const taken = await call({
      method: 'POST',
      url: '/api/v1/lists/upload',
      key,
      parts: [
        { name: 'name', value: 'countries' },
        { name: 'file', filename: 'codes.txt', content: 'ES\n' },
      ],
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe(
      'A list named countries exists. Send replace=true to replace its values.',
    );

    // Another account sees none of them.
    const other = await withKey();
    expect((await call({ url: '/api/v1/lists/categories', key: other.key })).statusCode).toBe(404);
    expect((await call({ url: '/api/v1/lists', key: other.key })).json().total).toBe(0);

    const deleted = await call({ method: 'DELETE', url: '/api/v1/lists/countries', key });
    expect(deleted.statusCode).toBe(204);
    expect((await call({ url: '/api/v1/lists/countries', key })).statusCode).toBe(404);
  });

  it('stores every value of a list file over 1 MiB, and refuses one over 64 MB', async () => {
    const { key } = await withKey();
    const skus = Array.from({ length: 200_000 }, (_, i) => `SKU-${i}`);
    const content = skus.join('\n');
    expect(Buffer.byteLength(content)).toBeGreaterThan(1024 * 1024);
    const uploaded = await call({
      method: 'POST',
      url: '/api/v1/lists/upload',
      key,
      parts: [
        { name: 'name', value: 'skus' },
        { name: 'file', filename: 'skus.txt', content },
      ],
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.json().value_count).toBe(skus.length);
    expect((await call({ url: '/api/v1/lists/skus', key })).json().values).toEqual(skus);

    const tooBig = await call({
      method: 'POST',
      url: '/api/v1/lists/upload',
      key,
      parts: [
        { name: 'name', value: 'skus' },
        { name: 'replace', value: 'true' },
        { name: 'file', filename: 'skus.txt', content: Buffer.alloc(64 * 1024 * 1024 + 1, 'A\n') },
      ],
    });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toMatchObject({ code: 'list_too_large' });
    expect(tooBig.json().error).toContain('64 MB');
    expect((await call({ url: '/api/v1/lists/skus', key })).json().value_count).toBe(skus.length);
  });

  it('refuses a list file it could not store as sent, and keeps the list it would replace', async () => {
    const { key } = await withKey();
    const upload = (file: Part & { filename: string }, extra: Part[] = []) =>
      call({
        method: 'POST',
        url: '/api/v1/lists/upload',
        key,
        parts: [{ name: 'name', value: 'codes' }, ...extra, file],
      });
    const saved = await upload({ name: 'file', filename: 'codes.txt', content: 'DE\nFR\n' });
    expect(saved.statusCode, saved.body).toBe(201);

    const refusals: Array<[Part & { filename: string }, Part[], string]> = [
      [{ name: 'file', filename: 'codes.txt', content: '' }, [], 'The list file has no values'],
      [
        { name: 'file', filename: 'codes.txt', content: '\r\n\n\n' },
        [],
        'The list file has no values',
      ],
      [
        { name: 'file', filename: 'codes.csv', content: 'code,name\r\n,Germany\r\n' },
        [{ name: 'column', value: 'code' }],
        "The column 'code' of the CSV file has no values.",
      ],
      [
        { name: 'file', filename: 'codes.txt', content: Buffer.from('DE\nF\u0000R\n') },
        [],
        'NUL character (U+0000) on line 2',
      ],
      [
        { name: 'file', filename: 'codes.txt', content: `DE\n${'x'.repeat(10_000)}\n` },
        [],
        'at most 1,000 characters; one has 10,000',
      ],
    ];
    for (const [file, extra, message] of refusals) {
      const res = await upload(file, [...extra, { name: 'replace', value: 'true' }]);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_upload' });
      expect(res.json().error).toContain(message);
    }
    expect((await call({ url: '/api/v1/lists/codes', key })).json().values).toEqual(['DE', 'FR']);

    // The longest value a list given as JSON may have is taken from a file too.
    const longest = 'y'.repeat(1000);
    const atMost = await upload({ name: 'file', filename: 'codes.txt', content: `${longest}\n` }, [
      { name: 'replace', value: 'true' },
    ]);
    expect(atMost.statusCode, atMost.body).toBe(200);
    expect((await call({ url: '/api/v1/lists/codes', key })).json().values).toEqual([longest]);
  });

  it('renames a list and keeps its values, without sending them again', async () => {
    const { key } = await withKey();
    const big = Array.from({ length: 200_000 }, (_, i) => `SKU-${i}`);
    const uploaded = await call({
      method: 'POST',
      url: '/api/v1/lists/upload',
      key,
      parts: [
        { name: 'name', value: 'skus' },
        { name: 'file', filename: 'skus.txt', content: big.join('\n') },
      ],
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    await call({
      method: 'POST',
      url: '/api/v1/lists',
      key,
      json: { name: 'taken', values: ['x'] },
    });

    // Too long to send again within the 1 MB body limit of PUT.
    const put = await call({
      method: 'PUT',
      url: '/api/v1/lists/skus',
      key,
      json: { name: 'products', values: big },
    });
    expect(put.statusCode).toBe(413);

    const renamed = await call({
      method: 'PATCH',
      url: '/api/v1/lists/skus',
      key,
      json: { name: 'products' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({
      list_id: uploaded.json().list_id,
      name: 'products',
      value_count: big.length,
    });
    expect((await call({ url: '/api/v1/lists/skus', key })).statusCode).toBe(404);
    expect((await call({ url: '/api/v1/lists/products', key })).json().values).toEqual(big);

    const clash = await call({
      method: 'PATCH',
      url: '/api/v1/lists/products',
      key,
      json: { name: 'taken' },
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().code).toBe('list_exists');
    const bad = await call({
      method: 'PATCH',
      url: '/api/v1/lists/products',
      key,
      json: { name: 'a/b' },
    });
    expect(bad.statusCode).toBe(400);
    const other = await withKey();
    const theirs = await call({
      method: 'PATCH',
      url: `/api/v1/lists/${uploaded.json().list_id}`,
      key: other.key,
      json: { name: 'mine' },
    });
    expect(theirs.statusCode).toBe(404);
  });

  it("a list named like another list's id never stands for both", async () => {
    const { key } = await withKey();
    const first = await call({
      method: 'POST',
      url: '/api/v1/lists',
      key,
      json: { name: 'categories', values: CATEGORIES },
    });
    const id = first.json().list_id as string;
    // List names may look like UUIDs; this one is the first list's id.
    const twin = await call({
      method: 'POST',
      url: '/api/v1/lists',
      key,
      json: { name: id, values: ['x'] },
    });
    expect(twin.statusCode, twin.body).toBe(201);

    expect((await call({ url: `/api/v1/lists/${id}`, key })).json().name).toBe('categories');
    const replaced = await call({
      method: 'PUT',
      url: `/api/v1/lists/${id}`,
      key,
      json: { values: ['Refund'] },
    });
    expect(replaced.json()).toMatchObject({ list_id: id, name: 'categories', value_count: 1 });
    const deleted = await call({ method: 'DELETE', url: `/api/v1/lists/${id}`, key });
    expect(deleted.statusCode).toBe(204);
    const left = await call({ url: '/api/v1/lists', key });
    expect(left.json().data).toEqual([
      expect.objectContaining({ list_id: twin.json().list_id, name: id, value_count: 1 }),
    ]);
  });

  it("checks inList against the account's list, runs the API form's rules, says severity and suggestion", async () => {
    const { key } = await withKey();
    await call({
      method: 'POST',
      url: '/api/v1/lists',
      key,
      json: { name: 'categories', values: CATEGORIES },
    });
    const res = await call({
      method: 'POST',
      url: '/api/v1/validate',
      key,
      parts: [
        { name: 'schema', value: JSON.stringify(LEDGER) },
        { name: 'file', filename: 'ledger.csv', content: LEDGER_CSV },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.valid).toBe(false);
    expect(body.error_count).toBe(2);
    expect(body.sample_errors).toEqual([
      {
        row: 3,
        column: 'category',
        code: 'in_list',
        message: 'Must be a value of the list categories. Did you mean "Expense"?',
        value: 'Expnese',
        severity: 'error',
        suggestion: 'Expense',
      },
      expect.objectContaining({ row: 4, column: 'end', code: 'compare', severity: 'error' }),
    ]);
    expect(body.warning_count).toBe(1);
    expect(body.sample_warnings).toEqual([
      expect.objectContaining({
        row: 4,
        column: 'note',
        code: 'required_when',
        severity: 'warning',
        message: 'note is advised when category is Transfer',
      }),
    ]);

    const csv = await call({ url: `/api/v1/reports/${body.report_id}`, key });
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('row,field,code,message,value,severity,suggestion');
    expect(lines).toContain(
      '3,category,in_list,"Must be a value of the list categories. Did you mean ""Expense""?",Expnese,error,Expense',
    );
    expect(
      lines.some((l) => l.startsWith('4,note,required_when,') && l.endsWith(',warning,')),
    ).toBe(true);
    const json = await call({ url: `/api/v1/reports/${body.report_id}?format=json`, key });
    expect(json.json().errors).toContainEqual(
      expect.objectContaining({ code: 'in_list', severity: 'error', suggestion: 'Expense' }),
    );
    expect(json.json().errors).toContainEqual(
      expect.objectContaining({ code: 'required_when', severity: 'warning' }),
    );
  });

  it('keeps the rules of a saved schema and validates with them by schema_id', async () => {
    const { key } = await withKey();
    await call({
      method: 'POST',
      url: '/api/v1/lists',
      key,
      json: { name: 'categories', values: CATEGORIES },
    });
    const saved = await call({ method: 'POST', url: '/api/v1/schemas', key, json: LEDGER });
    expect(saved.statusCode, saved.body).toBe(201);
    const id = saved.json().schema_id as string;
    const read = await call({ url: `/api/v1/schemas/${id}`, key });
    expect(read.json().rules.rules).toEqual(LEDGER.rules.rules);
    expect(read.json().rules.columns[0].validation.inList).toBe('categories');

    const res = await call({
      method: 'POST',
      url: `/api/v1/validate?schema_id=${id}`,
      key,
      parts: [{ name: 'file', filename: 'ledger.csv', content: LEDGER_CSV }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().sample_errors.map((e: { code: string }) => e.code)).toEqual([
      'in_list',
      'compare',
    ]);

    // A rule naming a column the schema lacks is refused by path.
    const refused = await call({
      method: 'POST',
      url: '/api/v1/schemas',
      key,
      json: {
        ...LEDGER,
        rules: { ...LEDGER.rules, rules: [{ kind: 'compare', left: 'end', op: '>=', right: 'x' }] },
      },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().problems[0].path).toBe('rules.rules[0].right');
  });

  it('a list that was not saved is a schema warning, and the other checks still run', async () => {
    const { key } = await withKey();
    const res = await call({
      method: 'POST',
      url: '/api/v1/validate',
      key,
      parts: [
        { name: 'schema', value: JSON.stringify(LEDGER) },
        { name: 'file', filename: 'ledger.csv', content: LEDGER_CSV },
      ],
    });
    expect(res.json().error_count).toBe(1);
    // Worded for the web and the API, not as the CLI's "was not given" (a --list to pass).
    expect(res.json().warnings).toContainEqual({
      code: 'schema',
      message:
        "This account has no list named 'categories', so field 'category' was not checked against it. Save a list of that name, or correct the list's name in the schema.",
    });
  });
});

/** The dashboard's validation (POST /api/validate) of `csv` with one inList field. */
async function validateOnWeb(web: ReturnType<typeof newClient>, list: string, csv: string) {
  const form = multipartBody([
    {
      name: 'schema',
      value: JSON.stringify({
        name: 'Ledger',
        fileType: 'csv',
        fields: [
          { name: 'category', type: 'string', required: true, validation: { inList: list } },
        ],
      }),
    },
    { name: 'file', filename: 'ledger.csv', content: csv },
  ]);
  const res = await web.request({
    method: 'POST',
    url: '/api/validate',
    payload: form.payload,
    headers: form.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    errors: { code: string }[];
    warnings: { code: string; message: string }[];
  };
}

describe("lists over the plan's limit (docs/decisions/260)", () => {
  it('after a downgrade a longer list is kept and shown over the limit, and validations warn instead of checking it', async () => {
    const web = newClient();
    const { id } = await registerOnTier(t, web, 'business', 'listdown');
    const setTier = (tier: SubscriptionTier) =>
      t.db.database.db.update(users).set({ subscriptionTier: tier }).where(eq(users.id, id));
    const limit = PLANS.pro.limits.listValues;
    const long = [...CATEGORIES, ...Array.from({ length: limit - 2 }, (_, i) => `C${i}`)];
    expect((await web.post('/api/lists', { name: 'big', values: long })).statusCode).toBe(201);
    expect((await web.post('/api/lists', { name: 'small', values: CATEGORIES })).statusCode).toBe(
      201,
    );
    const csv = 'category\nIncome\nExpnese\n';
    const flags = async () =>
      Object.fromEntries(
        ((await web.get('/api/lists')).json().lists as { name: string; over_limit: boolean }[]).map(
          (l) => [l.name, l.over_limit],
        ),
      );

    expect(await flags()).toEqual({ big: false, small: false });
    expect((await validateOnWeb(web, 'big', csv)).errors).toEqual([
      expect.objectContaining({ code: 'in_list', suggestion: 'Expense' }),
    ]);

    await setTier('pro');
    expect(await flags()).toEqual({ big: true, small: false });
    const pro = await validateOnWeb(web, 'big', csv);
    expect(pro.errors).toEqual([]);
    expect(pro.warnings).toContainEqual({
      code: 'schema',
      message:
        "The list 'big' has 10,001 values, more than the 10,000 a list the Pro plan allows, so field 'category' was not checked against it. The list is kept: replace it with a list of at most 10,000 values, or change to a plan that allows more.",
    });
    // A list within the limit is still checked.
    expect((await validateOnWeb(web, 'small', csv)).errors).toHaveLength(1);

    await setTier('free');
    expect(await flags()).toEqual({ big: true, small: true });
    const free = await validateOnWeb(web, 'small', csv);
    expect(free.errors).toEqual([]);
    expect(free.warnings).toContainEqual({
      code: 'schema',
      message:
        "The list 'small' has 3 values, but the Free plan has no saved lists, so field 'category' was not checked against it. The list is kept: change to a plan with saved lists (Pro, Business, Enterprise) to use it, or give the field its allowed values instead.",
    });

    // Nothing was deleted: back on Business both are checked again.
    await setTier('business');
    expect(await flags()).toEqual({ big: false, small: false });
    expect((await validateOnWeb(web, 'big', csv)).errors).toHaveLength(1);
  });

  it('/v1/lists and /v1/lists/{list} say over_limit', async () => {
    const { key } = await withKey();
    await call({ method: 'POST', url: '/api/v1/lists', key, json: { name: 'c', values: ['A'] } });
    expect((await call({ url: '/api/v1/lists', key })).json().data).toEqual([
      expect.objectContaining({ name: 'c', value_count: 1, over_limit: false }),
    ]);
    expect((await call({ url: '/api/v1/lists/c', key })).json()).toMatchObject({
      over_limit: false,
      values: ['A'],
    });
  });
});

describe('list uploads count their values as they arrive', () => {
  const limit = PLANS.pro.limits.listValues;
  const upload = (web: ReturnType<typeof newClient>, parts: Part[]) => {
    const body = multipartBody(parts);
    return web.request({
      method: 'POST',
      url: '/api/lists',
      payload: body.payload,
      headers: body.headers,
    });
  };

  it("stops at the first value past the plan's limit, before the rest of the file", async () => {
    const pro = newClient();
    await registerOnTier(t, pro, 'pro', 'liststream');
    const over = Array.from({ length: limit + 1 }, (_, i) => `V${i}`).join('\n');
    // What follows the limit is never read: a byte that is not UTF-8 there would be a 400.
    const content = Buffer.concat([Buffer.from(`${over}\n`), Buffer.from([0xff, 0x0a])]);
    const res = await upload(pro, [
      { name: 'name', value: 'codes' },
      { name: 'file', filename: 'codes.txt', content },
    ]);
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toMatchObject({
      code: 'list_too_large',
      error: 'The list has more than 10,000 values; the Pro plan allows 10,000 values a list.',
      limit,
    });
    // A CSV column the same way.
    const csv = `id,code\n${Array.from({ length: limit + 1 }, (_, i) => `${i},C${i}`).join('\n')}\n\xff`;
    const byColumn = await upload(pro, [
      { name: 'name', value: 'codes' },
      { name: 'column', value: 'code' },
      { name: 'file', filename: 'codes.csv', content: Buffer.from(csv, 'latin1') },
    ]);
    expect(byColumn.statusCode, byColumn.body).toBe(413);
    expect(byColumn.json().code).toBe('list_too_large');

    // Repeated values count once: more lines than the limit, few values.
    const repeated = Array.from({ length: 3 * limit }, (_, i) => `R${i % 3}`).join('\n');
    const ok = await upload(pro, [
      { name: 'name', value: 'codes' },
      { name: 'file', filename: 'codes.txt', content: repeated },
    ]);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().value_count).toBe(3);
  });

  it('refuses replace other than true or false, on the web and /v1', async () => {
    const web = newClient();
    await registerOnTier(t, web, 'pro', 'listreplace');
    const parts = (replace: string): Part[] => [
      { name: 'name', value: 'codes' },
      { name: 'replace', value: replace },
      { name: 'file', filename: 'codes.txt', content: 'A\nB\n' },
    ];
    const yes = await upload(web, parts('yes'));
    expect(yes.statusCode, yes.body).toBe(400);
    expect(yes.json()).toMatchObject({
      code: 'validation',
      error: "replace is true or false (replace the values of a list of that name); it was 'yes'.",
    });
    expect((await upload(web, parts('false'))).statusCode).toBe(201);
    expect((await upload(web, parts('true'))).statusCode).toBe(200);

    const { key } = await withKey();
    const v1 = await call({ method: 'POST', url: '/api/v1/lists/upload', key, parts: parts('1') });
    expect(v1.statusCode, v1.body).toBe(400);
    expect(v1.json().error).toContain('replace is true or false');
  });
});

describe('saving a schema that names a list', () => {
  const missing =
    "This account has no list named 'categories', so validations will not check field 'category' against it. Save a list of that name, or correct the list's name in the schema.";

  it('/v1/schemas warns about a list the account does not have, on create and replace', async () => {
    const { key } = await withKey();
    const created = await call({ method: 'POST', url: '/api/v1/schemas', key, json: LEDGER });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().warnings).toEqual([{ code: 'schema', message: missing }]);
    const id = created.json().schema_id as string;
    const replaced = await call({ method: 'PUT', url: `/api/v1/schemas/${id}`, key, json: LEDGER });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().warnings).toEqual([{ code: 'schema', message: missing }]);

    // Once the list is saved, no warning.
    await call({
      method: 'POST',
      url: '/api/v1/lists',
      key,
      json: { name: 'categories', values: CATEGORIES },
    });
    const again = await call({ method: 'PUT', url: `/api/v1/schemas/${id}`, key, json: LEDGER });
    expect(again.json().warnings).toEqual([]);
  });

  it("the dashboard's save warns too, and about a list over the plan's limit", async () => {
    const web = newClient();
    const { id } = await registerOnTier(t, web, 'business', 'listsave');
    const schema = {
      name: 'Ledger',
      fileType: 'csv',
      fields: [
        { name: 'category', type: 'string', required: true, validation: { inList: 'categories' } },
        { name: 'code', type: 'string', required: true, validation: { inList: 'codes' } },
      ],
    };
    const codes = Array.from({ length: PLANS.pro.limits.listValues + 1 }, (_, i) => `K${i}`);
    expect((await web.post('/api/lists', { name: 'codes', values: codes })).statusCode).toBe(201);
    const saved = await web.post('/api/schemas', schema);
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json()).toMatchObject({
      name: 'Ledger',
      warnings: [{ code: 'schema', message: missing }],
    });

    await t.db.database.db.update(users).set({ subscriptionTier: 'pro' }).where(eq(users.id, id));
    const patched = await web.request({
      method: 'PATCH',
      url: `/api/schemas/${saved.json().id}`,
      payload: { name: 'Ledger 2' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().warnings).toEqual([
      { code: 'schema', message: missing },
      {
        code: 'schema',
        message:
          "The list 'codes' has 10,001 values, more than the 10,000 a list the Pro plan allows, so validations will not check field 'code' against it. The list is kept: replace it with a list of at most 10,000 values, or change to a plan that allows more.",
      },
    ]);
  });
});

describe('/api/lists (the Profile page)', () => {
  it("holds the plan's limits: none on Free, 10,000 values on Pro", async () => {
    const free = newClient();
    await registerOnTier(t, free, 'free', 'listfree');
    const none = await free.post('/api/lists', { name: 'codes', values: ['A'] });
    expect(none.statusCode).toBe(403);
    expect(none.json().code).toBe('plan_required');
    expect((await free.get('/api/lists')).json().limits).toEqual({ values_per_list: 0, lists: 0 });

    const pro = newClient();
    await registerOnTier(t, pro, 'pro', 'listpro');
    const limit = PLANS.pro.limits.listValues;
    const many = Array.from({ length: limit + 1 }, (_, i) => `V${i}`);
    const over = await pro.post('/api/lists', { name: 'codes', values: many });
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ code: 'list_too_large' });
    expect(over.json().error).toContain('10,000');
    const atLimit = await pro.post('/api/lists', { name: 'codes', values: many.slice(0, limit) });
    expect(atLimit.statusCode, atLimit.body).toBe(201);

    const body = multipartBody([
      { name: 'name', value: 'categories' },
      { name: 'file', filename: 'categories.txt', content: CATEGORIES.join('\r\n') },
    ]);
    const uploaded = await pro.request({
      method: 'POST',
      url: '/api/lists',
      payload: body.payload,
      headers: body.headers,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    // A Pro list at its limit whose file is over 1 MiB is stored whole.
    const long = Array.from(
      { length: limit },
      (_, i) => `${String(i).padStart(5, '0')}-${'x'.repeat(120)}`,
    );
    const longBody = multipartBody([
      { name: 'name', value: 'long' },
      { name: 'file', filename: 'long.txt', content: long.join('\n') },
    ]);
    const longSaved = await pro.request({
      method: 'POST',
      url: '/api/lists',
      payload: longBody.payload,
      headers: longBody.headers,
    });
    expect(longSaved.statusCode, longSaved.body).toBe(201);
    expect(longSaved.json().value_count).toBe(limit);
    expect((await pro.request({ method: 'DELETE', url: '/api/lists/long' })).statusCode).toBe(204);

    const listed = (await pro.get('/api/lists')).json();
    expect(listed.limits).toEqual({ values_per_list: limit, lists: 100 });
    expect(
      // Both were made at the test clock's one instant: compared without their order.
      listed.lists
        .map((l: { name: string; value_count: number }) => [l.name, l.value_count])
        .sort(),
    ).toEqual([
      ['categories', 3],
      ['codes', limit],
    ]);

    // The dashboard's validation uses the account's lists too.
    const form = multipartBody([
      {
        name: 'schema',
        value: JSON.stringify({
          name: 'Ledger',
          fileType: 'csv',
          fields: [
            {
              name: 'category',
              type: 'string',
              required: true,
              validation: { inList: 'categories' },
            },
          ],
        }),
      },
      { name: 'file', filename: 'ledger.csv', content: 'category\nIncome\nincome\n' },
    ]);
    const validated = await pro.request({
      method: 'POST',
      url: '/api/validate',
      payload: form.payload,
      headers: form.headers,
    });
    expect(validated.statusCode, validated.body).toBe(200);
    expect(validated.json().errors).toEqual([
      expect.objectContaining({ row: 3, code: 'in_list', suggestion: 'Income' }),
    ]);

    // Profile renames a list (with the CSRF token, as every change).
    const rename = (payload: unknown, csrf?: boolean) =>
      pro.request({
        method: 'PATCH',
        url: '/api/lists/categories',
        payload: payload as object,
        ...(csrf === undefined ? {} : { csrf }),
      });
    expect((await rename({ name: 'ledger' }, false)).statusCode).toBe(403);
    expect((await rename({ name: 'codes' })).json().code).toBe('list_exists');
    // Profile has no API to point at: a name in use says what the page can do.
    const again = await pro.post('/api/lists', { name: 'codes', values: ['A'] });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'list_exists',
      error: 'A list named codes exists. Choose another name, or delete that list first.',
    });
    const renamed = await rename({ name: 'ledger' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'ledger', value_count: 3 });
    const back = await pro.request({
      method: 'PATCH',
      url: '/api/lists/ledger',
      payload: { name: 'categories' },
    });
    expect(back.statusCode, back.body).toBe(200);

    const gone = await pro.request({ method: 'DELETE', url: '/api/lists/categories' });
    expect(gone.statusCode).toBe(204);
    expect((await pro.get('/api/lists')).json().lists).toHaveLength(1);
  });
});
