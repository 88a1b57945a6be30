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
}

export { userKey, userPrefix } from './keys.ts';
// S3Storage (./s3.ts) is imported only where S3 is configured (create.ts): the AWS SDK is large.
