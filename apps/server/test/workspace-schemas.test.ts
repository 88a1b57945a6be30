import { PLANS, type SubscriptionTier } from '@schemacheck/contracts';
import { describe, expect, it } from 'vitest';
import { schemas } from '../src/db/schema.ts';
import { MAX_SAVED_SCHEMAS } from '../src/routes/schemas.ts';
import { type Client, clientsOf, registerOnTier, testAppForFile } from './helpers.ts';

const t = testAppForFile();
const newClient = clientsOf(t, 8);

async function signedIn(tier: SubscriptionTier) {
  const client = newClient();
  const { id } = await registerOnTier(t, client, tier, 'sc');
  return { client, id };
}

const SCHEMA = {
  name: 'Contacts',
  fileType: 'csv' as const,
  fields: [
    { name: 'email', type: 'email', required: true, validation: {} },
    { name: 'age', type: 'integer', required: false, validation: { minValue: 0, maxValue: 120 } },
  ],
  additionalColumns: false,
};

const patch = (client: Client, url: string, payload: unknown) =>
  client.request({ method: 'PATCH', url, payload: payload as object });
const del = (client: Client, url: string) => client.request({ method: 'DELETE', url });

describe('saved schemas', () => {
  it('create, list (own, newest first), read, rename, update, delete', async () => {
    const { client } = await signedIn('pro');
    const a = await client.post('/api/schemas', SCHEMA);
    expect(a.statusCode).toBe(201);
    const created = a.json();
    expect(created).toMatchObject({ ...SCHEMA, id: expect.any(String) });
    expect(Date.parse(created.createdAt)).toBe(t.clock.now().getTime());

    t.clock.advance(1000);
    const b = await client.post('/api/schemas', { ...SCHEMA, name: 'Second' });
    expect(b.statusCode).toBe(201);
    const list = await client.get('/api/schemas');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((s: { name: string }) => s.name)).toEqual(['Second', 'Contacts']);

    const renamed = await patch(client, `/api/schemas/${created.id}`, { name: '  Renamed ' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({
      name: 'Renamed',
      fields: SCHEMA.fields,
      additionalColumns: false,
    });
    const one = await client.get(`/api/schemas/${created.id}`);
    expect(one.json().name).toBe('Renamed');

    const updated = await patch(client, `/api/schemas/${created.id}`, {
      fields: [{ name: 'id', type: 'integer', required: true, validation: {} }],
      fileType: 'json',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      name: 'Renamed',
      fileType: 'json',
      fields: [{ name: 'id' }],
    });

    expect((await del(client, `/api/schemas/${created.id}`)).statusCode).toBe(204);
    expect((await client.get(`/api/schemas/${created.id}`)).statusCode).toBe(404);
    expect((await client.get('/api/schemas')).json()).toHaveLength(1);
  });

  it('refuses the free plan, for the list too', async () => {
    const { client } = await signedIn('free');
    expect(PLANS.free.limits.savedSchemas).toBe(false);
    const message = 'Saving and loading schemas is available on the Pro plan and above.';
    for (const res of [
      await client.get('/api/schemas'),
      await client.post('/api/schemas', SCHEMA),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        code: 'plan_required',
        error: message,
        request_id: expect.any(String),
      });
    }
  });

  it('checks the envelope (contracts) and the schema (engine, every problem by path)', async () => {
    const { client } = await signedIn('business');
    const blank = await client.post('/api/schemas', { ...SCHEMA, name: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toBe('Please enter a name for your schema.');
    const none = await client.post('/api/schemas', { ...SCHEMA, fields: [] });
    expect(none.json().error).toBe('Please add at least one field to your schema.');

    const bad = await client.post('/api/schemas', {
      ...SCHEMA,
      fields: [
        { name: 'a', type: 'string', required: true, validation: { pattern: '([' } },
        { name: 'b', type: 'integer', required: true, validation: { minValue: 5, maxValue: 1 } },
        { name: '', type: 'nope', required: true, validation: {} },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('invalid_schema');
    const paths = (bad.json().problems as { path: string }[]).map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining(['fields[0].validation.pattern', 'fields[2].name', 'fields[2].type']),
    );
    expect(paths.some((p) => p.startsWith('fields[1]'))).toBe(true);

    const ok = await client.post('/api/schemas', SCHEMA);
    const badPatch = await patch(client, `/api/schemas/${ok.json().id}`, {
      fields: [
        { name: 'x', type: 'string', required: true, validation: { minLength: 9, maxLength: 2 } },
      ],
    });
    expect(badPatch.statusCode).toBe(400);
    expect(badPatch.json().code).toBe('invalid_schema');
    const empty = await patch(client, `/api/schemas/${ok.json().id}`, {});
    expect(empty.statusCode).toBe(400);
  });

  it('another user’s schema is 404 for read, update and delete', async () => {
    const a = await signedIn('pro');
    const b = await signedIn('pro');
    const id = (await a.client.post('/api/schemas', SCHEMA)).json().id as string;
    expect((await b.client.get(`/api/schemas/${id}`)).statusCode).toBe(404);
    expect((await patch(b.client, `/api/schemas/${id}`, { name: 'mine' })).statusCode).toBe(404);
    expect((await del(b.client, `/api/schemas/${id}`)).statusCode).toBe(404);
    expect((await del(b.client, '/api/schemas/not-an-id')).statusCode).toBe(404);
    expect((await b.client.get('/api/schemas')).json()).toEqual([]);
    expect((await a.client.get(`/api/schemas/${id}`)).json().name).toBe('Contacts');
    // CSRF applies
    const noToken = await b.client.request({
      method: 'DELETE',
      url: `/api/schemas/${id}`,
      csrf: false,
    });
    expect(noToken.statusCode).toBe(403);
  });

  it('caps saved schemas per user', async () => {
    const { client, id } = await signedIn('pro');
    await t.db.database.db.insert(schemas).values(
      Array.from({ length: MAX_SAVED_SCHEMAS }, (_, i) => ({
        userId: id,
        name: `s${i}`,
        fileType: 'csv' as const,
        fields: SCHEMA.fields,
      })),
    );
    const res = await client.post('/api/schemas', SCHEMA);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'schema_limit',
      error: `You can save up to ${MAX_SAVED_SCHEMAS} schemas. Delete one to save another.`,
      request_id: expect.any(String),
    });
  });
});
