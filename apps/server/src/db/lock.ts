import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

// Only one process may open a PGlite data folder (PGlite has no lock of its own: pglite #1106), so
// the process that owns DATA_DIR holds DATA_DIR/.lock, a file created exclusively ('wx') holding
// its pid. A lock left by a process that no longer runs (kill -9, power loss) is taken over.

export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another SchemaCheck process (pid ${pid}). ` +
        `Stop that process first (or delete ${path.join(dataDir, '.lock')} if pid ${pid} is not SchemaCheck).`,
    );
  }
}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

/** Lock files held by this process, so that a lock naming our own pid is known to be stale. */
const held = new Set<string>();

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  const file = path.join(dataDir, '.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o644);
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      held.add(file);
      return {
        file,
        release() {
          if (!held.delete(file)) return;
          try {
            if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
          } catch {
            // Already gone.
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let owner = NaN;
    try {
      owner = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    } catch {
      continue; // Removed meanwhile: try again.
    }
    const ours = owner === process.pid;
    // Our own pid in a lock we do not hold is stale: a container restarts with the same pid.
    const alive =
      Number.isInteger(owner) && owner > 0 && (ours ? held.has(file) : isRunning(owner));
    if (alive) throw new DataDirInUseError(dataDir, owner);
    try {
      unlinkSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  throw new Error(`Could not take the lock ${file}; another process keeps replacing it`);
}
