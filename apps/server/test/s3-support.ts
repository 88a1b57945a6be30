import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

// A real S3-protocol server in this process (s3rver: objects on disk under a temp folder), for
// the tests of S3 storage (docs/decisions/215) and the browser test of direct uploads (236). It
// accepts the access key S3RVER/S3RVER, which the tests give the SDK through its standard chain
// (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY). Light on purpose (s3rver and Node only): the
// browser tests import it too.

export interface S3Server {
  endpoint: string;
  bucket: string;
  /** What the app's configuration takes: S3_BUCKET, S3_REGION, S3_ENDPOINT, S3_FORCE_PATH_STYLE. */
  env: Record<string, string>;
  /** Stops the server and removes its folder. */
  close(): Promise<void>;
}

export const S3_BUCKET = 'schemacheck-test';

/** `cors`: the bucket's CORS configuration (XML), for requests from a browser. */
export async function startS3Server(options: { cors?: string } = {}): Promise<S3Server> {
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  const directory = mkdtempSync(path.join(tmpdir(), 'sc-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: S3_BUCKET, ...(options.cors ? { configs: [options.cors] } : {}) }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket: S3_BUCKET,
    env: {
      S3_BUCKET,
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
    },
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
