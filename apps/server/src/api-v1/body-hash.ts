import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { DRAIN_MAX_BYTES } from '../validation/upload-request.ts';

// The content of a multipart upload, for its Idempotency-Key fingerprint (docs/decisions/133).
// A SHA-256 of the body as it streams past, so a different file of the same size is a different
// request. The boundary changes on every send, so each occurrence of it is left out of the hash:
// the same form sent again hashes the same.

export interface BodyHash {
  /** The hex digest once the whole body has been read; null before, or if it never was. */
  digest(): string | null;
  /** Settles with the digest when the body ends, or null when the connection goes first. */
  ended: Promise<string | null>;
}

/**
 * Hashes the request body as whoever reads it (the multipart parser, or a drain) consumes it.
 * Call before anything reads the body: the listener is added without starting the flow, so the
 * parser that pipes the body later still gets every byte.
 */
export function hashMultipartBody(request: FastifyRequest): BodyHash {
  const raw = request.raw;
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(request.headers['content-type'] ?? '');
  const hasher = new BoundaryFreeHash(Buffer.from(boundary?.[1] ?? boundary?.[2] ?? '', 'latin1'));
  let digest: string | null = null;
  const ended = new Promise<string | null>((resolve) => {
    raw.on('end', () => resolve((digest = hasher.digest())));
    raw.on('close', () => resolve(digest));
    raw.on('error', () => resolve(null));
  });
  if (!raw.readableFlowing) raw.pause();
  raw.on('data', (chunk: Buffer) => hasher.update(chunk));
  return { digest: () => digest, ended };
}

/**
 * Reads the rest of a body nobody else will read, so that its hash is known; gives up (and
 * closes the connection) past DRAIN_MAX_BYTES.
 */
export async function readToEnd(request: FastifyRequest, hash: BodyHash): Promise<string | null> {
  const raw = request.raw;
  let left = DRAIN_MAX_BYTES;
  raw.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) raw.destroy();
  });
  raw.resume();
  return hash.ended;
}

/** SHA-256 of a stream with every occurrence of `cut` left out, across chunk edges too. */
export class BoundaryFreeHash {
  private readonly hash = createHash('sha256');
  private carry: Buffer = Buffer.alloc(0);

  constructor(private readonly cut: Buffer) {}

  update(chunk: Buffer): void {
    if (this.cut.length === 0) {
      this.hash.update(chunk);
      return;
    }
    const buf = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    let start = 0;
    for (let i = buf.indexOf(this.cut, start); i >= 0; i = buf.indexOf(this.cut, start)) {
      this.hash.update(buf.subarray(start, i));
      start = i + this.cut.length;
    }
    // The last bytes may be the start of a boundary that the next chunk completes.
    const keep = Math.min(buf.length - start, this.cut.length - 1);
    this.hash.update(buf.subarray(start, buf.length - keep));
    this.carry = Buffer.from(buf.subarray(buf.length - keep));
  }

  digest(): string {
    this.hash.update(this.carry);
    this.carry = Buffer.alloc(0);
    return this.hash.digest('hex');
  }
}
