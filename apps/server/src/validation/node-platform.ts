// What the engine's input planner needs from Node in a validation worker: random access to a
// spooled upload (a zip's directory is at its end) and node:zlib's inflaters. The same as the
// CLI's (packages/cli/src/node-inputs.ts), which the server does not depend on.

import { open } from 'node:fs/promises';
import { pipeline, Readable } from 'node:stream';
import { createGunzip, createInflateRaw } from 'node:zlib';
import type { ByteSource, Decompress, InputPlatform } from '@schemacheck/engine';

function through(make: () => NodeJS.ReadWriteStream): Decompress {
  // pipeline() destroys every stream on an error or an early stop, so a refusal thrown while
  // counting ends the inflater too.
  return (compressed) =>
    pipeline(
      Readable.from(compressed, { objectMode: false }),
      make(),
      () => {},
    ) as unknown as AsyncIterable<Uint8Array>;
}

export const nodePlatform: InputPlatform = {
  gunzip: through(() => createGunzip({ chunkSize: 1 << 16 })),
  inflateRaw: through(() => createInflateRaw({ chunkSize: 1 << 16 })),
};

export interface FileSource extends ByteSource {
  close(): Promise<void>;
}

/** A file opened for reads at any offset; closed by the caller. */
export async function fileSource(path: string): Promise<FileSource> {
  const handle = await open(path, 'r');
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
