import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from './helpers.ts';

// The operator commands change an existing database: a DATA_DIR without one (a typo, the wrong
// working directory) is refused and left as it was, never created empty with the change made in
// it unseen (issue 27).

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));

function operator(name: string, dataDir: string, args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  const res = spawnSync(process.execPath, ['--import', 'tsx', `src/cli/${name}.ts`, ...args], {
    cwd: SERVER_DIR,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

describe('operator commands on a DATA_DIR without a database', () => {
  for (const [name, args] of [
    ['set-tier', ['someone', 'business']],
    ['set-rate-limit', ['someone', '100']],
  ] as const) {
    it(`${name} refuses a folder that does not exist, and does not create it`, () => {
      const missing = path.join(tempDir(), 'no-such-data');
      const res = operator(name, missing, [...args]);
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(
        `Invalid configuration: DATA_DIR ${missing} holds no SchemaCheck database; set DATA_DIR to the server's data folder (or DATABASE_URL to its PostgreSQL)\n`,
      );
      expect(existsSync(missing)).toBe(false);
    });

    it(`${name} refuses an existing folder that holds no database, and leaves it empty`, () => {
      const empty = tempDir();
      const res = operator(name, empty, [...args]);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`DATA_DIR ${empty} holds no SchemaCheck database`);
      expect(readdirSync(empty)).toEqual([]);
    });
  }
});

afterAll(removeTempDirs);
