import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The real server as a child process (`node --import tsx src/server.ts`, what `npm start` runs)
// on PGlite in `dataDir`, on a free loopback port, logging at info as npm start does; and signing
// up over real HTTP the way a browser does. For the process tests and `npm run stress`.

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  /** Everything it printed so far. */
  output: () => string;
  /** Its exit code, once it has exited. */
  exited: Promise<number | null>;
}

const spawned: ChildProcess[] = [];

/** Kills (SIGKILL) every server spawned so far that is still running: for afterEach. */
export function killServers(): void {
  for (const child of spawned.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Starts the server; `env` adds to (or overrides) the test settings. */
export function spawnServer(dataDir: string, env: Record<string, string> = {}): ServerProcess {
  // Nothing of the caller's own database, mail or origin leaks in; `env` may set them.
  const { DATABASE_URL: _db, SMTP_URL: _smtp, APP_URL: _app, ...inherited } = process.env;
  const childEnv: Record<string, string | undefined> = {
    ...inherited,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SCRYPT_LOG_N: '10',
    LOG_LEVEL: 'info',
    WEB_DIST: path.join(dataDir, 'no-web'),
    ...env,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: SERVER_DIR,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  spawned.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d.toString()));
  child.stderr!.on('data', (d) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** Starts the server and waits until it is ready. */
export async function startServer(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<ServerProcess & { url: string }> {
  const server = spawnServer(dataDir, env);
  return { ...server, url: await serverUrl(server) };
}

/** Waits until the server is listening and ready; its base URL. */
export async function serverUrl(server: ServerProcess): Promise<string> {
  // Generous: a loaded machine can take long to start the server; a healthy one never needs it.
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output());
    if (m && server.output().includes('SchemaCheck is ready')) return m[1]!;
    if (server.child.exitCode !== null) throw new Error(`server exited: ${server.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start: ${server.output()}`);
}

/** The Cookie header that sends back what a response set. */
function cookiesSet(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** POSTs to /api/auth/register or /api/auth/login with the CSRF cookie and token first. */
export async function postAuth(
  base: string,
  action: 'register' | 'login',
  body: object,
): Promise<Response> {
  const t = await fetch(`${base}/api/csrf-token`);
  const { csrfToken } = (await t.json()) as { csrfToken: string };
  return fetch(`${base}/api/auth/${action}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-csrf-token': csrfToken,
      cookie: cookiesSet(t),
    },
    body: JSON.stringify(body),
  });
}

export interface Session {
  cookie: string;
  csrf: string;
}

/** Registers `username`; the cookie header and CSRF token of its session. */
export async function signUp(base: string, username: string, password: string): Promise<Session> {
  const res = await postAuth(base, 'register', {
    username,
    email: `${username}@example.com`,
    password,
  });
  if (res.status !== 201) throw new Error(`register ${res.status} ${await res.text()}`);
  return {
    cookie: cookiesSet(res),
    csrf: ((await res.json()) as { csrfToken: string }).csrfToken,
  };
}
