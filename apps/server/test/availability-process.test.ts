import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/api-keys/store.ts';
import { openDatabase } from '../src/db/client.ts';
import { users } from '../src/db/schema.ts';
import { removeTempDirs, tempDir } from './helpers.ts';
import { killServers, startServer } from './server-process.ts';

// Issue 20 §1 as it was seen (docs/decisions/120): the real server process (`npm start`'s
// command, working its own jobs), on PGlite or on the PostgreSQL of TEST_DATABASE_URL, sends a
// test event to a loopback receiver that answers `ok\0`. The attempt must be recorded as failed,
// and the process must still be running and serving afterwards.

const pgUrl = process.env.TEST_DATABASE_URL;
let dataDir: string;
let databaseUrl: string | undefined;
let dbName: string | undefined;
let receiver: http.Server;
let receiverUrl: string;

beforeAll(async () => {
  dataDir = tempDir('sc-nul-proc-');
  if (pgUrl) {
    dbName = `schemacheck_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const u = new URL(pgUrl);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(500, { 'content-type': 'text/plain' }).end('ok\0'));
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  killServers();
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
  if (dbName) {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
  removeTempDirs();
});

describe('a webhook receiver answering with U+0000, against the real server process', () => {
  it(
    'is recorded as a failed attempt, and the process stays up',
    { timeout: 180_000 },
    async () => {
      // The account and its key are written before the server starts: PGlite is one process's.
      const database = await openDatabase({ dataDir, databaseUrl: databaseUrl ?? null });
      await database.migrate();
      const [user] = await database.db
        .insert(users)
        .values({
          username: 'nulreceiver',
          email: 'nulreceiver@example.com',
          passwordHash: 'x',
          subscriptionTier: 'business',
        })
        .returning();
      const { key } = await createApiKey(database.db, user!.id, 'k', new Date());
      await database.close();

      const server = await startServer(dataDir, {
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        RUN_JOBS: 'true',
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOWED_ADDRESSES: '127.0.0.1',
      });
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const created = await fetch(`${server.url}/api/v1/webhooks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: receiverUrl, events: ['job.completed'] }),
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const hook = (await created.json()) as { id: string };
      const test = await fetch(`${server.url}/api/v1/webhooks/${hook.id}/test`, {
        method: 'POST',
        headers: { authorization: headers.authorization },
      });
      expect(test.status).toBe(202);

      // Until the first attempt is recorded; a process that dies on the way fails the test at once.
      const deadline = Date.now() + 30_000;
      let first: { status: string; response_status: number; response_excerpt: string } | undefined;
      for (;;) {
        if (server.child.exitCode !== null || server.child.signalCode !== null) {
          throw new Error(`The server exited:\n${server.output().slice(-3000)}`);
        }
        const res = await fetch(`${server.url}/api/v1/webhooks/${hook.id}/deliveries`, {
          headers: { authorization: headers.authorization },
        }).catch((err: unknown) => {
          throw new Error(
            `The server stopped answering (${String(err)}):\n${server.output().slice(-3000)}`,
          );
        });
        const data = ((await res.json()) as { data: (typeof first & { attempt: number })[] }).data;
        first = data.find((d) => d!.attempt === 1);
        if (first && first.status !== 'pending') break;
        if (Date.now() > deadline) throw new Error('The first attempt was never recorded');
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(first).toMatchObject({
        status: 'failed',
        response_status: 500,
        response_excerpt: 'ok\ufffd',
      });

      // Still running, still serving.
      expect(server.child.exitCode).toBeNull();
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    },
  );
});
