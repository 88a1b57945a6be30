import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it, afterAll } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { acquireDataDirLock, DataDirInUseError } from '../src/db/lock.ts';
import { users } from '../src/db/schema.ts';
import { createTestDatabase, tempDir, removeTempDirs } from './helpers.ts';

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));

/** Runs `npm run set-tier`'s script in a child process. */
function setTier(dataDir: string, ...args: string[]) {
  return operatorCommand('set-tier', dataDir, args);
}

/**
 * Runs an operator command's script (src/cli/<name>.ts) in a child process on DATA_DIR. Each one
 * starts tsx and PGlite, which takes seconds on a busy machine: refusals that never open the
 * database run side by side, and the tests that spawn several allow for it (OPERATOR_TEST_MS).
 */
function operatorCommand(
  name: string,
  dataDir: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
  };
  delete env.DATABASE_URL;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', `src/cli/${name}.ts`, ...args],
      { cwd: SERVER_DIR, env, encoding: 'utf8', timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const OPERATOR_TEST_MS = 300_000;

/** A fresh data folder whose database holds one account, for the operator commands. */
async function dataDirWithAccount(username: string, email: string): Promise<string> {
  const dataDir = tempDir();
  const db = await openDatabase({ dataDir, databaseUrl: null });
  try {
    await db.migrate();
    await db.db.insert(users).values({ username, email, passwordHash: 'x' });
  } finally {
    await db.close();
  }
  return dataDir;
}

/** The account's row as the data folder's database holds it now. */
async function readAccount(dataDir: string, username: string) {
  const db = await openDatabase({ dataDir, databaseUrl: null });
  try {
    const [row] = await db.db.select().from(users).where(eq(users.username, username));
    if (!row) throw new Error(`no account ${username}`);
    return row;
  } finally {
    await db.close();
  }
}

describe('migrations', () => {
  it('apply to an empty database and again as a no-op', async () => {
    const { database, drop } = await createTestDatabase();
    try {
      await database.migrate();
      const tables = await database.db.execute(
        sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`,
      );
      const names = (tables as unknown as { rows: Array<{ table_name: string }> }).rows.map(
        (r) => r.table_name,
      );
      expect(names).toEqual([
        'account_rate_windows',
        'api_keys',
        'api_usage',
        'billing_test_mode',
        'idempotency_keys',
        'rate_limit_buckets',
        'reference_lists',
        'schemas',
        'sessions',
        'stripe_events',
        'usage_counters',
        'users',
        'validation_job_parts',
        'validation_jobs',
        'validation_results',
        'webhook_deliveries',
        'webhooks',
      ]);
    } finally {
      await drop();
    }
  });
});

describe('PGlite on disk (DATA_DIR/db)', () => {
  it('keeps data across a close and reopen', async () => {
    const dataDir = tempDir();
    const first = await openDatabase({ dataDir, databaseUrl: null });
    await first.migrate();
    await first.db
      .insert(users)
      .values({ username: 'kept', email: 'kept@example.com', passwordHash: 'x' });
    await first.close();
    expect(existsSync(path.join(dataDir, '.lock'))).toBe(false);

    const second = await openDatabase({ dataDir, databaseUrl: null });
    try {
      await second.migrate();
      const rows = await second.db.select().from(users).where(eq(users.username, 'kept'));
      expect(rows).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('creates a fresh data folder apart from the server and runs with buffers sized for one process', async () => {
    const dataDir = tempDir();
    const db = await openDatabase({ dataDir, databaseUrl: null });
    try {
      expect(existsSync(path.join(dataDir, 'db', 'PG_VERSION'))).toBe(true);
      const shown = (await db.db.execute(sql`show shared_buffers`)) as { rows: unknown[] };
      expect(shown.rows[0]).toEqual({ shared_buffers: '16MB' });
    } finally {
      await db.close();
    }
  });
});

describe('DATA_DIR lock', () => {
  it('refuses a second opener while the first holds it, and frees it on close', async () => {
    const dataDir = tempDir();
    const db = await openDatabase({ dataDir, databaseUrl: null });
    try {
      expect(readFileSync(path.join(dataDir, '.lock'), 'utf8').trim()).toBe(String(process.pid));
      await expect(openDatabase({ dataDir, databaseUrl: null })).rejects.toThrow(
        `DATA_DIR ${dataDir} is in use by another SchemaCheck process (pid ${process.pid})`,
      );
    } finally {
      await db.close();
    }
    const again = acquireDataDirLock(dataDir);
    again.release();
  });

  it(
    'refuses another process (set-tier) with a clear message while the server holds it',
    async () => {
      const dataDir = tempDir();
      const db = await openDatabase({ dataDir, databaseUrl: null });
      try {
        const res = await setTier(dataDir, 'someone', 'pro');
        expect(res.code).toBe(1);
        expect(res.stderr).toContain(
          `DATA_DIR ${dataDir} is in use by another SchemaCheck process (pid ${process.pid})`,
        );
        expect(res.stderr).toContain('stop it before using set-tier');
      } finally {
        await db.close();
      }
    },
    OPERATOR_TEST_MS,
  );

  it('takes over a lock left by a process that is gone', () => {
    const dataDir = tempDir();
    // A pid that cannot be running: past the kernel's pid_max.
    writeFileSync(path.join(dataDir, '.lock'), '99999999\n');
    const lock = acquireDataDirLock(dataDir);
    expect(readFileSync(lock.file, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    expect(existsSync(lock.file)).toBe(false);
  });

  it('takes over a lock naming our own pid that we do not hold (container restart)', () => {
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, '.lock'), `${process.pid}\n`);
    const lock = acquireDataDirLock(dataDir);
    expect(() => acquireDataDirLock(dataDir)).toThrow(DataDirInUseError);
    lock.release();
  });

  it('takes over a garbled lock', () => {
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, '.lock'), 'garbage');
    acquireDataDirLock(dataDir).release();
  });
});

describe('set-tier', () => {
  it(
    'sets the plan of a user found by username or email, and refuses bad input',
    async () => {
      const dataDir = await dataDirWithAccount('Tiered', 'Tiered@Example.com');

      const byName = await setTier(dataDir, 'tiered', 'business');
      expect(byName.code).toBe(0);
      expect(byName.stdout).toBe('Tiered <Tiered@Example.com>: free → business\n');
      const byEmail = await setTier(dataDir, 'tiered@example.com', 'enterprise');
      expect(byEmail.stdout).toBe('Tiered <Tiered@Example.com>: business → enterprise\n');

      const unknown = await setTier(dataDir, 'nobody', 'pro');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('No account with username or email "nobody"');
      const [badTier, noArgs] = await Promise.all([
        setTier(dataDir, 'tiered', 'gold'),
        setTier(dataDir),
      ]);
      expect(badTier.code).toBe(2);
      expect(badTier.stderr).toContain(
        'Unknown tier "gold". Usage: npm run set-tier -- <username-or-email> <free|pro|business|enterprise>',
      );
      expect(noArgs.code).toBe(2);

      expect((await readAccount(dataDir, 'Tiered')).subscriptionTier).toBe('enterprise');
    },
    OPERATOR_TEST_MS,
  );
});

describe('set-rate-limit', () => {
  it(
    'gives an account its own API rate limit, returns it to the plan, and refuses bad input',
    async () => {
      const dataDir = await dataDirWithAccount('Contract', 'c@example.com');
      const run = (...args: string[]) => operatorCommand('set-rate-limit', dataDir, args);

      const set = await run('contract', '12000');
      expect(set.code).toBe(0);
      expect(set.stdout).toBe(
        "Contract <c@example.com>: API rate limit plan → 12000 (requests a minute, shared by the account's API keys)\n",
      );
      const bads = ['0', '-5', '1.5', 'lots', '1000001'];
      const refusals = await Promise.all(bads.map((bad) => run('contract', bad)));
      bads.forEach((bad, i) => {
        expect(refusals[i]!.code, bad).toBe(2);
        expect(refusals[i]!.stderr).toContain(
          `"${bad}" is not a whole number of requests a minute`,
        );
      });
      expect((await run('nobody', '5')).code).toBe(1);

      const check = async () => (await readAccount(dataDir, 'Contract')).apiRateLimitPerMinute;
      expect(await check()).toBe(12000);
      expect((await run('c@example.com', 'plan')).stdout).toContain('12000 → plan');
      expect(await check()).toBeNull();
    },
    OPERATOR_TEST_MS,
  );
});

afterAll(removeTempDirs);
