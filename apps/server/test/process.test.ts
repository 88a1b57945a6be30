import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, afterAll } from 'vitest';
import { STRONG_PASSWORD, tempDir, removeTempDirs } from './helpers.ts';
import { killServers, postAuth, spawnServer, startServer } from './server-process.ts';

// The real server as a child process (`node --import tsx src/server.ts`, what `npm start` runs):
// start-up, one owner per DATA_DIR, graceful SIGTERM, and recovery after kill -9.

afterEach(killServers);

const register = (base: string, username: string) =>
  postAuth(base, 'register', {
    username,
    email: `${username}@example.com`,
    password: STRONG_PASSWORD,
  });

const login = (base: string, username: string) =>
  postAuth(base, 'login', { usernameOrEmail: username, password: STRONG_PASSWORD });

// Each start may take up to serverUrl's 120 s on a loaded machine (tsx compiles the server; after
// kill -9 PGlite replays its log): a restart test ran past the project's 60 s at load 12.
describe('server process', { timeout: 300_000 }, () => {
  it('serves, refuses a second process on its DATA_DIR, and exits 0 on SIGTERM releasing the lock', async () => {
    const dataDir = tempDir();
    const server = await startServer(dataDir);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect((await register(server.url, 'procuser')).status).toBe(201);

    const second = spawnServer(dataDir);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(
      `DATA_DIR ${dataDir} is in use by another SchemaCheck process (pid ${server.child.pid})`,
    );
    // The first one is unharmed.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('Shutting down');
    expect(existsSync(path.join(dataDir, '.lock'))).toBe(false);
  });

  it('after kill -9 restarts on the same DATA_DIR with its data (stale lock taken over)', async () => {
    const dataDir = tempDir();
    const first = await startServer(dataDir);
    expect((await register(first.url, 'survivor')).status).toBe(201);
    // Writes in flight when the process dies.
    const inFlight = Array.from({ length: 5 }, (_, i) =>
      register(first.url, `inflight${i}`).catch(() => null),
    );
    first.child.kill('SIGKILL');
    await Promise.all(inFlight);
    await first.exited;
    expect(existsSync(path.join(dataDir, '.lock'))).toBe(true);

    const second = await startServer(dataDir);
    expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
    const res = await login(second.url, 'survivor');
    expect(res.status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('stops with one line on a bad configuration', async () => {
    const server = spawnServer(tempDir(), { PORT: 'eighty' });
    expect(await server.exited).toBe(1);
    expect(server.output().trim()).toBe(
      'Invalid configuration: PORT must be an integer from 0 to 65535 (got "eighty")',
    );
  });
});

afterAll(removeTempDirs);
