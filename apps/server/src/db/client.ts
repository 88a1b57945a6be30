import { fork } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Config } from '../config.ts';
import { acquireDataDirLock } from './lock.ts';
import * as schema from './schema.ts';

// One database handle for the whole process. Embedded PGlite (files under DATA_DIR/db) by default,
// PostgreSQL through node-postgres when DATABASE_URL is set: same schema, same queries, same
// committed migrations (docs/decisions/011).

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  readonly db: Db;
  readonly kind: 'pglite' | 'postgres';
  /** What pg-boss connects through (docs/decisions/033): the PGlite client, or the URL. */
  readonly raw: { kind: 'pglite'; client: PGlite } | { kind: 'postgres'; connectionString: string };
  /** Runs `select 1`; rejects when the database cannot answer. */
  ping(): Promise<void>;
  /** Applies pending migrations from apps/server/drizzle. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** Any constant: PostgreSQL advisory lock that serialises migrations across servers. */
const MIGRATION_LOCK_KEY = 726_354_021;

export async function openDatabase(
  config: Pick<Config, 'dataDir' | 'databaseUrl'>,
): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl);
  const lock = acquireDataDirLock(config.dataDir);
  try {
    const dbDir = path.join(config.dataDir, 'db');
    mkdirSync(dbDir, { recursive: true });
    if (!existsSync(path.join(dbDir, 'PG_VERSION'))) await initdbInChild(dbDir);
    return await openPglite(new PGlite(dbDir, PGLITE_OPTIONS), () => lock.release());
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** A throw-away database in memory, for tests only. */
export function openMemoryDatabase(): Promise<Database> {
  return openPglite(new PGlite(PGLITE_OPTIONS), () => {});
}

/**
 * PostgreSQL's defaults size buffers for a dedicated server; inside this process they are
 * WebAssembly memory held for good (128 MB of shared buffers alone). One user's workspace data
 * fits in far less (docs/decisions/065).
 */
const PGLITE_OPTIONS: PGliteOptions = {
  postgresqlconf: [
    'shared_buffers = 16MB',
    'temp_buffers = 2MB',
    'work_mem = 4MB',
    'maintenance_work_mem = 16MB',
    'wal_buffers = 1MB',
  ],
};

const INITDB_SCRIPT = fileURLToPath(new URL('./pglite-initdb.mjs', import.meta.url));

/** Creates the cluster in a child process so that initdb's peak memory is not kept here. */
function initdbInChild(dbDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = fork(INITDB_SCRIPT, [dbDir, JSON.stringify(PGLITE_OPTIONS)], {
      execArgv: [],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `Creating the database in ${dbDir} failed (${signal ?? `exit ${code}`}): ${stderr.trim()}`,
          ),
        );
    });
  });
}

async function openPglite(client: PGlite, onClose: () => void): Promise<Database> {
  await client.waitReady;
  const db = drizzlePglite({ client, schema });
  let closed = false;
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    raw: { kind: 'pglite', client },
    async ping() {
      await db.execute(sql`select 1`);
    },
    async migrate() {
      await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await client.close();
      } finally {
        onClose();
      }
    },
  };
}

export function openPostgres(connectionString: string): Database {
  const pool = new pg.Pool({ connectionString, max: 10, connectionTimeoutMillis: 10_000 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema });
  let closed = false;
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    raw: { kind: 'postgres', connectionString },
    async ping() {
      await db.execute(sql`select 1`);
    },
    async migrate() {
      // drizzle's migrate() takes no lock; several servers starting together must not race.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        try {
          await migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER });
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
        }
      } finally {
        client.release();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
