// What the engine needs from a platform to read archives: random access to the file's bytes and a
// raw-deflate inflater. Node gives them with fs and node:zlib, a browser with Blob.slice and
// DecompressionStream('deflate-raw'); the engine itself stays free of both.

/** A file readable at any offset (a zip's directory sits at its end). */
export interface ByteSource {
  readonly size: number;
  /** Exactly `length` bytes from `offset` (fewer only at the end of the file). */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** Decompresses a raw DEFLATE stream (zip method 8) or a gzip stream, chunk by chunk. */
export type Decompress = (compressed: AsyncIterable<Uint8Array>) => AsyncIterable<Uint8Array>;

/** A ByteSource over bytes already in memory (tests, a workbook inside a zip, the browser). */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.byteLength,
    read: (offset, length) =>
      Promise.resolve(bytes.subarray(offset, Math.min(bytes.byteLength, offset + length))),
  };
}

/** Reads a whole stream into one array, refusing past `max` bytes via `onTooLarge`. */
export async function collectBytes(
  chunks: AsyncIterable<Uint8Array>,
  max: number,
  onTooLarge: () => never,
): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.byteLength;
    if (total > max) onTooLarge();
    parts.push(chunk);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}
