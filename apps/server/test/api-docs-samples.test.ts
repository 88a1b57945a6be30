import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  endpointSamples,
  type EndpointSample,
  type SampleLanguage,
} from '../../web/src/features/api-docs/samples.ts';
import { tempDir, testAppForFile } from './helpers.ts';
import { businessUser, jobsConfig, Receiver } from './jobs-support.ts';

// Every code sample of /api-docs, run as its reader would run it (curl in sh, python3 with
// requests, node) against a listening server with jobs running: the schema, validation, report,
// job (submit, then poll until it ends), webhook registration, usage and deletion samples all
// work as printed, with the absolute base URL the page shows. e2e/api.test.ts runs them again
// from the page in Chromium.

const t = testAppForFile({
  env: { RUN_JOBS: 'true' },
  config: jobsConfig(),
  deps: { now: () => new Date() },
});
const receiver = new Receiver();
let base = '';
let key = '';
let workDir = '';

const PRODUCTS_CSV = 'sku,price,email\nABC-0001,9.99,a@example.com\nbad,-1,not-an-email\n';

beforeAll(async () => {
  await receiver.start();
  ({ key } = await businessUser(t, 189, 'samples'));
  base = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/api/v1`;
  workDir = tempDir('sc-samples-');
  writeFileSync(path.join(workDir, 'products.csv'), PRODUCTS_CSV);
});
afterAll(async () => {
  await receiver.stop();
});

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: workDir, env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? ((error as { code?: number }).code ?? 1) : 0,
          stdout: stdout.toString(),
          stderr: stderr.toString(),
        }),
    );
  });
}

function runSample(language: SampleLanguage, code: string, env: Record<string, string>) {
  const file = path.join(
    workDir,
    { curl: 'sample.sh', python: 'sample.py', javascript: 'sample.mjs' }[language],
  );
  writeFileSync(file, code);
  if (language === 'curl') return run('sh', ['-e', file], env);
  if (language === 'python') return run('python3', [file], env);
  return run(process.execPath, [file], env);
}

/** The order a reader follows: a schema, a file, its report, a job, a webhook, usage, clean-up. */
const ORDER = [
  'createSchema',
  'listSchemas',
  'getSchema',
  'replaceSchema',
  'validateFile',
  'getReport',
  'createJob',
  'getJob',
  'createWebhook',
  'getUsage',
  'deleteSchema',
];

describe('the /api-docs samples', () => {
  it('are every sample of the page, with an absolute base URL', () => {
    const samples = endpointSamples(base);
    expect(new Set(samples.map((s) => s.operationId))).toEqual(new Set(ORDER));
    for (const s of samples) expect(s.code.curl, s.operationId).toContain(`"${base}/`);
  });

  it.each(['curl', 'python', 'javascript'] as const)(
    'run in %s',
    async (language) => {
      const samples = endpointSamples(base);
      const byId = (id: string): EndpointSample => samples.find((s) => s.operationId === id)!;
      const env: Record<string, string> = { SCHEMACHECK_API_KEY: key, WEBHOOK_URL: receiver.url };
      for (const id of ORDER) {
        const ran = await runSample(language, byId(id).code[language], env);
        const where = `${language} ${id}: ${ran.stderr}${ran.stdout}`;
        expect(ran.code, where).toBe(0);
        const out = ran.stdout.trim();
        const last = out.split(/\s+/).pop()!;
        if (id === 'createSchema') {
          env.SCHEMA_ID = language === 'curl' ? JSON.parse(out).schema_id : out;
          expect(env.SCHEMA_ID, where).toMatch(/^[0-9a-f-]{36}$/);
        }
        if (id === 'validateFile') {
          env.REPORT_ID = language === 'curl' ? JSON.parse(out).report_id : last;
          expect(env.REPORT_ID, where).toMatch(/^[0-9a-f-]{36}$/);
        }
        if (id === 'createJob') {
          env.JOB_ID = language === 'curl' ? JSON.parse(out).job_id : out;
          expect(env.JOB_ID, where).toMatch(/^[0-9a-f-]{36}$/);
        }
        if (id === 'getJob') {
          if (language === 'curl') {
            expect(JSON.parse(out), where).toMatchObject({
              status: 'completed',
              result: { error_count: 3 },
            });
          } else expect(out, where).toBe('completed 3');
        }
        if (id === 'createWebhook') {
          const secret = language === 'curl' ? JSON.parse(out).secret : last;
          expect(secret, where).toMatch(/^whsec_/);
        }
      }
    },
    300_000,
  );
});
