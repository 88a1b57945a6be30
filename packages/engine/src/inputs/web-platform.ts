// The archive platform from web standards alone: DecompressionStream for gzip and raw deflate,
// Blob.slice for random access. Browsers and Web Workers have both (Chrome 80+, Firefox 113+,
// Safari 16.4+ for 'deflate-raw'), and so does Node 20, where the tests run it. The engine declares
// only the shapes it uses here, so it still loads no DOM types.

import type { ByteSource, Decompress } from '../archive/byte-source.ts';
import type { InputPlatform } from './open-inputs.ts';

interface StreamReader {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  cancel(reason?: unknown): Promise<void>;
}
interface StreamWriter {
  readonly ready: Promise<void>;
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
  abort(reason?: unknown): Promise<void>;
}
interface DecompressionStreamLike {
  readonly readable: { getReader(): StreamReader };
  readonly writable: { getWriter(): StreamWriter };
}
type DecompressionStreamConstructor = new (format: string) => DecompressionStreamLike;

/** What a File or Blob offers that a ByteSource needs. */
export interface BlobLike {
  readonly size: number;
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

/** Random access to a File or Blob (a dropped file is read where it lies, never whole). */
export function blobSource(blob: BlobLike): ByteSource {
  return {
    size: blob.size,
    read: async (offset, length) =>
      new Uint8Array(await blob.slice(offset, Math.min(blob.size, offset + length)).arrayBuffer()),
  };
}

function decompressor(format: 'gzip' | 'deflate-raw'): Decompress {
  return async function* (compressed) {
    const Constructor = (globalThis as { DecompressionStream?: DecompressionStreamConstructor })
      .DecompressionStream;
    if (!Constructor) throw new Error('this browser cannot decompress (no DecompressionStream)');
    const stream = new Constructor(format);
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    let failure: { error: unknown } | undefined;
    // Written while read: the stream holds back writes until its output is taken.
    const pump = (async () => {
      try {
        for await (const chunk of compressed) {
          await writer.ready;
          await writer.write(chunk);
        }
        await writer.close();
      } catch (error) {
        failure ??= { error };
        await writer.abort(error).catch(() => {});
      }
    })();
    let finished = false;
    try {
      for (;;) {
        let next: { done: boolean; value?: Uint8Array };
        try {
          next = await reader.read();
        } catch (error) {
          throw failure ? failure.error : error;
        }
        if (next.done) break;
        if (next.value && next.value.byteLength > 0) yield next.value;
      }
      finished = true;
    } finally {
      // Stopped early (a guard refused, the caller stopped): end the inflater and the writer.
      if (!finished) {
        failure ??= { error: new Error('stopped') };
        await reader.cancel().catch(() => {});
      }
      await pump;
    }
    if (failure) throw failure.error;
  };
}

/** gzip and raw deflate through the platform's DecompressionStream. */
export const webPlatform: InputPlatform = {
  gunzip: decompressor('gzip'),
  inflateRaw: decompressor('deflate-raw'),
};
