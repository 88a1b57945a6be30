import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { REPO_ROOT, SERVER_ENTRY } from './paths.ts';

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  /** Everything the server printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
  /**
   * Sets a user's plan with `npm run set-tier`'s script. The embedded database allows one process
   * per DATA_DIR, so the server is stopped, the tier set, and the server started again on the
   * same port and DATA_DIR (sessions and the session secret survive).
   */
  setTier(user: string, tier: 'free' | 'pro' | 'business' | 'enterprise'): Promise<void>;
  /** Sets a user's validations used this month (e2e/support/set-usage.ts), restarting likewise. */
  setUsage(user: string, count: number): Promise<void>;
}

const SET_TIER_ENTRY = SERVER_ENTRY.replace(/server\.ts$/, 'cli/set-tier.ts');
const SET_USAGE_ENTRY = path.join(REPO_ROOT, 'e2e/support/set-usage.ts');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * Starts apps/server as a child process on a free loopback port with a fresh DATA_DIR, mail going
 * to `smtpUrl`, and a low scrypt cost (SCRYPT_LOG_N) so that sign-ups take milliseconds. Resolves
 * once /healthz answers.
 */
export async function startServer(options: { smtpUrl: string }): Promise<RunningServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'schemacheck-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = '';
  const env = {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_URL: baseUrl,
    SMTP_URL: options.smtpUrl,
    SCRYPT_LOG_N: '10',
    LOG_LEVEL: 'warn',
  };

  let child: ChildProcess;
  // If the test runner dies, do not leave a server behind.
  const killOnExit = () => child.kill('SIGKILL');

  const spawnChild = () => {
    child = spawn(process.execPath, ['--import', 'tsx', SERVER_ENTRY], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    process.once('exit', killOnExit);
  };

  const halt = async () => {
    process.removeListener('exit', killOnExit);
    if (!exited(child)) {
      const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await done;
      clearTimeout(timer);
    }
  };

  const stop = async () => {
    await halt();
    await rm(dataDir, { recursive: true, force: true });
  };

  const ready = async () => {
    // Migrations and start-up take seconds, minutes on a machine busy with other test runs.
    const deadline = Date.now() + 300_000;
    for (;;) {
      if (exited(child)) {
        await stop();
        throw new Error(`Server exited before it was ready:\n${output}`);
      }
      try {
        const response = await fetch(`${baseUrl}/healthz`);
        if (response.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`Server did not answer /healthz within 300 s:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  spawnChild();
  await ready();

  /** Stops the server, runs a script on its database, and starts it again. */
  const runStopped = async (entry: string, args: string[]) => {
    await halt();
    await new Promise<void>((resolve, reject) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', entry, ...args],
        { cwd: REPO_ROOT, env, timeout: 60_000 },
        (error, stdout, stderr) => {
          output += stdout + stderr;
          if (error)
            reject(new Error(`${path.basename(entry)} failed: ${stderr || error.message}`));
          else resolve();
        },
      );
    });
    spawnChild();
    await ready();
  };
  const setTier: RunningServer['setTier'] = (user, tier) =>
    runStopped(SET_TIER_ENTRY, [user, tier]);
  const setUsage: RunningServer['setUsage'] = (user, count) =>
    runStopped(SET_USAGE_ENTRY, [user, String(count)]);

  return { baseUrl, dataDir, output: () => output, stop, setTier, setUsage };
}
