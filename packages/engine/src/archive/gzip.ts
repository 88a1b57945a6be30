// gzip streams, inflated by the platform (node:zlib, DecompressionStream) and guarded here: gzip
// declares no size up front (its trailer holds the size modulo 4 GiB), so the guard counts the
// output as it comes and refuses a bomb within the first chunks past the ratio's free allowance.

import type { Decompress } from './byte-source.ts';
import { type ArchiveLimits, InflateGuard } from './limits.ts';

export async function* gunzipGuarded(
  compressed: AsyncIterable<Uint8Array>,
  gunzip: Decompress,
  limits: ArchiveLimits,
  what: string,
): AsyncIterable<Uint8Array> {
  const guard = new InflateGuard(what, limits);
  async function* counted(): AsyncIterable<Uint8Array> {
    for await (const chunk of compressed) {
      guard.input(chunk.byteLength);
      yield chunk;
    }
  }
  for await (const chunk of gunzip(counted())) {
    guard.output(chunk.byteLength);
    yield chunk;
  }
}
