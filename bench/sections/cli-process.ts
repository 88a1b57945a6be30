// Whole-process figures for the CLI, as a pipeline sees them: the wall time from spawning the
// process to its exit, next to a bare `node -e 0` on the same machine. The built CLI
// (packages/cli/dist, what `npm ci` and `npm pack` give) is compared with running its TypeScript
// sources through tsx, which is how it ran before decision 050. Target: `schemacheck --help`
// within 50 ms of `node -e 0`.
//
//   BENCH_CLI_RUNS=15     runs per command (median and fastest are shown)
//   BENCH_CLI_MB=15       size of the larger CSV
//   BENCH_SKIP_CLI=1      skip this section
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, env, envInt } from '../lib/env.ts';
import { fmt, markdownTable, median, ratio, textTable } from '../lib/format.ts';
import { PRODUCTS_SCHEMA, writeProductsCsv } from '../lib/products-csv.ts';
import type { BenchContext, Section, SectionResult, Target } from '../lib/types.ts';

const HELP_BUDGET_MS = 50;
const BUILT = join(REPO_ROOT, 'packages/cli/bin/schemacheck.js');
const SOURCE = join(REPO_ROOT, 'packages/cli/src/cli.ts');

const TIME = '/usr/bin/time';
const HAS_TIME = existsSync(TIME);

/**
 * One run of `node ...args` (exit status 0 or 1 expected): wall milliseconds, and CPU
 * milliseconds (user + system, from /usr/bin/time when present), which other processes on a busy
 * machine disturb far less than wall time.
 */
function once1(args: string[]): { wall: number; cpu: number | null } {
  const started = process.hrtime.bigint();
  const r = HAS_TIME
    ? spawnSync(TIME, ['-f', 'cpu %U %S', process.execPath, ...args], {
        stdio: ['ignore', 'ignore', 'pipe'],
        encoding: 'utf8',
      })
    : spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const m = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr ?? '');
  return { wall, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : null };
}

export const cliProcessSection: Section = {
  id: 'cli-process',
  title: 'CLI, whole process (spawn to exit)',
  skipReason: () => (env('BENCH_SKIP_CLI', '') === '1' ? 'BENCH_SKIP_CLI=1' : null),
  async run(ctx: BenchContext): Promise<SectionResult> {
    const runs = envInt('BENCH_CLI_RUNS', 15);
    const build = spawnSync('npm', ['run', 'build', '-w', 'packages/cli'], { cwd: REPO_ROOT });
    if (build.status !== 0) throw new Error(`CLI build failed: ${build.stderr}`);
    const dir = mkdtempSync(join(tmpdir(), 'schemacheck-bench-cli-'));
    try {
      const schema = join(dir, 'schema.json');
      writeFileSync(schema, JSON.stringify(PRODUCTS_SCHEMA));
      const small = join(REPO_ROOT, 'examples/products.csv');
      const smallSchema = join(REPO_ROOT, 'examples/products.schema.json');
      const big = join(dir, 'products.csv');
      const mb = envInt('BENCH_CLI_MB', 15);
      await writeProductsCsv(big, mb * 1_000_000);
      const tsx = ['--import', 'tsx', SOURCE];
      const cases: { name: string; built: string[]; source: string[] | null; runs: number }[] = [
        { name: 'node -e 0', built: ['-e', '0'], source: null, runs },
        { name: 'schemacheck --help', built: [BUILT, '--help'], source: [...tsx, '--help'], runs },
        {
          name: 'validate examples/products.csv',
          built: [BUILT, 'validate', small, '--schema', smallSchema],
          source: [...tsx, 'validate', small, '--schema', smallSchema],
          runs,
        },
        {
          name: `validate ${mb} MB CSV`,
          built: [BUILT, 'validate', big, '--schema', schema],
          source: [...tsx, 'validate', big, '--schema', schema],
          runs: Math.max(3, Math.round(runs / 5)),
        },
      ];
      // Interleaved (every command once per round), so that load from other processes falls on
      // all of them alike; the fastest run is the least disturbed figure.
      const rows = cases.map((c) => ({
        name: c.name,
        built: [] as number[],
        builtCpu: [] as number[],
        source: c.source ? ([] as number[]) : null,
      }));
      for (let round = 0; round < runs; round++) {
        cases.forEach((c, i) => {
          if (round >= c.runs) return;
          const row = rows[i]!;
          const b = once1(c.built);
          row.built.push(b.wall);
          if (b.cpu !== null) row.builtCpu.push(b.cpu);
          if (c.source) row.source!.push(once1(c.source).wall);
        });
      }
      ctx.log(`  ${runs} rounds (the ${mb} MB file: ${cases[3]!.runs})`);
      const nodeMs = Math.min(...rows[0]!.built);
      const helpMs = Math.min(...rows[1]!.built);
      const nodeMedian = median(rows[0]!.built);
      const header = [
        'command',
        'built: fastest / median ms',
        'tsx sources: fastest / median ms',
        'tsx ÷ built (fastest)',
        'built over node -e 0 (fastest / median)',
        'built CPU ms (fastest)',
      ];
      const table = rows.map((r) => {
        const b = Math.min(...r.built);
        const s = r.source ? Math.min(...r.source) : null;
        return [
          r.name,
          `${fmt(b)} / ${fmt(median(r.built))}`,
          s === null || !r.source ? '–' : `${fmt(s)} / ${fmt(median(r.source))}`,
          s === null ? '–' : ratio(s, b),
          r.name === 'node -e 0'
            ? '–'
            : `+${fmt(b - nodeMs)} / +${fmt(median(r.built) - nodeMedian)} ms`,
          r.builtCpu.length ? fmt(Math.min(...r.builtCpu)) : '–',
        ];
      });
      // On a machine busier than its cores, wall times measure the queue, not the program.
      const load = loadavg()[0]!;
      const busy = load > cpus().length;
      const helpCpu = rows[1]!.builtCpu.length ? Math.min(...rows[1]!.builtCpu) : null;
      const nodeCpu = rows[0]!.builtCpu.length ? Math.min(...rows[0]!.builtCpu) : null;
      const cpuNote =
        helpCpu !== null && nodeCpu !== null
          ? `CPU time: --help ${fmt(helpCpu)} ms, node -e 0 ${fmt(nodeCpu)} ms (+${fmt(helpCpu - nodeCpu)} ms)`
          : undefined;
      const targets: Target[] = [
        {
          name: 'schemacheck --help start-up',
          goal: `≤ node -e 0 + ${HELP_BUDGET_MS} ms`,
          actual: `${fmt(helpMs)} ms vs ${fmt(nodeMs)} ms, fastest runs (+${fmt(helpMs - nodeMs)} ms)`,
          met: busy ? null : helpMs - nodeMs <= HELP_BUDGET_MS,
          note: busy
            ? `load average ${fmt(load, 1)} on ${cpus().length} cores: wall times not judged. ${cpuNote ?? ''}`
            : cpuNote,
        },
      ];
      return {
        text: textTable(header, table),
        markdown: markdownTable(header, table),
        data: rows.map((r) => ({ ...r, builtMedianMs: median(r.built) })),
        targets,
        failures: [],
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
