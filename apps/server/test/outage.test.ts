import { afterAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../src/db/client.ts';
import { databaseFailure } from '../src/plugins/errors.ts';
import { Client, removeTempDirs, startTestApp } from './helpers.ts';

// A database that cannot answer is an outage, not a bug: the API says 503 with Retry-After and
// the one error shape, like /healthz (docs/decisions/060).

afterAll(removeTempDirs);

describe('database outage', () => {
  it('answers 503 with Retry-After on the API when the database has gone away', async () => {
    const t = await startTestApp();
    const client = new Client(t.app, '10.73.0.1');
    await client.register();
    await t.db.database.close();
    try {
      for (const res of [
        await client.get('/api/auth/me'),
        await client.post(
          '/api/auth/login',
          { usernameOrEmail: 'someone', password: 'x' },
          { csrf: 'v1.a.b' },
        ),
        await client.get('/api/schemas'),
      ]) {
        expect(res.statusCode).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.json()).toEqual({
          error: 'The service is temporarily unavailable. Please try again shortly.',
          code: 'database_unavailable',
          request_id: expect.any(String),
        });
      }
      expect((await client.get('/healthz')).statusCode).toBe(503);
    } finally {
      await t.close();
    }
  });

  it('reads a refused connection to PostgreSQL as an outage', async () => {
    // Port 1 on loopback: nothing listens there, the connection is refused at once.
    const database = openPostgres('postgres://postgres@127.0.0.1:1/none');
    const err = await database.ping().then(
      () => null,
      (e: unknown) => e,
    );
    await database.close();
    expect(err).not.toBeNull();
    expect(databaseFailure(err)).toBe('outage');
    expect(databaseFailure(Object.assign(new Error('x'), { code: '22021' }))).toBe('data');
    expect(databaseFailure(new Error('a bug of ours'))).toBeNull();
  });
});
