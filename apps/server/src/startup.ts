import { type Config, ConfigError, loadConfig } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { DataDirInUseError } from './db/lock.ts';

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
): Promise<{ config: Config; database: Database }> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }

  try {
    return { config, database: await openDatabase(config) };
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      fail(inUseNote === undefined ? err.message : `${err.message}\n${inUseNote}`);
    }
    fail(`Cannot open the database: ${(err as Error).message}`);
  }
}
