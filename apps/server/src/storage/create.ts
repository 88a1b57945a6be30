import path from 'node:path';
import type { Config } from '../config.ts';
import type { Storage } from './index.ts';
import { LocalStorage } from './local.ts';

/**
 * The configured store: the S3 bucket when S3_BUCKET is set (docs/decisions/215), else
 * DATA_DIR/reports. The AWS SDK is loaded only in the first case.
 */
export async function createStorage(config: Pick<Config, 'dataDir' | 's3'>): Promise<Storage> {
  if (config.s3) {
    const { S3Storage } = await import('./s3.ts');
    return new S3Storage(config.s3);
  }
  return new LocalStorage(path.join(config.dataDir, 'reports'));
}
