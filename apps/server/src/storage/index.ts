import type { Readable } from 'node:stream';

// Where full error reports (and later the uploads of asynchronous jobs) live
// (docs/decisions/031). Keys are chosen by the server and everything of a user lives under the
// user's prefix (keys.ts, docs/decisions/064), never named from a user's file name. Local disk
// under DATA_DIR/reports is the default; an S3-compatible bucket (S3_BUCKET, s3.ts,
// docs/decisions/215) is the scale-out option behind the same interface.

export interface Storage {
  /**
   * Writes `body` under `key`. The object appears only once complete (on disk a temp name, then
   * a rename; on S3 a multipart upload, completed at the end);
   * when `body` fails or is destroyed, nothing is left behind and the promise rejects.
   */
  put(key: string, body: Readable | AsyncIterable<Uint8Array | string>): Promise<{ bytes: number }>;
  /** A stream of the object, or null when there is none. */
  get(key: string): Promise<Readable | null>;
  /**
   * A stream of the object's bytes [start, end) (S3: a Range GET), or null when there is none.
   * Split jobs read their parts with it (docs/decisions/239); `end` past the object's size reads
   * to its end.
   */
  getRange(key: string, start: number, end: number): Promise<Readable | null>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Removes temp files (S3: incomplete multipart uploads) left by a crash that are older than
   * `olderThanMs`; returns how many.
   */
  sweepTemp(olderThanMs: number): Promise<number>;
  /** Removes every object whose key starts with `prefix/` (a user's whole folder). */
  deletePrefix(prefix: string): Promise<void>;
  /** Every complete object (temp files excluded), with when it was last written. */
  list(): AsyncIterable<{ key: string; modifiedAt: Date }>;
  /** Throws when the store cannot be used now (readiness: GET /readyz). */
  ping(): Promise<void>;
  /** Lets go of connections (app close). */
  close(): void;
  /**
   * Uploads that go from the client straight to the store (docs/decisions/235): an S3 bucket has
   * them; local disk, which no client can reach, has none (null).
   */
  readonly directUploads: DirectUploads | null;
}

/**
 * How long a direct upload may take (docs/decisions/235): the temp sweep leaves job uploads in
 * progress alone until then, and jobs/direct-uploads.ts aborts them after.
 */
export const DIRECT_UPLOAD_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** A multipart upload that the client sends part by part to presigned URLs. */
export interface DirectUploads {
  /** Starts one under `key` and signs a PUT URL per part, valid for `expiresInSeconds`. */
  start(
    key: string,
    partCount: number,
    expiresInSeconds: number,
  ): Promise<{ uploadId: string; urls: string[] }>;
  /**
   * Completes it from the parts' ETags and returns the object's size; a refusal of the parts
   * (missing, too small, a wrong ETag) throws PartsRefused.
   */
  complete(
    key: string,
    uploadId: string,
    parts: Array<{ partNumber: number; etag: string }>,
  ): Promise<{ bytes: number }>;
  /** Drops it and its parts; an upload already gone is not an error. */
  abort(key: string, uploadId: string): Promise<void>;
}

/** The store refused the parts of a direct upload; the message says why. */
export class PartsRefused extends Error {
  override name = 'PartsRefused';
}

export { userKey, userPrefix } from './keys.ts';
// S3Storage (./s3.ts) is imported only where S3 is configured (create.ts): the AWS SDK is large.
