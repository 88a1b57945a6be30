// What the engine's input planner needs from Node: random access to a file (a zip's directory is
// at its end) and node:zlib's inflaters, 3-4x faster than a JavaScript inflater on gzip. The
// engine takes them as an injected platform (it imports nothing from Node); the server's
// validation worker and the CLI both give it these (the CLI bundles them into its dist/).

import { open, type FileHandle } from 'node:fs/promises';
import { pipeline, Readable } from 'node:stream';
import { createGunzip, createInflateRaw } from 'node:zlib';
import type { ByteSource, Decompress, InputPlatform } from '@schemacheck/engine';

function through(make: () => NodeJS.ReadWriteStream): Decompress {
  // pipeline() destroys every stream on an error or an early stop, so a refusal thrown while
  // counting the input ends the inflater too, and a reader that stops leaves nothing running.
  return (compressed) =>
    pipeline(
      Readable.from(compressed, { objectMode: false }),
      make(),
      () => {},
    ) as unknown as AsyncIterable<Uint8Array>;
}

export const nodePlatform: InputPlatform = {
  gunzip: through(() => createGunzip({ chunkSize: 1 << 16 })),
  // A workbook's sheet inflates to ~4x its size: 256 KiB pieces make a quarter of the trips
  // through the thread pool and the stream (the bench's 121 MB sheet: ~0.13 s of CPU, not ~0.21).
  inflateRaw: through(() => createInflateRaw({ chunkSize: 1 << 18 })),
};

export interface FileSource extends ByteSource {
  close(): Promise<void>;
}

/** A file opened for reads at any offset; closed by the caller. */
export async function fileSource(path: string): Promise<FileSource> {
  const handle: FileHandle = await open(path, 'r');
  const { size } = await handle.stat();
  return {
    size,
    async read(offset, length) {
      const want = Math.max(0, Math.min(length, size - offset));
      const buffer = Buffer.allocUnsafe(want);
      let got = 0;
      while (got < want) {
        const { bytesRead } = await handle.read(buffer, got, want - got, offset + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return got === want ? buffer : buffer.subarray(0, got);
    },
    close: () => handle.close(),
  };
}

/**
 * Standard input holding a zip or workbook is written to a temporary file first: reading a zip
 * needs its directory, which is at the end. The file is removed by `remove()`.
 */
export async function spool(
  chunks: AsyncIterable<Uint8Array>,
): Promise<{ path: string; remove(): Promise<void> }> {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { createWriteStream } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { pipeline: pipe } = await import('node:stream/promises');
  const dir = await mkdtemp(join(tmpdir(), 'schemacheck-'));
  const path = join(dir, 'stdin');
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    await pipe(Readable.from(chunks), createWriteStream(path));
  } catch (error) {
    await remove();
    throw error;
  }
  return { path, remove };
}
