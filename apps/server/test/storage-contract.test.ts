import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../src/storage/index.ts';
import { LocalStorage } from '../src/storage/local.ts';
import { PART_SIZE, S3Storage } from '../src/storage/s3.ts';
import { removeTempDirs, tempDir } from './helpers.ts';
import { startS3Server, type S3Server } from './s3-support.ts';

// The Storage contract (storage/index.ts), on both backends: local disk (DATA_DIR/reports) and
// an S3 bucket (a real S3-protocol server in this process: s3rver). Whatever the backend, the
// routes, the retention purge, account deletion and the sweep see the same behaviour
// (docs/decisions/064, 215).

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
  removeTempDirs();
});

const backends: Array<[string, () => Storage]> = [
  ['local disk', () => new LocalStorage(path.join(tempDir('sc-store-'), 'reports'))],
  [
    'S3',
    () =>
      new S3Storage({
        bucket: s3.bucket,
        region: 'us-east-1',
        endpoint: s3.endpoint,
        forcePathStyle: true,
      }),
  ],
];

async function text(stream: Readable | null): Promise<string | null> {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

async function keys(storage: Storage, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const { key } of storage.list()) if (key.startsWith(prefix)) found.push(key);
  return found.sort();
}

/** A body that yields `size` pseudo-random bytes in 1 MiB chunks, hashing what it gave. */
function generated(size: number) {
  const hash = createHash('sha256');
  const seed = randomBytes(1024 * 1024);
  async function* body() {
    let left = size;
    let n = 0;
    while (left > 0) {
      const chunk = Buffer.from(seed.subarray(0, Math.min(left, seed.length)));
      chunk.writeUInt32BE(n++, 0);
      hash.update(chunk);
      left -= chunk.length;
      yield chunk;
    }
  }
  return { body: Readable.from(body()), digest: () => hash.digest('hex') };
}

describe.each(backends)('storage contract: %s', (_name, make) => {
  let storage: Storage;
  let root: string;
  beforeAll(() => {
    storage = make();
    root = `u${randomBytes(6).toString('hex')}`;
  });
  afterAll(() => storage.close());

  it('writes, reads back, overwrites and counts the bytes', async () => {
    const key = `${root}/a.csv`;
    expect(await storage.put(key, Readable.from(['row,field\r\n', 'x,y\r\n']))).toEqual({
      bytes: 16,
    });
    expect(await text(await storage.get(key))).toBe('row,field\r\nx,y\r\n');
    // An async iterable of strings is a body too; a second write replaces the first.
    async function* lines() {
      yield 'second\n';
      yield Buffer.from('é\n');
    }
    expect((await storage.put(key, lines())).bytes).toBe(Buffer.byteLength('second\né\n'));
    expect(await text(await storage.get(key))).toBe('second\né\n');
  });

  it('reads a missing object as null; deleting one is not an error', async () => {
    expect(await storage.get(`${root}/missing.csv`)).toBeNull();
    await expect(storage.delete(`${root}/missing.csv`)).resolves.toBeUndefined();
    await storage.put(`${root}/gone.csv`, Readable.from(['x']));
    await storage.delete(`${root}/gone.csv`);
    expect(await storage.get(`${root}/gone.csv`)).toBeNull();
  });

  it('an object deleted once its read has begun is still read whole', async () => {
    // A report purged during its download, a split job's outcome removed as the job ends.
    const key = `${root}/deleted-while-read.csv`;
    await storage.put(key, Readable.from(['a,b\n', '1,2\n']));
    const stream = await storage.get(key);
    const range = await storage.getRange(key, 4, 8);
    await storage.delete(key);
    expect(await text(stream)).toBe('a,b\n1,2\n');
    expect(await text(range)).toBe('1,2\n');
    expect(await storage.get(key)).toBeNull();
  });

  it('a failed body leaves nothing behind, not even after several parts', async () => {
    const key = `${root}/failed.csv`;
    async function* failing() {
      // More than one part on S3 (a multipart upload started, then aborted).
      for (let i = 0; i < 3; i++) yield Buffer.alloc(PART_SIZE / 2, 97);
      throw new Error('client went away');
    }
    await expect(storage.put(key, Readable.from(failing()))).rejects.toThrow('client went away');
    expect(await storage.get(key)).toBeNull();
    expect(await keys(storage, `${root}/failed`)).toEqual([]);
  });

  it('streams a multi-part object through unchanged', async () => {
    const size = 2 * PART_SIZE + 12_345;
    const { body, digest } = generated(size);
    const key = `${root}/big/upload.bin`;
    expect((await storage.put(key, body)).bytes).toBe(size);
    const back = createHash('sha256');
    let read = 0;
    for await (const chunk of (await storage.get(key))!) {
      back.update(chunk as Buffer);
      read += (chunk as Buffer).length;
    }
    expect(read).toBe(size);
    expect(back.digest('hex')).toBe(digest());
    await storage.delete(key);
  });

  it('reads byte ranges of an object, spanning parts, to its end and past it', async () => {
    const size = PART_SIZE + 1000;
    const key = `${root}/ranged.bin`;
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 8)) & 0xff;
    await storage.put(
      key,
      Readable.from([bytes.subarray(0, PART_SIZE / 2), bytes.subarray(PART_SIZE / 2)]),
    );
    const range = async (start: number, end: number) => {
      const s = await storage.getRange(key, start, end);
      if (!s) return null;
      const chunks: Buffer[] = [];
      for await (const c of s) chunks.push(Buffer.from(c as Buffer));
      return Buffer.concat(chunks);
    };
    expect((await range(0, 10))!.equals(bytes.subarray(0, 10))).toBe(true);
    // across the boundary of the first write's part
    const mid = PART_SIZE - 5;
    expect((await range(mid, mid + 900))!.equals(bytes.subarray(mid, mid + 900))).toBe(true);
    expect((await range(size - 3, size))!.equals(bytes.subarray(size - 3))).toBe(true);
    expect((await range(size - 3, size + 100))!.equals(bytes.subarray(size - 3))).toBe(true);
    expect((await range(5, 5))!.length).toBe(0);
    expect(await storage.getRange(`${root}/missing.bin`, 0, 10)).toBeNull();
    await storage.delete(key);
  });

  it('lists complete objects with their write time; deletePrefix removes one folder only', async () => {
    const before = Date.now() - 5_000;
    const other = `${root}x`;
    await storage.put(`${root}/one.csv`, Readable.from(['1']));
    await storage.put(`${root}/jobs/two.upload`, Readable.from(['2']));
    await storage.put(`${other}/three.csv`, Readable.from(['3']));
    const listed = new Map<string, Date>();
    for await (const { key, modifiedAt } of storage.list()) listed.set(key, modifiedAt);
    for (const key of [`${root}/one.csv`, `${root}/jobs/two.upload`, `${other}/three.csv`]) {
      expect(listed.get(key)?.getTime()).toBeGreaterThan(before);
      expect(listed.get(key)!.getTime()).toBeLessThan(Date.now() + 5_000);
    }

    await storage.deletePrefix(root);
    expect(await keys(storage, `${root}/`)).toEqual([]);
    expect(await storage.get(`${root}/jobs/two.upload`)).toBeNull();
    // A folder whose name merely starts the same is someone else's.
    expect(await text(await storage.get(`${other}/three.csv`))).toBe('3');
    await storage.deletePrefix(other);
    // Deleting an empty or missing folder is not an error.
    await expect(storage.deletePrefix(`${root}nothing`)).resolves.toBeUndefined();
  });

  it('refuses keys a server would never make', async () => {
    for (const bad of ['../x', 'a/../b', '/abs', 'a//b', 'a b', '']) {
      await expect(storage.put(bad, Readable.from(['x']))).rejects.toThrow(/Invalid storage key/);
      await expect(storage.get(bad)).rejects.toThrow(/Invalid storage key/);
    }
  });

  it('is ready (ping), and a sweep of temp writes finds none left by this run', async () => {
    await expect(storage.ping()).resolves.toBeUndefined();
    expect(await storage.sweepTemp(60 * 60 * 1000)).toBe(0);
  });
});

describe('S3 storage readiness', () => {
  it('a bucket that does not exist is not ready', async () => {
    const missing = new S3Storage({
      bucket: 'no-such-bucket',
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
    });
    try {
      await expect(missing.ping()).rejects.toThrow();
    } finally {
      missing.close();
    }
  });
});
