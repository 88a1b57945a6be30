import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import {
  access,
  constants,
  mkdir,
  open,
  readdir,
  rename,
  rm,
  stat,
  unlink,
  type FileHandle,
} from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Storage } from './index.ts';
import { assertKey } from './keys.ts';

/** Temp files are `<name>.tmp-<random>` beside their final name. */
const TEMP_MARK = '.tmp-';

/** A folder's entries; none when it does not exist (yet, or any more). */
async function entriesOf(dir: string) {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** Files under one folder (DATA_DIR/reports): written to a temp name, renamed when complete. */
export class LocalStorage implements Storage {
  /** No client reaches this disk: direct uploads need a bucket (docs/decisions/235). */
  readonly directUploads = null;

  constructor(readonly root: string) {}

  private pathOf(key: string): string {
    assertKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(
    key: string,
    body: Readable | AsyncIterable<Uint8Array | string>,
  ): Promise<{ bytes: number }> {
    const final = this.pathOf(key);
    await mkdir(path.dirname(final), { recursive: true });
    const temp = `${final}${TEMP_MARK}${randomBytes(6).toString('hex')}`;
    const out = createWriteStream(temp, { flags: 'wx', mode: 0o600 });
    try {
      await pipeline(body instanceof Readable ? body : Readable.from(body), out);
      await rename(temp, final);
    } catch (err) {
      // A stream destroyed before its file was opened still opens it, then closes it: remove the
      // temp file only after that, or a failed write leaves it behind.
      out.destroy();
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await rm(temp, { force: true });
      throw err;
    }
    return { bytes: out.bytesWritten };
  }

  get(key: string): Promise<Readable | null> {
    return this.read(key);
  }

  getRange(key: string, start: number, end: number): Promise<Readable | null> {
    if (end <= start) return this.read(key, { start: 0, end: -1 });
    return this.read(key, { start, end: end - 1 });
  }

  private async read(key: string, range?: { start: number; end: number }) {
    // Opened before answering: an object deleted while it is read (a report purged during its
    // download, a split job's outcome removed as the job ends) is still read whole, as an open
    // file outlives its name, instead of a stream that fails with ENOENT after a stat said yes.
    let handle: FileHandle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    const isFile = (await handle.stat()).isFile();
    // createReadStream's end is inclusive; an empty range still needs a stream (of nothing).
    const empty = range !== undefined && range.end < range.start;
    if (isFile && !empty) return handle.createReadStream(range);
    await handle.close();
    return isFile ? Readable.from([]) : null;
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.pathOf(prefix), { recursive: true, force: true });
  }

  async *list(): AsyncIterable<{ key: string; modifiedAt: Date }> {
    const walk = async function* (
      dir: string,
      parts: string[],
    ): AsyncGenerator<{ key: string; modifiedAt: Date }> {
      for (const e of await entriesOf(dir)) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) yield* walk(p, [...parts, e.name]);
        else if (e.isFile() && !e.name.includes(TEMP_MARK)) {
          const s = await stat(p).catch(() => null);
          if (s) yield { key: [...parts, e.name].join('/'), modifiedAt: s.mtime };
        }
      }
    };
    yield* walk(this.root, []);
  }

  /** The folder exists (or can be made) and this process may write there. */
  async ping(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.W_OK);
  }

  close(): void {}

  async sweepTemp(olderThanMs: number): Promise<number> {
    let removed = 0;
    const cutoff = Date.now() - olderThanMs;
    const walk = async (dir: string): Promise<void> => {
      for (const e of await entriesOf(dir)) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) await walk(p);
        else if (e.name.includes(TEMP_MARK)) {
          const s = await stat(p).catch(() => null);
          if (s && s.mtimeMs <= cutoff) {
            await rm(p, { force: true });
            removed++;
          }
        }
      }
    };
    await walk(this.root);
    return removed;
  }
}
