// `schemacheck validate --jobs N` on the product CSV (the throughput section's file: quotes,
// doubled quotes, line breaks in cells, multibyte text, 1% planted errors): the whole process,
// spawn to exit, for 1, 2, 4 … threads up to the cores available, rounds interleaved. Every run's
// JSON result must be byte-identical to the first --jobs value's. Target (issue 24): --jobs 2 at
// least 1.8x --jobs 1 on a quiet 2-core machine; judged only when the load average before the
// section left half the cores free, otherwise shown with CPU time.
//
//   BENCH_JOBS_ROWS=1000000  rows of the product file (default BENCH_ROWS: the throughput file)
//   BENCH_JOBS_RUNS=3        runs per --jobs value (median and fastest are shown)
//   BENCH_JOBS=1,2,4         the --jobs values (default: 1, 2, 4, … and the cores available)
//   BENCH_SKIP_JOBS=1        skip this section
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDataset } from '../generate.ts';
import { REPO_ROOT, env, envInt } from '../lib/env.ts';
import { fmt, markdownTable, median, ratio, textTable } from '../lib/format.ts';
import type { BenchContext, Section, SectionResult, Target } from '../lib/types.ts';
import { webFormSchema } from '../schema.ts';

const BUILT = join(REPO_ROOT, 'packages/cli/bin/schemacheck.js');
const TIME = '/usr/bin/time';
const SPEEDUP_GOAL = 1.8;

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

function jobCounts(): number[] {
  const given = env('BENCH_JOBS', '');
  if (given)
    return given
      .split(',')
      .map(Number)
      .filter((n) => Number.isInteger(n) && n >= 1);
  const cores = availableParallelism();
  const counts = [1, 2];
  for (let n = 4; n < cores; n *= 2) counts.push(n);
  if (cores > 2) counts.push(cores);
  return counts;
}

export const jobsSection: Section = {
  id: 'jobs',
  title: 'CLI --jobs scaling (one CSV file on several threads)',
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
      const schema = join(dir, 'schema.json');
      writeFileSync(schema, JSON.stringify(webFormSchema('csv')));
      const counts = jobCounts();
      const args = (jobs: number) => [
        BUILT,
        'validate',
        dataset.csvPath,
        '--schema',
        schema,
        '--format',
        'json',
        '--jobs',
        String(jobs),
      ];
      const results = new Map<number, Run[]>(counts.map((n) => [n, []]));
      // Interleaved, so that load from other processes falls on every --jobs value alike.
      for (let round = 0; round < runs; round++) {
        for (const n of counts) results.get(n)!.push(once(args(n)));
      }
      const failures: string[] = [];
      const reference = results.get(counts[0]!)![0]!.digest;
      for (const [n, rs] of results) {
        if (rs.some((r) => r.digest !== reference))
          failures.push(`--jobs ${n}: the JSON result differs from --jobs ${counts[0]}'s`);
      }
      const base = results.get(counts[0]!)!;
      const baseMedian = median(base.map((r) => r.wall));
      const baseRss = Math.max(...base.map((r) => r.rssMiB ?? 0));
      const mb = dataset.csvBytes / 1e6;
      const header = [
        '--jobs',
        'wall s: fastest / median',
        'MB/s (median)',
        'speed-up (median)',
        'CPU s (median)',
        'peak RSS MiB',
        'MiB per extra job',
      ];
      const cpuOf = (rs: Run[]) => rs.flatMap((r) => (r.cpu === null ? [] : [r.cpu]));
      const table = counts.map((n) => {
        const rs = results.get(n)!;
        const walls = rs.map((r) => r.wall);
        const cpu = cpuOf(rs);
        const rss = Math.max(...rs.map((r) => r.rssMiB ?? 0));
        return [
          String(n),
          `${fmt(Math.min(...walls) / 1000, 2)} / ${fmt(median(walls) / 1000, 2)}`,
          fmt(mb / (median(walls) / 1000), 1),
          ratio(baseMedian, median(walls)),
          cpu.length ? fmt(median(cpu) / 1000, 2) : '–',
          rss ? fmt(rss) : '–',
          n === counts[0] || !rss ? '–' : fmt((rss - baseRss) / (n - counts[0]!)),
        ];
      });
      const cores = cpus().length;
      const busy = loadBefore > cores / 2;
      const two = results.get(2);
      const speedup = two && counts[0] === 1 ? baseMedian / median(two.map((r) => r.wall)) : null;
      const targets: Target[] = [
        {
          name: '--jobs 2 vs --jobs 1, whole process',
          goal: `≥ ${SPEEDUP_GOAL}x on a quiet 2-core machine`,
          actual: speedup === null ? 'not run' : `${fmt(speedup, 2)}x (medians)`,
          met: speedup === null || busy ? null : speedup >= SPEEDUP_GOAL,
          note: busy
            ? `load average ${fmt(loadBefore, 1)} on ${cores} cores before the section: not judged`
            : undefined,
        },
      ];
      ctx.log(`  ${runs} rounds on ${fmt(mb, 1)} MB, --jobs ${counts.join(', ')}`);
      return {
        text: textTable(header, table),
        markdown: markdownTable(header, table),
        data: {
          file: dataset.csvPath,
          bytes: dataset.csvBytes,
          loadBefore,
          runs: Object.fromEntries(results),
        },
        targets,
        failures,
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
