// Node's inflaters for the engine's archive tests (the engine itself never imports node:zlib),
// and a platform that cuts every inflater's output at chosen offsets, to show that where
// chunks end never changes what is read.
import { pipeline, Readable } from 'node:stream';
import { createGunzip, createInflateRaw, gunzipSync, inflateRawSync } from 'node:zlib';
import type { Decompress, InputPlatform } from '../src/index.ts';

const through =
  (make: () => NodeJS.ReadWriteStream): Decompress =>
  (compressed) =>
    pipeline(Readable.from(compressed), make(), () => {}) as unknown as AsyncIterable<Uint8Array>;

export const nodePlatform: InputPlatform = {
  gunzip: through(() => createGunzip()),
  inflateRaw: through(() => createInflateRaw()),
};

async function concat(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of chunks) parts.push(c);
  return Buffer.concat(parts);
}

/** Inflates whole, then hands the output on in pieces cut at `cut(length)`'s offsets. */
export function cuttingPlatform(cut: (length: number) => number[]): InputPlatform {
  const split = (inflate: (b: Uint8Array) => Uint8Array): Decompress =>
    async function* (compressed) {
      const out = inflate(await concat(compressed));
      let at = 0;
      for (const c of cut(out.length)) {
        if (c > at && c < out.length) {
          yield out.subarray(at, c);
          at = c;
        }
      }
      yield out.subarray(at);
    };
  return { gunzip: split((b) => gunzipSync(b)), inflateRaw: split((b) => inflateRawSync(b)) };
}
