import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openMemoryDatabase } from '../db/client.ts';

// The published OpenAPI document is committed at packages/contracts/src/api-v1/openapi.json
// (the web's /api-docs page renders it offline; a test compares it with what the server serves).
// `npm run openapi -w @schemacheck/server` rewrites it after a contract or route change.

export const SNAPSHOT_PATH = fileURLToPath(
  new URL('../../../../packages/contracts/src/api-v1/openapi.json', import.meta.url),
);

/** The document a freshly built app serves at /api/v1/openapi.json. */
export async function currentOpenApiDocument(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-openapi-'));
  const database = await openMemoryDatabase();
  try {
    await database.migrate();
    const config = loadConfig(
      {
        DATA_DIR: dir,
        SESSION_SECRET: 'openapi-snapshot-secret-openapi-snapshot',
        LOG_LEVEL: 'silent',
        RUN_JOBS: 'false',
        VALIDATION_WORKERS: '1',
        WEB_DIST: path.join(dir, 'no-web'),
      },
      { baseDir: dir },
    );
    const app = await buildApp(config, { database });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
      if (res.statusCode !== 200) throw new Error(`openapi.json: ${res.statusCode} ${res.body}`);
      return res.json() as Record<string, unknown>;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
