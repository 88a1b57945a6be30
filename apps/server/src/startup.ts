import { readFileSync, unlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Config, ConfigError, type LoadConfigOptions, loadConfig } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { DataDirInUseError } from './db/lock.ts';
import type { ValidationPool } from './validation/pool.ts';

// What the server and the command-line tools do first: read the configuration and open its
// database, or say why not on stderr and exit.

/** Writes `message` to stderr and exits with `code`. */
export function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/**
 * The configuration and its open database (not yet migrated). On failure it exits 1 with the
 * reason; `inUseNote` is added on a line of its own when another process holds DATA_DIR.
 */
export async function openConfiguredDatabase(
  inUseNote?: string,
  options: LoadConfigOptions = {},
): Promise<{ config: Config; database: Database }> {
  const config = loadConfigOrFail(options);
  try {
    return { config, database: await openDatabase(config) };
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      fail(inUseNote === undefined ? err.message : `${err.message}\n${inUseNote}`);
    }
    fail(`Cannot open the database: ${(err as Error).message}`);
  }
}

/** The configuration, or exit 1 with its one-line reason. */
export function loadConfigOrFail(options: LoadConfigOptions = {}): Config {
  try {
    return loadConfig(process.env, options);
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
}

/**
 * Why the server cannot listen on HOST:PORT, as one line naming the variable to change: a host
 * that does not resolve or is not this machine's, a port in use or reserved.
 */
export function listenErrorMessage(err: unknown, config: Pick<Config, 'host' | 'port'>): string {
  const code = (err as NodeJS.ErrnoException).code;
  const where = `${config.host}:${config.port}`;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return `Invalid configuration: HOST is not a name this machine can resolve (got ${JSON.stringify(config.host)})`;
    case 'EADDRNOTAVAIL':
      return `Invalid configuration: HOST is not an address of this machine (got ${JSON.stringify(config.host)})`;
    case 'EADDRINUSE':
      return `Invalid configuration: PORT ${config.port} is in use on ${config.host} by another process; stop it or choose another PORT`;
    case 'EACCES':
      return `Invalid configuration: PORT ${config.port} needs privileges this process lacks (ports below 1024 do); choose a PORT from 1024`;
    default:
      return `Cannot listen on ${where}: ${(err as Error).message}`;
  }
}

/**
 * Binds HOST:PORT for a moment and lets go: what `npm start` checks before building the web app,
 * so that a host or port the server could not listen on stops it at once, not after a build.
 * Resolves to null when the server could listen there, else to listenErrorMessage's line.
 */
export async function checkListen(config: Pick<Config, 'host' | 'port'>): Promise<string | null> {
  // Port 0 means "any free port": nothing to check but the host, which the bind checks too.
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', (err) => resolve(listenErrorMessage(err, config)));
    probe.listen({ port: config.port, host: config.host, exclusive: true }, () =>
      probe.close(() => resolve(null)),
    );
  });
}

export interface ShutdownOptions {
  /** How long the graceful path may take before the forced exit. */
  graceMs?: number;
  /** Further signals within this time of the first are the same Ctrl-C (npm forwards it). */
  repeatWindowMs?: number;
}

const FORCE_STEP_MS = 2_000;

/** Resolves after `ms` even when `p` never settles. */
async function within(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    p.catch(() => {}),
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

/**
 * SIGTERM and SIGINT (docs/decisions/063). The first signal starts a graceful shutdown: idle
 * keep-alive sockets are closed at once (and again every 100 ms, as in-flight requests finish),
 * new requests get 503, in-flight ones finish, background work and the workers stop, the
 * database closes and the DATA_DIR lock is released; exit 0. A terminal's Ctrl-C reaches the
 * server twice (from the terminal and forwarded by npm), so signals within `repeatWindowMs` of
 * the first are ignored. A later signal, or the grace period running out, forces the exit: the
 * validation workers are terminated, the database closed (each step bounded in time), the lock
 * removed, exit 1.
 */
export function installShutdown(
  // The pool is named here rather than taken from the app's type augmentation, so that scripts
  // importing this module (e2e helpers) typecheck without the whole app.
  app: FastifyInstance & { validationPool: Pick<ValidationPool, 'close'> },
  close: { database: { close(): Promise<void> }; config: Pick<Config, 'dataDir' | 'databaseUrl'> },
  options: ShutdownOptions = {},
): void {
  const graceMs = options.graceMs ?? 30_000;
  const repeatWindowMs = options.repeatWindowMs ?? 2_000;
  let firstAt = 0;
  let forcing = false;

  const releaseLock = () => {
    if (close.config.databaseUrl) return;
    const file = path.join(close.config.dataDir, '.lock');
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
    } catch {
      // Already released.
    }
  };

  const force = async (why: string) => {
    if (forcing) return;
    forcing = true;
    app.log.error({ why }, 'Forcing the exit');
    app.server.closeAllConnections();
    await within(app.validationPool.close(), FORCE_STEP_MS);
    await within(close.database.close(), FORCE_STEP_MS);
    releaseLock();
    process.exit(1);
  };

  const graceful = async () => {
    const reaper = setInterval(() => app.server.closeIdleConnections(), 100);
    reaper.unref();
    app.server.closeIdleConnections();
    try {
      await app.close();
      await close.database.close();
      releaseLock();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'Shutdown failed');
      await force('shutdown failed');
    }
  };

  const onSignal = (signal: NodeJS.Signals) => {
    const now = Date.now();
    if (firstAt === 0) {
      firstAt = now;
      app.log.info({ signal }, 'Shutting down');
      setTimeout(() => void force('shutdown took too long'), graceMs).unref();
      void graceful();
      return;
    }
    if (now - firstAt < repeatWindowMs) {
      app.log.info({ signal }, 'Already shutting down');
      return;
    }
    void force(`second ${signal}`);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
