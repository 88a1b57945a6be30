import { planInputs } from '@schemacheck/engine';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileSource, nodePlatform, spool } from '../src/index.ts';

// The Node side the engine is given by the server's worker and the CLI: node:zlib's inflaters,
// a file read at any offset, and standard input spooled to a file. Real files, real zlib.

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'node-platform-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function* chunksOf(bytes: Uint8Array, size: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function text(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
}

const CSV = 'id,name\n' + Array.from({ length: 5000 }, (_, i) => `${i},name ${i}`).join('\n');

describe('nodePlatform', () => {
  it('inflates gzip and raw DEFLATE fed in small pieces', async () => {
    const gz = gzipSync(CSV);
    expect(await text(nodePlatform.gunzip(chunksOf(gz, 7)))).toBe(CSV);
    const raw = deflateRawSync(CSV);
    expect(await text(nodePlatform.inflateRaw(chunksOf(raw, 1000)))).toBe(CSV);
  });

  it('rejects damaged compressed data', async () => {
    const gz = Buffer.from(gzipSync(CSV));
    gz.fill(0xff, 20, 60);
    await expect(text(nodePlatform.gunzip(chunksOf(gz, 64)))).rejects.toThrow();
  });

  it('lets a reader stop early', async () => {
    const big = gzipSync(Buffer.alloc(8 << 20, 'a'));
    let seen = 0;
    for await (const chunk of nodePlatform.gunzip(chunksOf(big, 4096))) {
      seen += chunk.byteLength;
      if (seen > 100_000) break;
    }
    expect(seen).toBeGreaterThan(100_000);
    expect(seen).toBeLessThan(8 << 20);
  });
});

describe('fileSource', () => {
  it('reads any range of a file, fewer bytes only at its end', async () => {
    const path = join(dir, 'bytes.bin');
    const bytes = randomBytes(300_000);
    await writeFile(path, bytes);
    const source = await fileSource(path);
    try {
      expect(source.size).toBe(300_000);
      expect(Buffer.from(await source.read(0, 10))).toEqual(bytes.subarray(0, 10));
      expect(Buffer.from(await source.read(123_457, 70_000))).toEqual(
        bytes.subarray(123_457, 193_457),
      );
      expect((await source.read(299_990, 100)).byteLength).toBe(10);
      expect((await source.read(400_000, 10)).byteLength).toBe(0);
    } finally {
      await source.close();
    }
  });

  it('is what the engine plans a .csv.gz with', async () => {
    const path = join(dir, 'orders.csv.gz');
    await writeFile(path, gzipSync(CSV));
    const source = await fileSource(path);
    try {
      const [planned] = await planInputs('orders.csv.gz', source, nodePlatform);
      const opened = await planned!.open();
      expect(opened).toMatchObject({ name: 'orders.csv.gz', compression: 'gzip', fileType: 'csv' });
      expect(await text(opened.chunks)).toBe(CSV);
    } finally {
      await source.close();
    }
  });
});

describe('spool', () => {
  it('writes a stream to a temporary file that remove() deletes', async () => {
    const spooled = await spool(chunksOf(Buffer.from(CSV), 333));
    expect(await readFile(spooled.path, 'utf8')).toBe(CSV);
    await spooled.remove();
    expect(existsSync(spooled.path)).toBe(false);
  });

  it('leaves no file behind when the stream fails', async () => {
    const own = await mkdtemp(join(dir, 'tmp-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = own; // where os.tmpdir() points, so the spool's folder is seen
    try {
      async function* failing(): AsyncIterable<Uint8Array> {
        yield Buffer.from('part');
        throw new Error('stdin broke');
      }
      await expect(spool(failing())).rejects.toThrow('stdin broke');
      expect(await readdir(own)).toEqual([]);
      const kept = await spool(chunksOf(Buffer.from('a,b\n'), 2));
      expect(kept.path.startsWith(own)).toBe(true);
      await kept.remove();
      expect(await readdir(own)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });
});
