import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Web servers and `npm run worker` processes started by the PostgreSQL process tests (jobs,
// split jobs, many servers). Each runs in a process group of its own, so that npm and the node
// under it are stopped together; the caller's mail and origin settings do not leak in.

export const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));
export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export interface GroupProcess {
  name: string;
  child: ChildProcess;
  env: Record<string, string>;
  /** Everything it printed so far. */
  output: () => string;
}

const started: GroupProcess[] = [];

/** Every process started since the last `killStarted`, in order. */
export function startedProcesses(): readonly GroupProcess[] {
  return started;
}

export function startGroup(
  name: string,
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): GroupProcess {
  const full: Record<string, string | undefined> = { ...process.env, ...env };
  delete full.SMTP_URL;
  delete full.APP_URL;
  const child = spawn(command, args, {
    cwd,
    env: full,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d.toString()));
  child.stderr!.on('data', (d) => (out += d.toString()));
  const proc = { name, child, env, output: () => out };
  started.push(proc);
  return proc;
}

/** The web server (`src/server.ts`) on a free loopback port; `env` adds to its settings. */
export function startWebServer(name: string, env: Record<string, string>): GroupProcess {
  return startGroup(name, process.execPath, ['--import', 'tsx', 'src/server.ts'], SERVER_DIR, {
    PORT: '0',
    HOST: '127.0.0.1',
    RUN_JOBS: 'false',
    ...env,
  });
}

/** A worker: `npm run worker` from the repository root, as deployed, or its node directly. */
export function startWorker(
  name: string,
  env: Record<string, string>,
  via: 'npm' | 'node' = 'node',
): GroupProcess {
  return via === 'npm'
    ? startGroup(name, 'npm', ['run', 'worker', '--silent'], ROOT, env)
    : startGroup(name, process.execPath, ['--import', 'tsx', 'src/worker.ts'], SERVER_DIR, env);
}

export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

export const gone = (child: ChildProcess): boolean =>
  child.exitCode !== null || child.signalCode !== null;

/** Kills (SIGKILL) every started process still running and forgets them all: for afterEach. */
export function killStarted(): void {
  for (const p of started.splice(0)) if (!gone(p.child)) killGroup(p.child, 'SIGKILL');
}

/** Polls `fn` until it returns something truthy; a thrown error ends the wait at once. */
export async function until<T>(
  what: string,
  fn: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  ms = 120_000,
  everyMs = 50,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Waits until a started web server is ready, and answers its base URL. */
export function webServerReady(p: GroupProcess, ms = 150_000): Promise<string> {
  return until(
    `web server ${p.name}`,
    () => {
      if (gone(p.child)) throw new Error(p.output());
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(p.output());
      return m && p.output().includes('SchemaCheck is ready') ? m[1]! : null;
    },
    ms,
  );
}

/** Waits until every started worker says it is ready; one that exits ends the wait. */
export function workersReady(workers: GroupProcess[], ms = 240_000): Promise<true> {
  return until(
    `workers ${workers.map((w) => w.name).join(', ')}`,
    () => {
      for (const w of workers) if (gone(w.child)) throw new Error(w.output());
      return workers.every((w) => w.output().includes('SchemaCheck worker is ready'));
    },
    ms,
  );
}
