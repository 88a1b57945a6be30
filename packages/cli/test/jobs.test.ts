// `validate --jobs N` on generated CSV files (BOM, CRLF, quotes, doubled quotes, line breaks in
// cells, multibyte and non-BMP text, `unique` and `uniqueTogether` duplicates across chunks,
// planted errors, a rule marked as a warning): standard output in every format, the CSV report
// and --valid-out / --invalid-out are byte-identical for 1, 2 and 3 threads. Small chunks
// (SCHEMACHECK_CHUNK_BYTES) make a ~150 KB file dozens of chunks; SCHEMACHECK_TRACE_CHUNKS shows
// that the threads really ran.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, type Run } from './support/run-cli.ts';
import { mulberry32 } from './support/seeded-random.ts';
import { untimed } from './support/untimed.ts';

function cli(args: string[], input = ''): Promise<Run> {
  return runCli(args, {
    input,
    env: {
      SCHEMACHECK_PARALLEL_MIN_BYTES: '0',
      SCHEMACHECK_CHUNK_BYTES: '6000',
      SCHEMACHECK_TRACE_CHUNKS: '1',
    },
  });
}

const schema = {
  name: 'Orders',
  fileType: 'csv',
  fields: [
    { name: 'id', type: 'integer', required: true, validation: { minValue: 1, unique: true } },
    { name: 'name', type: 'string', required: true, validation: { minLength: 2, maxLength: 12 } },
    { name: 'email', type: 'email', required: false, validation: { unique: true } },
    { name: 'price', type: 'number', required: true, validation: { minValue: 0, precision: 2 } },
    { name: 'day', type: 'date', required: false, validation: {} },
    { name: 'ok', type: 'boolean', required: false, validation: { severity: 'warning' } },
  ],
  rules: [{ kind: 'uniqueTogether', fields: ['name', 'day'] }],
};

const NAMES = [
  'Zoë',
  'Ann',
  'a,b',
  'say "hi"',
  'two\nlines',
  'Ω𝄞x',
  '日本語',
  'x',
  'averyveryverylongname',
];

function generate(rows: number, seed: number, strayQuoteAt = -1): string {
  const random = mulberry32(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)] as T;
  const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  let text = '\uFEFFid,name,email,price,day,ok\r\n';
  for (let i = 1; i <= rows; i++) {
    const r = random();
    const id = r < 0.01 ? String(Math.floor(random() * i) + 1) : r < 0.02 ? 'x' : String(i);
    const name = i === strayQuoteAt ? 'x"y' : quote(pick(NAMES));
    const email = random() < 0.02 ? 'not-an-email' : `u${Math.floor(random() * 3000)}@example.com`;
    const price = random() < 0.02 ? '-1' : random() < 0.02 ? '1.234' : `${i % 500}.50`;
    const day = random() < 0.1 ? '' : `2024-0${1 + (i % 9)}-1${i % 9}`;
    const ok = random() < 0.05 ? 'maybe' : 'true';
    text += `${id},${name},${email},${price},${day},${ok}\r\n`;
  }
  return text;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'schemacheck-jobs-'));
  await writeFile(join(dir, 'schema.json'), JSON.stringify(schema));
  await writeFile(join(dir, 'orders.csv'), generate(2500, 7));
  await writeFile(join(dir, 'stray.csv'), generate(2500, 11, 900));
});

const validate = (file: string, jobs: number, extra: string[] = []) =>
  cli([
    'validate',
    join(dir, file),
    '--schema',
    join(dir, 'schema.json'),
    '--jobs',
    String(jobs),
    ...extra,
  ]);

describe('validate --jobs', () => {
  it('gives the same JSON result, CSV report, GitHub and JUnit output for 1, 2 and 3 threads', async () => {
    for (const format of ['json', 'csv', 'github', 'junit']) {
      const one = await validate('orders.csv', 1, ['--format', format]);
      expect(one.code).toBe(1);
      expect(one.stderr).toBe('');
      for (const jobs of [2, 3]) {
        const many = await validate('orders.csv', jobs, ['--format', format]);
        expect(many.code).toBe(1);
        expect(untimed(many.stdout)).toBe(untimed(one.stdout));
        expect(many.stderr).toMatch(
          new RegExp(`orders.csv: ${jobs} ranges on ${jobs} threads, [1-9]`),
        );
      }
    }
    const json = JSON.parse((await validate('orders.csv', 2, ['--format', 'json'])).stdout);
    expect(json.totalRows).toBe(2500);
    expect(json.errorsByCode.unique).toBeGreaterThan(10);
    expect(json.errorsByCode.unique_together).toBeGreaterThan(10);
    expect(json.warningCount).toBeGreaterThan(10);
  }, 240_000);

  it('with --max-errors below the file’s issues, threads count what they do not send: the same output in every listing format', async () => {
    for (const format of ['text', 'json', 'github', 'junit']) {
      const args = ['--format', format, '--max-errors', '7'];
      const one = await validate('orders.csv', 1, args);
      expect(one.code).toBe(1);
      for (const jobs of [2, 3]) {
        const many = await validate('orders.csv', jobs, args);
        expect(untimed(many.stdout)).toBe(untimed(one.stdout));
      }
    }
    const json = JSON.parse(
      (await validate('orders.csv', 3, ['--format', 'json', '--max-errors', '7'])).stdout,
    );
    expect(json.errors).toHaveLength(7);
    expect(json.errorCount).toBeGreaterThan(100);
    expect(json.warningCount).toBeGreaterThan(10);
  }, 240_000);

  it('writes the same text report and the same --valid-out and --invalid-out files', async () => {
    const outputs: string[] = [];
    for (const jobs of [1, 2, 3]) {
      const valid = join(dir, `valid-${jobs}.csv`);
      const invalid = join(dir, `invalid-${jobs}.csv`);
      const run = await validate('orders.csv', jobs, [
        '--valid-out',
        valid,
        '--invalid-out',
        invalid,
      ]);
      expect(run.code).toBe(1);
      outputs.push(
        [untimed(run.stdout), await readFile(valid, 'utf8'), await readFile(invalid, 'utf8')].join(
          '\n--\n',
        ),
      );
    }
    expect(outputs[1]).toBe(outputs[0]);
    expect(outputs[2]).toBe(outputs[0]);
    expect(outputs[0]).toContain('Duplicate value; first seen in row');
  }, 240_000);

  it('every block size and --jobs value gives the same JSON result (ranges cut inside quoted cells, CRLF, multibyte text, BOM, unique across ranges)', async () => {
    const one = await validate('orders.csv', 1, ['--format', 'json']);
    for (const block of ['997', '65536']) {
      for (const jobs of [2, 4, 7]) {
        const many = await runCli(
          [
            'validate',
            join(dir, 'orders.csv'),
            '--schema',
            join(dir, 'schema.json'),
            '--format',
            'json',
            '--jobs',
            String(jobs),
          ],
          {
            env: {
              SCHEMACHECK_PARALLEL_MIN_BYTES: '0',
              SCHEMACHECK_CHUNK_BYTES: block,
              SCHEMACHECK_TRACE_CHUNKS: '1',
            },
          },
        );
        expect(many.stdout).toBe(one.stdout);
        expect(many.stderr).toMatch(new RegExp(`${jobs} ranges on ${jobs} threads`));
      }
    }
  }, 240_000);

  it('a stray quote that misleads the boundary scan: the rest is read in one piece, same output', async () => {
    const one = await validate('stray.csv', 1, ['--format', 'json']);
    const two = await validate('stray.csv', 2, ['--format', 'json']);
    expect(two.stdout).toBe(one.stdout);
    expect(two.stderr).toMatch(/in one piece/);
    expect(JSON.parse(one.stdout).totalRows).toBeGreaterThan(2000);
  }, 120_000);

  it('standard input is read with one thread; --jobs must be a whole number', async () => {
    const text = await readFile(join(dir, 'orders.csv'), 'utf8');
    const file = await validate('orders.csv', 1, ['--format', 'json']);
    const args = ['validate', '-', '--schema', join(dir, 'schema.json'), '--format', 'json'];
    const piped = await cli([...args, '--jobs', '3'], text);
    expect(piped.stdout).toBe(file.stdout);
    expect(piped.stderr).toBe('');
    const bad = await validate('orders.csv', 0);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--jobs must be a whole number of at least 1');
  }, 120_000);
});
