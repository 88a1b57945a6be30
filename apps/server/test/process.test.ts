import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, afterAll } from 'vitest';
import { STRONG_PASSWORD, tempDir, removeTempDirs } from './helpers.ts';

// The real server as a child process (`node --import tsx src/server.ts`, what `npm start` runs):
// start-up, one owner per DATA_DIR, graceful SIGTERM, and recovery after kill -9.

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));

interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

function spawnServer(dataDir: string): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SCRYPT_LOG_N: '10',
    LOG_LEVEL: 'info',
    WEB_DIST: path.join(dataDir, 'no-web'),
  };
  delete env.DATABASE_URL;
  delete env.SMTP_URL;
  delete env.APP_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: SERVER_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d.toString()));
  child.stderr!.on('data', (d) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

const started: ChildProcess[] = [];

async function startServer(dataDir: string): Promise<Running> {
  const s = spawnServer(dataDir);
  started.push(s.child);
  // Generous: a loaded machine can take long to start the server; a healthy one never needs it.
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(s.output());
    if (m && s.output().includes('SchemaCheck is ready')) return { ...s, url: m[1]! };
    if (s.child.exitCode !== null) throw new Error(`server exited: ${s.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start: ${s.output()}`);
}

afterEach(() => {
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Register over real HTTP, the way a browser does: CSRF cookie and token first. */
async function register(base: string, username: string) {
  const t = await fetch(`${base}/api/csrf-token`);
  const cookie = t.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { csrfToken } = (await t.json()) as { csrfToken: string };
  return fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken, cookie },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: STRONG_PASSWORD }),
  });
}

async function login(base: string, username: string) {
  const t = await fetch(`${base}/api/csrf-token`);
  const cookie = t.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { csrfToken } = (await t.json()) as { csrfToken: string };
  return fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken, cookie },
    body: JSON.stringify({ usernameOrEmail: username, password: STRONG_PASSWORD }),
  });
}

describe('server process', () => {
  it('serves, refuses a second process on its DATA_DIR, and exits 0 on SIGTERM releasing the lock', async () => {
    const dataDir = tempDir();
    const server = await startServer(dataDir);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect((await register(server.url, 'procuser')).status).toBe(201);

    const second = spawnServer(dataDir);
    started.push(second.child);
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
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: SERVER_DIR,
      env: { ...process.env, DATA_DIR: tempDir(), PORT: 'eighty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    let err = '';
    child.stderr.on('data', (d) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(err.trim()).toBe(
      'Invalid configuration: PORT must be an integer from 0 to 65535 (got "eighty")',
    );
  });
});

afterAll(removeTempDirs);
