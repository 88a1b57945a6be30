// `schemacheck validate --jobs N` on the product CSV (the throughput section's file: quotes,
// doubled quotes, line breaks in cells, multibyte text, 1% planted errors), the same rows as the
// throughput section's JSON array (one element a line), and as NDJSON (made from the array, kept
// beside it): the whole process, spawn to exit, for 1, 2, 4 … threads up to the cores available
// (JSON: 1 and 2), rounds interleaved. Every run's JSON result must be byte-identical to the first
// --jobs value's on the same file. Target (issue 24): --jobs 2 at least 1.8x --jobs 1 on a quiet
// 2-core machine; judged only when the load average before the section left half the cores free,
// otherwise shown with CPU time. Beside --jobs 2, each round also runs two --jobs 1 processes at
// once on the file: what two independent runs get from this machine's cores (memory, caches and
// the hypervisor shared) is the ceiling any --jobs 2 could reach here. Every file's peak RSS per
// extra job is held to at most 100 MiB (issue 24), also on a file with ten errors a row, where
// each thread finds ten issues a row to count.
//
//   BENCH_JOBS_ROWS=1000000  rows of the product file (default BENCH_ROWS: the throughput file)
//   BENCH_JOBS_RUNS=3        runs per --jobs value (median and fastest are shown)
//   BENCH_JOBS=1,2,4         the --jobs values for the CSV (default: 1, 2, 4, … and the cores)
//   BENCH_JOBS_JSON=1,2      the --jobs values for the JSON array and the NDJSON ('' skips them)
//   BENCH_JOBS_DENSE_ROWS=400000  rows of a CSV with an error in every cell, run with --jobs 1
//                            and 2 for its memory per extra job (0 skips it)
//   BENCH_SKIP_JOBS=1        skip this section
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDataset } from '../generate.ts';
import { REPO_ROOT, env, envInt } from '../lib/env.ts';
import { fmt, markdownTable, median, ratio, textTable } from '../lib/format.ts';
import type { BenchContext, Section, SectionResult, Target } from '../lib/types.ts';
import { COLUMNS, webFormSchema } from '../schema.ts';

const BUILT = join(REPO_ROOT, 'packages/cli/bin/schemacheck.js');
const TIME = '/usr/bin/time';
const SPEEDUP_GOAL = 1.8;
const MIB_PER_JOB_GOAL = 100;

interface Run {
  wall: number;
  cpu: number | null;
  rssMiB: number | null;
  digest: string;
}

/** One spawn: wall ms, CPU ms and peak RSS (from /usr/bin/time when present), output digest. */
function once(args: string[]): Run {
  const started = process.hrtime.bigint();
  const timed = existsSync(TIME);
  const r = timed
    ? spawnSync(TIME, ['-f', 'cpu %U %S rss %M', process.execPath, ...args], {
        encoding: 'utf8',
        maxBuffer: 1 << 30,
      })
    : spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const m = /cpu ([\d.]+) ([\d.]+) rss (\d+)\s*$/.exec(r.stderr ?? '');
  return {
    wall,
    cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : null,
    rssMiB: m ? Number(m[3]) / 1024 : null,
    digest: createHash('sha256').update(r.stdout).digest('hex'),
  };
}

/** Two of the same spawn at once: wall ms from their start until both have exited. */
async function pair(args: string[]): Promise<number> {
  const started = process.hrtime.bigint();
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 || code === 1
          ? resolve()
          : reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr}`)),
      );
    });
  await Promise.all([one(), one()]);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function parseCounts(given: string): number[] {
  return given
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n >= 1);
}

function jobCounts(): number[] {
  const given = env('BENCH_JOBS', '');
  if (given) return parseCounts(given);
  const cores = availableParallelism();
  const counts = [1, 2];
  for (let n = 4; n < cores; n *= 2) counts.push(n);
  if (cores > 2) counts.push(cores);
  return counts;
}

/**
 * The generator's JSON array (`[`, one element a line each but the last ending in `,`, `]`) as
 * NDJSON beside it: the same lines without the commas. Made once; reused while its size fits.
 */
function ensureNdjson(jsonPath: string, jsonBytes: number, rows: number): string {
  const path = jsonPath.replace(/\.json$/, '.ndjson');
  const expected = jsonBytes - 4 - (rows - 1);
  if (existsSync(path) && statSync(path).size === expected) return path;
  const from = openSync(jsonPath, 'r');
  const to = openSync(`${path}.tmp`, 'w');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    const comma = Buffer.from(',');
    let held = false;
    // Between `[\n` and `]\n`, every `,` before a line feed goes.
    for (let pos = 2, end = jsonBytes - 2; pos < end;) {
      const piece = buf.subarray(0, readSync(from, buf, 0, Math.min(buf.length, end - pos), pos));
      pos += piece.length;
      if (held && piece[0] !== 0x0a) writeSync(to, comma);
      held = false;
      let start = 0;
      for (let i = piece.indexOf(',\n'); i >= 0; i = piece.indexOf(',\n', i + 2)) {
        writeSync(to, piece.subarray(start, i));
        start = i + 1;
      }
      let tail = piece.subarray(start);
      if (tail.at(-1) === 0x2c) {
        held = true;
        tail = tail.subarray(0, -1);
      }
      writeSync(to, tail);
    }
    if (held) writeSync(to, comma);
  } finally {
    closeSync(from);
    closeSync(to);
  }
  if (statSync(`${path}.tmp`).size !== expected)
    throw new Error(`${path}: not the NDJSON of ${jsonPath}`);
  renameSync(`${path}.tmp`, path);
  return path;
}

interface BenchFile {
  label: string;
  path: string;
  bytes: number;
  schema: string;
  counts: number[];
  /** Held to the memory goal only (an error in every cell is no file to judge speed on). */
  dense?: boolean;
}

/**
 * The product columns with a bad value in each of the ten cells of every row (the bench schema
 * finds ten issues a row), made once and kept in the bench's directory.
 */
function ensureDenseCsv(dir: string, rows: number): string {
  const path = join(dir, `dense-${rows}.csv`);
  if (existsSync(path)) return path;
  const out = openSync(`${path}.tmp`, 'w');
  try {
    writeSync(out, `${COLUMNS.join(',')}\n`);
    let lines: string[] = [];
    for (let i = 0; i < rows; i++) {
      lines.push(`x${i},bad${i % 97},a,-1.234,-1,Nope,nope${i},nope,2024-13-${i % 40},maybe`);
      if (lines.length === 10_000 || i === rows - 1) {
        writeSync(out, `${lines.join('\n')}\n`);
        lines = [];
      }
    }
  } finally {
    closeSync(out);
  }
  renameSync(`${path}.tmp`, path);
  return path;
}

export const jobsSection: Section = {
  id: 'jobs',
  title: 'CLI --jobs scaling (one CSV, JSON array or NDJSON file on several threads)',
  skipReason: () => (env('BENCH_SKIP_JOBS', '') === '1' ? 'BENCH_SKIP_JOBS=1' : null),
  async run(ctx: BenchContext): Promise<SectionResult> {
    const loadBefore = loadavg()[0]!;
    const runs = envInt('BENCH_JOBS_RUNS', 3);
    const build = spawnSync('npm', ['run', 'build', '-w', 'packages/cli'], { cwd: REPO_ROOT });
    if (build.status !== 0) throw new Error(`CLI build failed: ${build.stderr}`);
    const dataset = await ensureDataset({
      dir: ctx.dir,
      rows: envInt('BENCH_JOBS_ROWS', envInt('BENCH_ROWS', 1_000_000)),
      seed: envInt('BENCH_SEED', 42),
      json: true,
      errorRate: 0.01,
      log: ctx.log,
    });
    const dir = mkdtempSync(join(tmpdir(), 'schemacheck-bench-jobs-'));
    try {
      const schemaFor = (type: 'csv' | 'json') => {
        const path = join(dir, `schema-${type}.json`);
        writeFileSync(path, JSON.stringify(webFormSchema(type)));
        return path;
      };
      const files: BenchFile[] = [
        {
          label: 'CSV',
          path: dataset.csvPath,
          bytes: dataset.csvBytes,
          schema: schemaFor('csv'),
          counts: jobCounts(),
        },
      ];
      const jsonCounts = parseCounts(env('BENCH_JOBS_JSON', '1,2'));
      if (dataset.jsonPath !== null && jsonCounts.length > 0) {
        const schema = schemaFor('json');
        files.push({
          label: 'JSON array',
          path: dataset.jsonPath,
          bytes: dataset.jsonBytes,
          schema,
          counts: jsonCounts,
        });
        const ndjson = ensureNdjson(dataset.jsonPath, dataset.jsonBytes, dataset.rows);
        files.push({
          label: 'NDJSON',
          path: ndjson,
          bytes: statSync(ndjson).size,
          schema,
          counts: jsonCounts,
        });
      }
      const denseRows = envInt('BENCH_JOBS_DENSE_ROWS', 400_000);
      if (denseRows > 0) {
        const path = ensureDenseCsv(ctx.dir, denseRows);
        files.push({
          label: 'CSV, ten errors a row',
          path,
          bytes: statSync(path).size,
          schema: files[0]!.schema,
          counts: [1, 2],
          dense: true,
        });
      }
      const args = (file: BenchFile, jobs: number) => [
        BUILT,
        'validate',
        file.path,
        '--schema',
        file.schema,
        '--format',
        'json',
        '--jobs',
        String(jobs),
      ];
      const results = files.map((f) => new Map<number, Run[]>(f.counts.map((n) => [n, []])));
      const pairs = files.map(() => [] as number[]);
      // Interleaved, so that load from other processes falls on every file and --jobs value alike.
      for (let round = 0; round < runs; round++) {
        for (const [i, f] of files.entries()) {
          for (const n of f.counts) results[i]!.get(n)!.push(once(args(f, n)));
          if (f.counts[0] === 1 && f.counts.includes(2) && f.dense !== true)
            pairs[i]!.push(await pair(args(f, 1)));
        }
      }
      const failures: string[] = [];
      const header = [
        'file',
        '--jobs',
        'wall s: fastest / median',
        'MB/s (median)',
        'speed-up (median)',
        'CPU s (median)',
        'peak RSS MiB',
        'MiB per extra job',
      ];
      const cpuOf = (rs: Run[]) => rs.flatMap((r) => (r.cpu === null ? [] : [r.cpu]));
      const cores = cpus().length;
      const busy = loadBefore > cores / 2;
      const table: string[][] = [];
      const targets: Target[] = [];
      files.forEach((file, i) => {
        const counts = file.counts;
        const byJobs = results[i]!;
        const reference = byJobs.get(counts[0]!)![0]!.digest;
        for (const [n, rs] of byJobs) {
          if (rs.some((r) => r.digest !== reference))
            failures.push(
              `${file.label} --jobs ${n}: the JSON result differs from --jobs ${counts[0]}'s`,
            );
        }
        const base = byJobs.get(counts[0]!)!;
        const baseMedian = median(base.map((r) => r.wall));
        const baseRss = Math.max(...base.map((r) => r.rssMiB ?? 0));
        const mb = file.bytes / 1e6;
        for (const n of counts) {
          const rs = byJobs.get(n)!;
          const walls = rs.map((r) => r.wall);
          const cpu = cpuOf(rs);
          const rss = Math.max(...rs.map((r) => r.rssMiB ?? 0));
          table.push([
            `${file.label} (${fmt(mb, 0)} MB)`,
            String(n),
            `${fmt(Math.min(...walls) / 1000, 2)} / ${fmt(median(walls) / 1000, 2)}`,
            fmt(mb / (median(walls) / 1000), 1),
            ratio(baseMedian, median(walls)),
            cpu.length ? fmt(median(cpu) / 1000, 2) : '–',
            rss ? fmt(rss) : '–',
            n === counts[0] || !rss ? '–' : fmt((rss - baseRss) / (n - counts[0]!)),
          ]);
        }
        // Two runs' work in the pair's time: the throughput two independent runs get here.
        const ceiling = pairs[i]!.length > 0 ? (2 * baseMedian) / median(pairs[i]!) : null;
        if (ceiling !== null)
          table.push([
            `${file.label} (${fmt(mb, 0)} MB)`,
            '2 × 1 at once',
            `${fmt(Math.min(...pairs[i]!) / 1000, 2)} / ${fmt(median(pairs[i]!) / 1000, 2)}`,
            fmt((2 * mb) / (median(pairs[i]!) / 1000), 1),
            `${fmt(ceiling, 2)}x`,
            '–',
            '–',
            '–',
          ]);
        const two = byJobs.get(2);
        const speedup = two && counts[0] === 1 ? baseMedian / median(two.map((r) => r.wall)) : null;
        const notes = [
          ...(busy
            ? [
                `load average ${fmt(loadBefore, 1)} on ${cores} cores before the section: not judged`,
              ]
            : []),
          ...(ceiling === null || speedup === null
            ? []
            : [
                `two --jobs 1 runs at once get ${fmt(ceiling, 2)}x one run's throughput here (this machine's ceiling for two); --jobs 2 reaches ${fmt((100 * speedup) / ceiling, 0)}% of it`,
              ]),
        ];
        const twoRss = two === undefined ? 0 : Math.max(...two.map((r) => r.rssMiB ?? 0));
        if (twoRss > 0 && baseRss > 0 && counts[0] === 1)
          targets.push({
            name: `memory per extra job, --jobs 2, ${file.label}`,
            goal: `≤ ${MIB_PER_JOB_GOAL} MiB`,
            actual: `${fmt(twoRss - baseRss)} MiB (${fmt(baseRss)} -> ${fmt(twoRss)} MiB peak RSS)`,
            met: twoRss - baseRss <= MIB_PER_JOB_GOAL,
          });
        if (file.dense === true) return;
        targets.push({
          name: `--jobs 2 vs --jobs 1, whole process, ${file.label}`,
          goal: `≥ ${SPEEDUP_GOAL}x on a quiet 2-core machine`,
          actual: speedup === null ? 'not run' : `${fmt(speedup, 2)}x (medians)`,
          met: speedup === null || busy ? null : speedup >= SPEEDUP_GOAL,
          note: notes.length > 0 ? notes.join('; ') : undefined,
        });
      });
      ctx.log(
        `  ${runs} rounds: ${files.map((f) => `${f.label} --jobs ${f.counts.join(', ')}`).join('; ')}`,
      );
      return {
        text: textTable(header, table),
        markdown: markdownTable(header, table),
        data: {
          files: files.map((f, i) => ({
            label: f.label,
            file: f.path,
            bytes: f.bytes,
            runs: Object.fromEntries(results[i]!),
            twoAtOnceMs: pairs[i],
          })),
          loadBefore,
        },
        targets,
        failures,
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
