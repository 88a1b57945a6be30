import { count, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import type { User } from '../src/db/schema.ts';
import { clientsOf, newUser, testAppForFile } from './helpers.ts';

const t = testAppForFile();
const client = clientsOf(t, 2);

/** One row in every table a user owns. */
async function fillOwnedRows(userId: string) {
  const db = t.db.database.db;
  const [s] = await db
    .insert(schema.schemas)
    .values({
      userId,
      name: 'Products',
      fileType: 'csv',
      fields: [{ name: 'sku', type: 'string' }],
    })
    .returning();
  const [r] = await db
    .insert(schema.validationResults)
    .values({
      userId,
      schemaId: s!.id,
      fileName: 'a.csv',
      fileSize: 10,
      fileType: 'csv',
      schemaUsed: {},
    })
    .returning();
  const [k] = await db
    .insert(schema.apiKeys)
    .values({ userId, name: 'ci', keyPrefix: 'sc_abcd', keyHash: `hash-${userId}` })
    .returning();
  await db
    .insert(schema.validationJobs)
    .values({ userId, schemaId: s!.id, fileName: 'big.csv', fileSize: 1e9, resultId: r!.id });
  await db.insert(schema.webhooks).values({
    userId,
    url: 'https://example.com/hook',
    secret: 'whsec_x',
    events: ['job.completed'],
  });
  await db.insert(schema.apiUsage).values({
    userId,
    apiKeyId: k!.id,
    endpoint: '/api/v1/validate',
    method: 'POST',
    responseStatus: 200,
  });
  await db.insert(schema.usageCounters).values({ userId, month: '2026-03', count: 3 });
  await db
    .insert(schema.rateLimitBuckets)
    .values({ key: `test:user:${userId}`, userId, count: 1, windowStartedAt: new Date() });
}

const OWNED = [
  schema.sessions,
  schema.schemas,
  schema.validationResults,
  schema.apiKeys,
  schema.validationJobs,
  schema.webhooks,
  schema.apiUsage,
  schema.usageCounters,
  schema.rateLimitBuckets,
] as const;

async function ownedCounts(userId: string): Promise<number[]> {
  const db = t.db.database.db;
  return Promise.all(
    OWNED.map(async (table) => {
      const [row] = await db.select({ n: count() }).from(table).where(eq(table.userId, userId));
      return row!.n;
    }),
  );
}

async function userId(username: string): Promise<string> {
  const [u] = await t.db.database.db
    .select()
    .from(schema.users)
    .where(eq(schema.users.username, username));
  return u!.id;
}

describe('delete-account', () => {
  it('needs a signed-in user', async () => {
    const res = await client().post('/api/delete-account', { password: 'x' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('Not signed in');
  });

  it('needs a CSRF token', async () => {
    const c = client();
    const u = await c.register();
    const res = await c.post('/api/delete-account', { password: u.password }, { csrf: false });
    expect(res.statusCode).toBe(403);
    expect((await c.get('/api/auth/me')).statusCode).toBe(200);
  });

  it('needs the password', async () => {
    const c = client();
    await c.register();
    const res = await c.post('/api/delete-account', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Please enter your password to confirm account deletion.');
  });

  it('refuses a wrong password with 403 and limits attempts like sign-in', async () => {
    const c = client();
    const u = await c.register();
    const wrong = await c.post('/api/delete-account', { password: 'Wrong-Password-1' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({
      error: 'Incorrect password',
      code: 'incorrect_password',
      request_id: expect.any(String),
    });
    for (let i = 0; i < 9; i++)
      await c.post('/api/delete-account', { password: 'Wrong-Password-1' });
    const blocked = await c.post('/api/delete-account', { password: u.password });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    // The same account budget as sign-in.
    expect((await client().login(u.username, u.password)).statusCode).toBe(429);
    t.clock.advance(15 * 60_000);
    expect((await c.post('/api/delete-account', { password: u.password })).statusCode).toBe(200);
  });

  it('deletes the user and every row they own, ends their sessions and clears the cookie', async () => {
    const c = client();
    const u = await c.register();
    const other = client();
    await other.login(u.username, u.password);
    const id = await userId(u.username);
    await fillOwnedRows(id);

    // Someone else's data stays.
    const bystander = client();
    const b = await bystander.register();
    const bid = await userId(b.username);
    await fillOwnedRows(bid);

    const hooked: User[] = [];
    t.app.accountDeletionHooks.push(async (user) => {
      hooked.push(user);
    });
    try {
      expect((await ownedCounts(id)).every((n) => n >= 1)).toBe(true);
      const res = await c.post('/api/delete-account', { password: u.password });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      expect(String(res.headers['set-cookie'])).toMatch(/sc_session=; Max-Age=0/);
    } finally {
      t.app.accountDeletionHooks.pop();
    }
    expect(hooked.map((h) => h.id)).toEqual([id]);
    expect(await ownedCounts(id)).toEqual(OWNED.map(() => 0));
    expect(
      await t.db.database.db.select().from(schema.users).where(eq(schema.users.id, id)),
    ).toHaveLength(0);
    expect((await ownedCounts(bid)).every((n) => n >= 1)).toBe(true);

    expect((await c.get('/api/auth/me')).json()).toEqual({ user: null });
    expect((await other.get('/api/auth/me')).json()).toEqual({ user: null });
    expect((await client().login(u.username, u.password)).statusCode).toBe(401);
    // The name is free again.
    expect(
      (await client().post('/api/auth/register', { ...newUser(), username: u.username }))
        .statusCode,
    ).toBe(201);
  });

  it('keeps the account when a deletion hook fails', async () => {
    const c = client();
    const u = await c.register();
    t.app.accountDeletionHooks.push(async () => {
      throw new Error('billing provider down');
    });
    try {
      const res = await c.post('/api/delete-account', { password: u.password });
      expect(res.statusCode).toBe(500);
    } finally {
      t.app.accountDeletionHooks.pop();
    }
    const rows = await t.db.database.db
      .select()
      .from(schema.users)
      .where(inArray(schema.users.username, [u.username]));
    expect(rows).toHaveLength(1);
    expect((await c.get('/api/auth/me')).statusCode).toBe(200);
  });
});
