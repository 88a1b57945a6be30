// `npm run bench`: SchemaCheck's engine against well-known JavaScript peers. A benchmark, not a
// test: every tool runs in its own child process pinned to one core, one after another; the
// results are printed, written to .bench/results.json and .bench/results.md, and the run exits 1
// when a tool did not find exactly the planted errors (or crashed).
//
// Environment (all optional):
//   BENCH_ROWS=1000000   rows of the product file        BENCH_RUNS=3     runs per tool (median)
//   BENCH_SEED=42        generator seed                  BENCH_ONLY=a,b   only these peers (ids)
//   BENCH_SKIP_BIG=1     skip the ~1 GB memory section   BENCH_BIG_MB=1000  its size
//   BENCH_BIG_RUNS=1     runs of the big file            BENCH_CPU=1      core to pin children to
//   BENCH_PIN=0          do not pin                      BENCH_STRICT=1   also exit 1 on unmet targets
//   BENCH_TIMEOUT_S=1800 per child                   BENCH_CHUNK_KB=1024  read chunk (experiments)
//   BENCH_SKIP_SERVER=1  skip the server section     BENCH_SERVER_MB=100  its upload size
//   BENCH_SKIP_CLI=1     skip the CLI process section BENCH_CLI_RUNS=15    runs per command
//   BENCH_SKIP_EXCEL=1   skip the Excel/gzip section  BENCH_EXCEL_ROWS=300000  its workbook's rows
//   BENCH_EXCEL_RUNS=1   runs per Excel reader        BENCH_SECTIONS=excel   only these sections (ids)
//   BENCH_SKIP_JOBS=1    skip the --jobs section      BENCH_JOBS=1,2,4     its --jobs values
//   BENCH_JOBS_RUNS=3    runs per --jobs value        BENCH_JOBS_ROWS      its file's rows (BENCH_ROWS)
//   BENCH_NESTED_RUNS=3  rounds of the json-nested section (flat and nested JSON, byte core on/off)
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { pinning, runPeer } from './lib/child.ts';
import { BENCH_DIR, env, envInt } from './lib/env.ts';
import { fmt, markdownTable, textTable } from './lib/format.ts';
import type { BenchContext, Section, SectionResult, Target } from './lib/types.ts';
import { cliProcessSection } from './sections/cli-process.ts';
import { excelSection } from './sections/excel.ts';
import { jobsSection } from './sections/jobs.ts';
import { jsonNestedSection } from './sections/json-nested.ts';
import { memorySection } from './sections/memory.ts';
import { listsSection, rulesSection } from './sections/rules.ts';
import { serverResponsivenessSection } from './sections/server-responsiveness.ts';
import { throughputSection } from './sections/throughput.ts';

/** In order. Add a section here (e.g. server responsiveness under a 100 MB upload). */
const SECTIONS: Section[] = [
  throughputSection,
  jsonNestedSection,
  rulesSection,
  listsSection,
  cliProcessSection,
  jobsSection,
  memorySection,
  serverResponsivenessSection,
  excelSection,
];

const log = (message: string): void => console.log(message);

/** The commit measured (read-only `git rev-parse`); the working tree may hold more. */
function commit(): string {
  const r = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : 'unknown';
}

function machine() {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: `${process.platform} ${release()}`,
    pinnedToCore: pinning(),
    loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

function targetStatus(t: Target): string {
  return t.met === null ? 'not measured' : t.met ? 'met' : 'NOT MET';
}

async function main(): Promise<number> {
  mkdirSync(BENCH_DIR, { recursive: true });
  const started = Date.now();
  const info = machine();
  log(
    `SchemaCheck benchmark — ${info.cpu}, ${info.cores} cores, ${info.memoryGiB} GiB, Node ${info.node}, ` +
      `children pinned to core ${info.pinnedToCore}, load average ${info.loadAverageAtStart.join(' ')}`,
  );
  const baselineRun = await runPeer({ script: 'baseline.ts', args: ['-'] });
  const ctx: BenchContext = {
    dir: BENCH_DIR,
    runs: envInt('BENCH_RUNS', 3),
    log,
    baseline: baselineRun.ok ? baselineRun.report : null,
  };
  if (ctx.baseline)
    log(`empty child (node --import tsx): ${fmt(ctx.baseline.peakRssMiB)} MiB peak RSS`);

  const done: { section: Section; result: SectionResult }[] = [];
  const skipped: { section: Section; reason: string }[] = [];
  const only = env('BENCH_SECTIONS', '').split(',').filter(Boolean);
  for (const section of SECTIONS) {
    const reason =
      only.length > 0 && !only.includes(section.id)
        ? 'not in BENCH_SECTIONS'
        : section.skipReason();
    if (reason) {
      skipped.push({ section, reason });
      continue;
    }
    log(`\n== ${section.title}`);
    done.push({ section, result: await section.run(ctx) });
  }

  const targets = done.flatMap((d) => d.result.targets);
  const failures = done.flatMap((d) => d.result.failures);
  const targetHeader = ['target', 'goal', 'measured', 'status', 'note'];
  const targetRows = targets.map((t) => [t.name, t.goal, t.actual, targetStatus(t), t.note ?? '']);

  log('\n================ RESULTS ================');
  log(`${info.cpu}, ${info.cores} cores, ${info.memoryGiB} GiB, Node ${info.node}`);
  for (const { section, result } of done) log(`\n## ${section.title}\n\n${result.text}`);
  for (const { section, reason } of skipped) log(`\n## ${section.title}: skipped (${reason})`);
  log(`\n## Targets\n\n${textTable(targetHeader, targetRows, [0, 4])}`);

  const markdown = [
    `Machine: ${info.cpu}, ${info.cores} cores, ${info.memoryGiB} GiB RAM, Node ${info.node}, ${info.os}; ` +
      `each tool in its own child process pinned to one core (${info.pinnedToCore}); ` +
      `load average at start ${info.loadAverageAtStart.join(' ')}.`,
    ...done.map(({ section, result }) => `\n### ${section.title}\n\n${result.markdown}`),
    ...skipped.map(({ section, reason }) => `\n### ${section.title}\n\nSkipped (${reason}).`),
    `\n### Targets\n\n${markdownTable(targetHeader, targetRows, 99)}`,
  ].join('\n');
  writeFileSync(join(BENCH_DIR, 'results.md'), `${markdown}\n`);
  writeFileSync(
    join(BENCH_DIR, 'results.json'),
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        durationS: Math.round((Date.now() - started) / 1000),
        commit: commit(),
        machine: { ...info, loadAverageAtEnd: loadavg().map((l) => Math.round(l * 100) / 100) },
        runs: ctx.runs,
        baseline: ctx.baseline,
        sections: Object.fromEntries(done.map(({ section, result }) => [section.id, result.data])),
        skipped: skipped.map(({ section, reason }) => ({ id: section.id, reason })),
        targets,
        failures,
      },
      null,
      2,
    )}\n`,
  );
  log('\n---- Markdown for docs/performance.md (also in .bench/results.md) ----\n');
  log(markdown);
  log('\n---- end of Markdown ----');
  log(`\nresults: ${join(BENCH_DIR, 'results.json')}`);

  for (const f of failures) log(`FAIL ${f}`);
  const unmet = targets.filter((t) => t.met === false);
  if (failures.length) return 1;
  if (env('BENCH_STRICT', '0') === '1' && unmet.length) {
    for (const t of unmet) log(`FAIL target not met: ${t.name} (${t.actual}, goal ${t.goal})`);
    return 1;
  }
  log(
    `\nOK: every tool found exactly the planted errors (${fmt((Date.now() - started) / 1000)} s)`,
  );
  return 0;
}

process.exitCode = await main();
