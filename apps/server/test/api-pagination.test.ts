import { describe, expect, it } from 'vitest';
import { expectDocumented } from './api-contract.ts';
import { multipartBody, testAppForFile } from './helpers.ts';
import { businessUser, SCHEMA } from './jobs-support.ts';

// Cursor pagination on the /v1 lists (docs/decisions/136): `starting_after=<id>` walks the list
// newest first and an item created between two pages is neither repeated nor skipped; the
// order is stable for items created in the same instant (created_at, then id, descending).

const t = testAppForFile();

type Auth = Record<string, string>;

async function get(auth: Auth, url: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: auth });
  expectDocumented('GET', url, res);
  return res;
}

async function createSchema(auth: Auth, name: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/schemas',
    headers: auth,
    payload: {
      name,
      type: 'csv',
      rules: { columns: [{ name: 'id', type: 'string', required: true }] },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { schema_id: string }).schema_id;
}

async function createJob(auth: Auth): Promise<string> {
  const form = multipartBody([
    { name: 'schema', value: SCHEMA },
    { name: 'file', filename: 'people.csv', content: 'id,email,score\n1,a@example.com,5\n' },
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/jobs',
    headers: { ...auth, ...form.headers },
    payload: form.payload,
  });
  expect(res.statusCode, res.body).toBe(202);
  return (res.json() as { job_id: string }).job_id;
}

describe('cursor pagination', () => {
  it('/v1/schemas: a schema created between pages is neither repeated nor skipped', async () => {
    const { auth } = await businessUser(t, 185, 'pages');
    // Three in one instant (the test clock stands still), two later: ties are ordered by id.
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await createSchema(auth, `S${i}`));
    t.clock.advance(1000);
    for (let i = 3; i < 5; i++) ids.push(await createSchema(auth, `S${i}`));

    const first = await get(auth, '/api/v1/schemas?limit=2');
    expect(first.json()).toMatchObject({ page: 1, limit: 2, total: 5, has_more: true });
    const seen: string[] = first.json().data.map((s: { schema_id: string }) => s.schema_id);

    // A new schema arrives while the client pages: with page=2 the list would shift by one and
    // repeat an item; after the cursor it does not.
    t.clock.advance(1000);
    const late = await createSchema(auth, 'late');
    const byNumber = (await get(auth, '/api/v1/schemas?limit=2&page=2')).json();
    expect(byNumber.data.map((s: { schema_id: string }) => s.schema_id)).toContain(seen[1]);

    let cursor = seen.at(-1)!;
    for (;;) {
      const res = await get(auth, `/api/v1/schemas?limit=2&starting_after=${cursor}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.page).toBeNull();
      expect(body.total).toBe(6);
      seen.push(...body.data.map((s: { schema_id: string }) => s.schema_id));
      if (!body.has_more) break;
      cursor = body.data.at(-1).schema_id;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen)).toEqual(new Set(ids));
    expect(seen).not.toContain(late);

    // Newest first, ties by id descending: the order is the one a page number walk gives.
    const all = (await get(auth, '/api/v1/schemas?limit=100')).json();
    expect(all.data.map((s: { schema_id: string }) => s.schema_id).slice(1)).toEqual(seen);
    const tied = ids.slice(0, 3).sort().reverse();
    expect(seen.slice(2)).toEqual(tied);
  });

  it('/v1/jobs: the same, within a status filter', async () => {
    const { auth } = await businessUser(t, 186, 'jobpages');
    const jobs = [await createJob(auth), await createJob(auth), await createJob(auth)];
    const first = (await get(auth, '/api/v1/jobs?status=queued&limit=1')).json();
    expect(first).toMatchObject({ total: 3, has_more: true });
    const seen: string[] = [first.data[0].job_id];
    t.clock.advance(1000);
    await createJob(auth);
    let cursor = seen[0]!;
    for (;;) {
      const body = (
        await get(auth, `/api/v1/jobs?status=queued&limit=1&starting_after=${cursor}`)
      ).json();
      seen.push(...body.data.map((j: { job_id: string }) => j.job_id));
      if (!body.has_more) break;
      cursor = body.data.at(-1).job_id;
    }
    expect(seen).toHaveLength(3);
    expect(new Set(seen)).toEqual(new Set(jobs));
  });

  it('a cursor that is not an item of the list, or with page, is a 400 that says so', async () => {
    const { auth } = await businessUser(t, 187, 'badcursor');
    const other = await businessUser(t, 188, 'othercursor');
    const foreign = await createSchema(other.auth, 'not yours');
    for (const q of [
      `starting_after=${foreign}`,
      'starting_after=00000000-0000-4000-8000-000000000000',
      'starting_after=nope',
      `starting_after=${await createSchema(auth, 'mine')}&page=2`,
    ]) {
      const res = await get(auth, `/api/v1/schemas?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json(), q).toMatchObject({ code: 'validation' });
      expect(res.json().error, q).toMatch(/starting_after/);
    }
  });
});
