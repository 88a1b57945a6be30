import type { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ValidationPool, WorkerCrashed, type ValidationJob } from '../src/validation/pool.ts';
import type { BeginOptions } from '../src/validation/protocol.ts';

// The valid and invalid rows on a second worker (docs/decisions/259): when a job wants its row
// outputs and another worker is idle, that worker writes them, fed by the validating one. The
// outputs, the report and the result are those of one worker doing both, byte for byte.

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

const SCHEMA = JSON.stringify({
  name: 'orders',
  fields: [
    { name: 'id', type: 'integer', required: true, validation: { unique: true } },
    { name: 'name', type: 'string', validation: { maxLength: 12 } },
    { name: 'price', type: 'number', validation: { minValue: 0 } },
    { name: 'day', type: 'date', validation: { format: 'YYYY-MM-DD' } },
  ],
  rules: [{ kind: 'compare', left: 'price', op: '<', value: '900' }],
});

/** Rows of every kind the splitter treats apart: clean, quoted, multi-line, multibyte, bad. */
function csvFile(rows: number): string {
  const lines = ['id,name,price,day'];
  for (let i = 1; i <= rows; i++) {
    const id = i % 997 === 0 ? i - 1 : i; // a few duplicates
    const name = [
      `n${i}`,
      `"q, ${i % 100}"`,
      `"two\nlines"`,
      `été${i % 10}`,
      'much too long a name',
    ][i % 5];
    const price = i % 13 === 0 ? '-1' : i % 17 === 0 ? '950' : `${i % 500}.25`;
    const day = i % 29 === 0 ? '2024-02-30' : `2024-0${(i % 9) + 1}-1${i % 10}`;
    lines.push(`${id},${name},${price},${day}`);
  }
  // The last row, bad and with no line break after it, is read only at the end.
  return `${lines.join('\r\n')}\r\n${rows + 1},last,-2,2024-13-01`;
}

function jsonFile(records: number, ndjson: boolean): string {
  const list = Array.from({ length: records }, (_, n) => ({
    id: n % 501 === 0 ? 1 : n + 1,
    name: n % 7 === 0 ? 'a name far too long' : `nom ${n} é`,
    price: n % 11 === 0 ? -3 : n + 0.5,
    day: n % 23 === 0 ? 'soon' : '2024-05-06',
  }));
  // NDJSON's last record, bad, has no line break after it: it is read only at the end.
  return ndjson
    ? `${list.map((r) => JSON.stringify(r)).join('\n')}\n{"id":"last"}`
    : JSON.stringify(list, null, 1);
}

interface Run {
  result: unknown;
  report: string;
  valid: string;
  invalid: string;
  elsewhere: boolean;
}

async function run(
  job: ValidationJob,
  bytes: Buffer,
  options: Omit<BeginOptions, 'maxErrors' | 'report' | 'rows' | 'now'>,
): Promise<Run> {
  const opened = await job.open(SCHEMA);
  expect(opened.ok).toBe(true);
  const report: string[] = [];
  const outputs = { valid: [] as Buffer[], invalid: [] as Buffer[] };
  job.begin(
    { ...options, maxErrors: 50, report: true, rows: true, now: '2024-06-01T00:00:00.000Z' },
    (data, stream) => {
      if (stream) outputs[stream].push(Buffer.from(data as Uint8Array));
      else report.push(data as string);
    },
  );
  // Uneven pieces, so that records and multibyte characters cross them.
  for (let at = 0, n = 0; at < bytes.length; n++) {
    const size = 3000 + ((n * 7919) % 9000);
    await job.push(bytes.subarray(at, at + size));
    at += size;
  }
  const result = await job.end();
  return {
    result,
    report: report.join(''),
    valid: Buffer.concat(outputs.valid).toString(),
    invalid: Buffer.concat(outputs.invalid).toString(),
    elsewhere: job.rowsElsewhere,
  };
}

async function withPool<T>(size: number, body: (pool: ValidationPool) => Promise<T>): Promise<T> {
  const pool = new ValidationPool(size, log);
  try {
    return await body(pool);
  } finally {
    await pool.close();
  }
}

async function once(size: number, bytes: Buffer, options: Parameters<typeof run>[2]) {
  return withPool(size, async (pool) => {
    const job = pool.job();
    try {
      return await run(job, bytes, options);
    } finally {
      job.close();
    }
  });
}

/** A CSV job begun on an idle pool of two, its rows on the other worker; chunks to be pushed. */
async function begunWithRowsElsewhere(pool: ValidationPool): Promise<ValidationJob> {
  const job = pool.job();
  expect((await job.open(SCHEMA)).ok).toBe(true);
  job.begin(
    { fileType: 'csv', maxErrors: 50, report: true, rows: true, now: new Date().toISOString() },
    () => {},
  );
  expect(job.rowsElsewhere).toBe(true);
  return job;
}

describe('row outputs on a second worker', () => {
  const files: [string, Buffer, Parameters<typeof run>[2]][] = [
    ['CSV', Buffer.from(csvFile(6000)), { fileType: 'csv' }],
    ['a JSON array', Buffer.from(jsonFile(3000, false)), { fileType: 'json' }],
    ['NDJSON', Buffer.from(jsonFile(3000, true)), { fileType: 'json', jsonShape: 'ndjson' }],
  ];
  for (const [name, bytes, options] of files) {
    it(`are the outputs of one worker doing both, for ${name}`, { timeout: 60_000 }, async () => {
      const alone = await once(1, bytes, options);
      const shared = await once(2, bytes, options);
      expect(alone.elsewhere).toBe(false);
      expect(shared.elsewhere).toBe(true);
      // The file has rows of both kinds, so the comparison compares something.
      expect(alone.valid.split('\n').length).toBeGreaterThan(100);
      expect(alone.invalid.split('\n').length).toBeGreaterThan(100);
      expect(shared.valid).toBe(alone.valid);
      expect(shared.invalid).toBe(alone.invalid);
      expect(shared.report).toBe(alone.report);
      expect(shared.result).toEqual(alone.result);
    });
  }

  it('stay on the job’s own worker when no other is idle', { timeout: 60_000 }, async () => {
    await withPool(2, async (pool) => {
      const other = pool.job();
      expect((await other.open(SCHEMA)).ok).toBe(true);
      const job = pool.job();
      try {
        const r = await run(job, Buffer.from(csvFile(200)), { fileType: 'csv' });
        expect(r.elsewhere).toBe(false);
        expect(r.invalid).toContain('errors');
      } finally {
        job.close();
        other.close();
      }
    });
  });

  it('leave room for a small validation of someone else', { timeout: 60_000 }, async () => {
    await withPool(2, async (pool) => {
      const long = await begunWithRowsElsewhere(pool);
      const bytes = Buffer.from(csvFile(20_000));
      // Half the long file is in, and its rows' worker is busy with it.
      for (let at = 0; at < bytes.length / 2; at += 64 * 1024)
        await long.push(bytes.subarray(at, at + 64 * 1024));
      const started = performance.now();
      const small = pool.job();
      try {
        const r = await run(small, Buffer.from(csvFile(50)), { fileType: 'csv' });
        expect((r.result as { totalRows: number }).totalRows).toBe(51);
        // Both workers were taken by the long one: the small one splits its own rows.
        expect(r.elsewhere).toBe(false);
        expect(r.invalid).toContain('errors');
        expect(performance.now() - started).toBeLessThan(3_000);
      } finally {
        small.close();
      }
      for (
        let at = Math.ceil(bytes.length / 2 / (64 * 1024)) * 64 * 1024;
        at < bytes.length;
        at += 64 * 1024
      )
        await long.push(bytes.subarray(at, at + 64 * 1024));
      expect((await long.end()).totalRows).toBe(20_001);
      long.close();
    });
  });

  it('fail the job, and only it, when their worker dies', { timeout: 60_000 }, async () => {
    await withPool(2, async (pool) => {
      const job = await begunWithRowsElsewhere(pool);
      const bytes = Buffer.from(csvFile(6000));
      await job.push(bytes.subarray(0, 20_000));
      // The job went to the first worker (both were idle), so the second writes its rows.
      const slots = (pool as unknown as { slots: { worker: Worker; jobs: Map<number, unknown> }[] })
        .slots;
      expect(slots[1]!.jobs.has(job.id)).toBe(true);
      await slots[1]!.worker.terminate();
      const outcome = await (async () => {
        for (let at = 20_000; at < bytes.length; at += 20_000)
          await job.push(bytes.subarray(at, at + 20_000));
        return job.end();
      })().then(
        () => null,
        (e: unknown) => e,
      );
      job.close();
      expect(outcome).toBeInstanceOf(WorkerCrashed);
      expect(pool.replaced).toBe(1);
      // The pool goes on: the next job validates.
      const next = pool.job();
      try {
        const r = await run(next, Buffer.from(csvFile(100)), { fileType: 'csv' });
        expect((r.result as { totalRows: number }).totalRows).toBe(101);
      } finally {
        next.close();
      }
    });
  });
});
