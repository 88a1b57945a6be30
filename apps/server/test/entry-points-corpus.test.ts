import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectFileType, parseSchemaText, validateBytes } from '@schemacheck/engine';
import { describe, expect, it } from 'vitest';
import { jobsConfig } from './jobs-support.ts';
import { clientsOf, registerOnTier, tempDir, testAppForFile } from './helpers.ts';

// One schema reader and one file reading for every entry point (docs/decisions/132): each pair
// of the corpus goes through the web upload, POST /v1/validate, POST /v1/jobs, the CLI's built
// bundle and the engine itself (what the browser runs), and every one of them must report the
// same errors and warnings. The schema travels as a form field typed application/json, which the
// multipart plugin used to JSON.parse (bounds past 2^53 lost their last digit).

const t = testAppForFile({
  env: { RUN_JOBS: 'true', API_RATE_LIMIT_PER_MINUTE: '1000' },
  config: jobsConfig(),
  deps: { now: () => new Date() },
});
const newClient = clientsOf(t, 64);
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

interface Pair {
  name: string;
  schema: string;
  fileName: string;
  file: string;
}

const CORPUS: Pair[] = [
  {
    name: 'integer bounds past 2^53',
    schema:
      '{"name":"Big","fileType":"csv","fields":[{"name":"n","type":"integer","required":true,' +
      '"validation":{"minValue":-9007199254740993,"maxValue":9007199254740993}}]}',
    fileName: 'big.csv',
    file: 'n\n9007199254740993\n-9007199254740993\n9007199254740994\n-9007199254740994\n',
  },
  {
    name: 'an empty CSV',
    schema: JSON.stringify({
      name: 'People',
      fileType: 'csv',
      fields: [
        { name: 'email', type: 'email', required: true, validation: {} },
        { name: 'age', type: 'integer', required: false, validation: {} },
      ],
    }),
    fileName: 'people.csv',
    file: '',
  },
  {
    name: 'an unknown option (a warning) in the API form',
    schema: JSON.stringify({
      name: 'Codes',
      type: 'csv',
      rules: {
        columns: [
          { name: 'code', type: 'string', required: true, pattern: '^[A-Z]{3}$', colour: 'red' },
        ],
      },
    }),
    fileName: 'codes.csv',
    file: 'code\nABC\nabc\n\n',
  },
  {
    name: 'JSON Schema and a JSON file',
    schema: JSON.stringify({
      type: 'array',
      items: {
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'integer' }, email: { type: 'string', format: 'email' } },
        oneOf: [{ required: ['id'] }],
      },
    }),
    fileName: 'rows.json',
    file: '[{"id": 1, "email": "a@example.com"}, {"id": "x", "email": "nope"}, {}]',
  },
  {
    name: 'a schema without a file type and a CSV',
    schema: JSON.stringify({ fields: [{ name: 'sku', type: 'string', required: true }] }),
    fileName: 'items.csv',
    file: 'sku\nA1\n\n',
  },
];

interface Issue {
  row: number;
  field: string;
  code: string;
  message: string;
  value: string;
  path: string | null;
}
interface Outcome {
  errors: Issue[];
  warnings: { code: string; message: string }[];
}

type RawIssue = {
  row: number;
  field?: string;
  column?: string;
  code: string;
  message: string;
  value?: string | null;
  path?: string;
};

/** Each entry point's items in one shape: a missing and an empty value read alike. */
function outcome(errors: RawIssue[], warnings: { code: string; message: string }[]): Outcome {
  return {
    errors: errors.map((e) => ({
      row: e.row,
      field: e.field ?? e.column ?? '',
      code: e.code,
      message: e.message,
      value: e.value ?? '',
      path: e.path ?? null,
    })),
    warnings: warnings.map(({ code, message }) => ({ code, message })),
  };
}

/** A form with the schema as an application/json field and the file, as a pipeline sends it. */
function form(pair: Pair) {
  const boundary = `----corpus${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="schema"\r\n` +
        `Content-Type: application/json\r\n\r\n${pair.schema}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${pair.fileName}"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.from(pair.file),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function account() {
  const web = newClient();
  await registerOnTier(t, web, 'business', 'corpus');
  const created = await web.post('/api/api-keys', { name: 'Corpus' });
  expect(created.statusCode, created.body).toBe(201);
  return { web, auth: { authorization: `Bearer ${created.json().key as string}` } };
}

type Account = Awaited<ReturnType<typeof account>>;

const entryPoints: Record<string, (pair: Pair, a: Account) => Promise<Outcome>> = {
  async engine(pair) {
    const parsed = parseSchemaText(pair.schema);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const bytes = new TextEncoder().encode(pair.file);
    const type = detectFileType(pair.fileName, bytes, parsed.value.fileType);
    if (!type) throw new Error('no file type');
    const r = validateBytes(parsed.value, bytes, { ...type, maxErrors: 1000, now: new Date() });
    return outcome(r.errors as RawIssue[], r.warnings);
  },

  async cli(pair) {
    const dir = tempDir('sc-corpus-');
    writeFileSync(path.join(dir, 'schema.json'), pair.schema);
    writeFileSync(path.join(dir, pair.fileName), pair.file);
    const r = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'packages/cli/bin/schemacheck.js'),
        'validate',
        path.join(dir, pair.fileName),
        '--schema',
        path.join(dir, 'schema.json'),
        '--format',
        'json',
      ],
      { encoding: 'utf8' },
    );
    const result = JSON.parse(r.stdout) as { errors: RawIssue[]; warnings: Outcome['warnings'] };
    return outcome(result.errors, result.warnings);
  },

  async web(pair, a) {
    const body = form(pair);
    const res = await a.web.post('/api/validate', undefined, {
      payload: body.payload,
      headers: body.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return outcome(res.json().errors as RawIssue[], res.json().warnings);
  },

  async v1(pair, a) {
    const body = form(pair);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/validate',
      headers: { ...a.auth, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    return outcome(res.json().sample_errors as RawIssue[], res.json().warnings);
  },

  async jobs(pair, a) {
    const body = form(pair);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/jobs',
      headers: { ...a.auth, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().job_id as string;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const job = (
        await t.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}`, headers: a.auth })
      ).json();
      if (job.status === 'failed') throw new Error(`job failed: ${job.error}`);
      if (job.status === 'completed') {
        const report = await t.app.inject({
          method: 'GET',
          url: `/api/v1/reports/${job.result.report_id}?format=json`,
          headers: a.auth,
        });
        return outcome(report.json().errors as RawIssue[], job.result.warnings);
      }
      if (Date.now() > deadline) throw new Error(`job still ${job.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  },
};

describe('the same schema and file answer alike at every entry point', () => {
  for (const pair of CORPUS) {
    it(
      pair.name,
      async () => {
        const a = await account();
        const answers: Record<string, Outcome> = {};
        for (const [name, run] of Object.entries(entryPoints)) answers[name] = await run(pair, a);
        for (const name of Object.keys(answers)) {
          expect({ [name]: answers[name] }).toEqual({ [name]: answers.engine });
        }
      },
      60_000,
    );
  }

  it('reads the corpus as the engine means it', async () => {
    const big = await entryPoints.engine!(CORPUS[0]!, undefined as never);
    expect(big.errors.map((e) => [e.row, e.code])).toEqual([
      [4, 'maximum'],
      [5, 'minimum'],
    ]);
    const empty = await entryPoints.engine!(CORPUS[1]!, undefined as never);
    expect(empty.errors.map((e) => e.code)).toEqual(['missing_column', 'missing_column']);
  });
});
