import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  UploadPartCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DIRECT_UPLOAD_MAX_AGE_MS,
  PartsRefused,
  type DirectUploads,
  type Storage,
} from './index.ts';
import { assertKey } from './keys.ts';

// An S3-compatible bucket behind the Storage interface (docs/decisions/215): AWS S3, Cloudflare
// R2, Backblaze B2, MinIO, Ceph, Garage, ... Keys are the same server-made keys as on disk.
// - put: a multipart upload (@aws-sdk/lib-storage's Upload: 8 MiB parts, 4 in flight), so memory
//   stays at about 32 MiB per write whatever the size; the object appears only when the upload
//   completes, and a failed body aborts it (nothing is left but, at worst, parts that the sweep
//   and the bucket's lifecycle rule abort).
// - get: a streamed GetObject (the body is a Node stream, read as it arrives).
// - sweepTemp: multipart uploads started before the cutoff and never completed (the crash of a
//   writer) are aborted; services without ListMultipartUploads leave it to the lifecycle rule.
// - deletePrefix and list: ListObjectsV2 pages of 1,000, DeleteObjects in batches of 1,000.
// - directUploads (docs/decisions/235): a multipart upload whose parts the client PUTs to
//   presigned URLs (@aws-sdk/s3-request-presigner), completed from their ETags.
// Credentials come from the SDK's standard chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY,
// AWS_PROFILE, web identity, the instance's role), never from SchemaCheck's configuration.

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** For services other than AWS (http(s)://host:port); null means AWS's own endpoint. */
  endpoint: string | null;
  /** Path-style URLs (https://host/bucket/key), which MinIO, Ceph and s3rver want. */
  forcePathStyle: boolean;
  /** Only for tests; the SDK's default chain otherwise. */
  credentials?: S3ClientConfig['credentials'];
}

/** lib-storage's default part size is 5 MiB; 8 MiB parts reach the 10,000-part cap at 78 GiB. */
export const PART_SIZE = 8 * 1024 * 1024;
/** The key of a job upload (jobs/validation-jobs.ts uploadKeyFor). */
const JOB_UPLOAD_KEY = /\/uploads\/[^/]+\.upload$/;
/** Codes of CompleteMultipartUpload's refusals of the parts the client named. */
const PART_REFUSALS = new Set([
  'InvalidPart',
  'InvalidPartOrder',
  'EntityTooSmall',
  'NoSuchUpload',
]);
const QUEUE_SIZE = 4;

function isNotFound(err: unknown): boolean {
  if (!(err instanceof S3ServiceException)) return false;
  return (
    err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404
  );
}

function isNotImplemented(err: unknown): boolean {
  return (
    err instanceof S3ServiceException &&
    (err.name === 'NotImplemented' || err.$metadata.httpStatusCode === 501)
  );
}

export class S3Storage implements Storage {
  readonly client: S3Client;
  readonly bucket: string;
  readonly directUploads: DirectUploads;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // Checksums only where the API requires one: S3-compatible services differ in what they
      // accept of the newer flexible checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.directUploads = {
      start: (key, partCount, expiresIn) => this.startDirect(key, partCount, expiresIn),
      complete: (key, uploadId, parts) => this.completeDirect(key, uploadId, parts),
      abort: (key, uploadId) => this.abortDirect(key, uploadId),
    };
  }

  private async startDirect(
    key: string,
    partCount: number,
    expiresIn: number,
  ): Promise<{ uploadId: string; urls: string[] }> {
    assertKey(key);
    const { UploadId } = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }),
    );
    if (!UploadId) throw new Error('S3 CreateMultipartUpload answered no UploadId');
    const urls: string[] = [];
    for (let n = 1; n <= partCount; n++) {
      urls.push(
        await getSignedUrl(
          this.client,
          new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId, PartNumber: n }),
          { expiresIn },
        ),
      );
    }
    return { uploadId: UploadId, urls };
  }

  private async completeDirect(
    key: string,
    uploadId: string,
    parts: Array<{ partNumber: number; etag: string }>,
  ): Promise<{ bytes: number }> {
    assertKey(key);
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: {
            Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })),
          },
        }),
      );
    } catch (err) {
      if (err instanceof S3ServiceException && PART_REFUSALS.has(err.name)) {
        throw new PartsRefused(err.message);
      }
      throw err;
    }
    const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
    return { bytes: head.ContentLength ?? 0 };
  }

  private async abortDirect(key: string, uploadId: string): Promise<void> {
    assertKey(key);
    try {
      await this.client.send(
        new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }),
      );
    } catch (err) {
      if (err instanceof S3ServiceException && err.name === 'NoSuchUpload') return;
      if (isNotFound(err)) return;
      // s3rver and some S3-compatible services cannot abort: the bucket's lifecycle rule
      // (AbortIncompleteMultipartUpload, docs/deploy.md) drops the parts there.
      if (
        isNotImplemented(err) ||
        (err instanceof S3ServiceException && err.name === 'MethodNotAllowed')
      ) {
        return;
      }
      throw err;
    }
  }

  async put(
    key: string,
    body: Readable | AsyncIterable<Uint8Array | string>,
  ): Promise<{ bytes: number }> {
    assertKey(key);
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer | string, _encoding, done) {
        const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        bytes += data.length;
        done(null, data);
      },
    });
    const source = body instanceof Readable ? body : Readable.from(body);
    // The body's failure reaches the upload through the counter (destroyed with the error).
    const piped = pipeline(source, counter);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: counter },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    try {
      await Promise.all([upload.done(), piped]);
    } catch (err) {
      counter.destroy();
      source.destroy();
      await upload.abort().catch(() => {});
      await piped.catch(() => {});
      throw err;
    }
    return { bytes };
  }

  async get(key: string): Promise<Readable | null> {
    assertKey(key);
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return res.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async getRange(key: string, start: number, end: number): Promise<Readable | null> {
    assertKey(key);
    // An empty range is no Range header S3 accepts; the object's existence still decides.
    if (end <= start) {
      const whole = await this.get(key);
      if (!whole) return null;
      whole.destroy();
      return Readable.from([]);
    }
    try {
      const res = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=${start}-${end - 1}` }),
      );
      return res.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) return null;
      // A range that starts past the end (416): nothing to read.
      if (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 416) {
        return Readable.from([]);
      }
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertKey(prefix);
    let keys: string[] = [];
    const flush = async () => {
      if (keys.length === 0) return;
      const batch = keys;
      keys = [];
      const res = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = res.Errors?.filter((e) => e.Code !== 'NoSuchKey') ?? [];
      if (failed.length > 0) {
        throw new Error(
          `S3 DeleteObjects failed for ${failed.length} key(s): ${failed[0]!.Code ?? ''} ${failed[0]!.Message ?? ''}`,
        );
      }
    };
    for await (const { key } of this.listUnder(`${prefix}/`)) {
      keys.push(key);
      if (keys.length === 1000) await flush();
    }
    await flush();
  }

  list(): AsyncIterable<{ key: string; modifiedAt: Date }> {
    return this.listUnder(undefined);
  }

  private async *listUnder(
    prefix: string | undefined,
  ): AsyncGenerator<{ key: string; modifiedAt: Date }> {
    let token: string | undefined;
    do {
      const res = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          ...(prefix ? { Prefix: prefix } : {}),
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const o of res.Contents ?? []) {
        if (o.Key) yield { key: o.Key, modifiedAt: o.LastModified ?? new Date(0) };
      }
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
  }

  async sweepTemp(olderThanMs: number): Promise<number> {
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    try {
      do {
        const res = await this.client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.bucket,
            ...(keyMarker ? { KeyMarker: keyMarker } : {}),
            ...(uploadIdMarker ? { UploadIdMarker: uploadIdMarker } : {}),
          }),
        );
        for (const u of res.Uploads ?? []) {
          if (!u.Key || !u.UploadId || !u.Initiated) continue;
          // A direct upload's parts arrive from the client for up to a day (decision 235).
          const before = JOB_UPLOAD_KEY.test(u.Key)
            ? Math.min(cutoff, Date.now() - DIRECT_UPLOAD_MAX_AGE_MS)
            : cutoff;
          if (u.Initiated.getTime() > before) continue;
          await this.client.send(
            new AbortMultipartUploadCommand({
              Bucket: this.bucket,
              Key: u.Key,
              UploadId: u.UploadId,
            }),
          );
          removed++;
        }
        keyMarker = res.IsTruncated ? res.NextKeyMarker : undefined;
        uploadIdMarker = res.IsTruncated ? res.NextUploadIdMarker : undefined;
      } while (keyMarker);
    } catch (err) {
      // s3rver and some S3-compatible services lack ListMultipartUploads: the bucket's
      // lifecycle rule (AbortIncompleteMultipartUpload, docs/deploy.md) does it there.
      if (!isNotImplemented(err)) throw err;
    }
    return removed;
  }

  /** Readiness (GET /readyz): the bucket exists and these credentials may use it. */
  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  close(): void {
    this.client.destroy();
  }
}
