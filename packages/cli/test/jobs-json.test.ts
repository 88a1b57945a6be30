// `validate --jobs N` on generated JSON files (decision 247): NDJSON (.ndjson, and .json whose
// shape is detected) with blank lines, CRLF, a BOM and a broken line, and top-level arrays (one
// element a line, and pretty-printed) with escaped quotes, backslashes, `\n` escapes, brackets in
// strings, multibyte and non-BMP text, nested objects and `unique` values repeated across ranges:
// standard output in every format, the CSV report and --valid-out / --invalid-out are
// byte-identical for 1 to 4 threads. An array that breaks midway, and one JSON value, give the
// same output too (the ranges after the break are dropped; the value is read with one thread).
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.ts';
import { mulberry32 } from './support/seeded-random.ts';
import { untimed } from './support/untimed.ts';

const schema = {
  name: 'Orders',
  fileType: 'json',
  fields: [
    { name: 'id', type: 'integer', required: true, validation: { minValue: 1, unique: true } },
    { name: 'name', type: 'string', required: true, validation: { minLength: 2, maxLength: 12 } },
    { name: 'email', type: 'email', required: false, validation: { unique: true } },
    { name: 'price', type: 'number', required: true, validation: { minValue: 0, precision: 2 } },
    { name: 'address.zip', type: 'string', required: false, validation: { pattern: '^\\d{5}$' } },
    { name: 'ok', type: 'boolean', required: false, validation: { severity: 'warning' } },
  ],
};

const NAMES = [
  'Zoë',
  'Ann',
  'say "hi"',
  'back\\slash',
  'two\nlines',
  'Ω𝄞x',
  '日本語',
  '[{,]}',
  'x',
];

function records(count: number, seed: number): string[] {
  const random = mulberry32(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)] as T;
  const out: string[] = [];
  for (let i = 1; i <= count; i++) {
    const r = random();
    const id = r < 0.01 ? Math.floor(random() * i) + 1 : r < 0.02 ? 'x' : i;
    const record = {
      id,
      name: pick(NAMES),
      email: random() < 0.02 ? 'not-an-email' : `u${Math.floor(random() * 3000)}@example.com`,
      price: random() < 0.02 ? -1 : random() < 0.02 ? 1.234 : (i % 500) + 0.5,
      address: random() < 0.1 ? { zip: '1234' } : { zip: '12345', lines: ['a', { b: ']' }] },
      ok: random() < 0.05 ? 'maybe' : true,
    };
    out.push(JSON.stringify(record));
  }
  return out;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'schemacheck-jobs-json-'));
  await writeFile(join(dir, 'schema.json'), JSON.stringify(schema));
  const lines = records(2500, 7);
  lines[1200] = '{"id": 1201, "name": "broken';
  await writeFile(
    join(dir, 'orders.ndjson'),
    `\uFEFF${lines.map((l, i) => (i % 97 === 0 ? `${l}\r\n\r\n  \r\n` : `${l}\r\n`)).join('')}`,
  );
  await writeFile(join(dir, 'detected.json'), `${records(2500, 8).join('\n')}\n`);
  await writeFile(join(dir, 'orders.json'), `[\n${records(2500, 9).join(',\n')}\n]\n`);
  const pretty = records(1500, 10).map((l) => JSON.stringify(JSON.parse(l), null, 2));
  await writeFile(join(dir, 'pretty.json'), `\uFEFF[${pretty.join(', ')}]`);
  const broken = records(2500, 11);
  broken[500] = '{"id": 501, "name": "x",}';
  await writeFile(join(dir, 'broken.json'), `[\n${broken.join(',\n')}\n]\n`);
  await writeFile(join(dir, 'one.json'), JSON.stringify({ id: 1, items: records(3000, 12) }));
});

function validate(file: string, jobs: number, extra: string[] = [], block = '6000') {
  return runCli(
    [
      'validate',
      join(dir, file),
      '--schema',
      join(dir, 'schema.json'),
      '--jobs',
      String(jobs),
      ...extra,
    ],
    {
      env: {
        SCHEMACHECK_PARALLEL_MIN_BYTES: '0',
        SCHEMACHECK_CHUNK_BYTES: block,
        SCHEMACHECK_TRACE_CHUNKS: '1',
      },
    },
  );
}

describe('validate --jobs on JSON files', () => {
  it('NDJSON and arrays: the same output in every format for 1 to 4 threads', async () => {
    for (const file of ['orders.ndjson', 'detected.json', 'orders.json', 'pretty.json']) {
      for (const format of ['json', 'csv', 'text', 'junit']) {
        const one = await validate(file, 1, ['--format', format]);
        expect(one.code).toBe(1);
        expect(one.stderr).toBe('');
        for (const jobs of [2, 3, 4]) {
          const many = await validate(file, jobs, ['--format', format]);
          expect(many.code).toBe(1);
          expect(untimed(many.stdout)).toBe(untimed(one.stdout));
          expect(many.stderr).toContain(`${file}: ${jobs} ranges on ${jobs} threads, `);
          expect(many.stderr).not.toContain('in one piece');
        }
      }
      const json = JSON.parse((await validate(file, 2, ['--format', 'json'])).stdout);
      expect(json.totalRows).toBeGreaterThan(1400);
      expect(json.errorsByCode.unique).toBeGreaterThan(5);
    }
  }, 400_000);

  it('writes the same --valid-out and --invalid-out files', async () => {
    for (const file of ['orders.ndjson', 'orders.json']) {
      const outputs: string[] = [];
      for (const jobs of [1, 2, 4]) {
        const valid = join(dir, `valid-${jobs}-${file}`);
        const invalid = join(dir, `invalid-${jobs}-${file}`);
        const run = await validate(file, jobs, ['--valid-out', valid, '--invalid-out', invalid]);
        expect(run.code).toBe(1);
        outputs.push(
          [
            untimed(run.stdout),
            await readFile(valid, 'utf8'),
            await readFile(invalid, 'utf8'),
          ].join('\n---\n'),
        );
      }
      expect(outputs[1]).toBe(outputs[0]);
      expect(outputs[2]).toBe(outputs[0]);
    }
  }, 240_000);

  it('an array that breaks midway: the ranges after the break are dropped, same output', async () => {
    const one = await validate('broken.json', 1, ['--format', 'json']);
    expect(JSON.parse(one.stdout).totalRows).toBe(501);
    for (const jobs of [2, 3, 4]) {
      const many = await validate('broken.json', jobs, ['--format', 'json'], '65536');
      expect(many.stdout).toBe(one.stdout);
      expect(many.stderr).toMatch(/in one piece/);
    }
  }, 120_000);

  it('one JSON value is read with one thread', async () => {
    const one = await validate('one.json', 1, ['--format', 'json']);
    const two = await validate('one.json', 2, ['--format', 'json']);
    expect(two.stdout).toBe(one.stdout);
    expect(two.stderr).toContain('one.json: one thread (');
  }, 60_000);
});
