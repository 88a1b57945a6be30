import S3rver from 's3rver';
import { tempDir } from './helpers.ts';

// A real S3-protocol server in this process (s3rver: objects on disk under a temp folder), for
// the tests of S3 storage (docs/decisions/215). It accepts the access key S3RVER/S3RVER, which the
// tests give the SDK through its standard chain (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY).

export interface S3Server {
  endpoint: string;
  bucket: string;
  /** What the app's configuration takes: S3_BUCKET, S3_REGION, S3_ENDPOINT, S3_FORCE_PATH_STYLE. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export const S3_BUCKET = 'schemacheck-test';

export async function startS3Server(): Promise<S3Server> {
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: tempDir('sc-s3-'),
    configureBuckets: [{ name: S3_BUCKET }],
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
    close: () => server.close(),
  };
}
