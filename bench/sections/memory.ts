// Memory: the engine streams a ~1 GB CSV (the product generator run to ~1 GB) in a child
// process; its peak RSS must stay flat (target ≤ 150 MiB).
import { ensureProductsCsv } from '../generate.ts';
import { runPeer } from '../lib/child.ts';
import { env, envInt } from '../lib/env.ts';
import { fmt, markdownTable, mbPerSecond, median, perSecond, textTable } from '../lib/format.ts';
import type { BenchContext, Section, SectionResult } from '../lib/types.ts';

/** Average CSV bytes per generated record (measured: 160.0 with generator version 3). */
const BYTES_PER_ROW = 160;
const TARGET_MIB = 150;

/** The engine peer's heap figures, to tell garbage from memory it holds. */
function heapNote(extra: Record<string, number | string> | undefined): string | undefined {
  if (!extra || typeof extra.peakHeapTotalMiB !== 'number') return undefined;
  return (
    `V8 heap peaked at ${fmt(extra.peakHeapTotalMiB)} MiB; ` +
    `${typeof extra.heapAfterGcMiB === 'number' ? fmt(extra.heapAfterGcMiB) : '?'} MiB live after a final GC`
  );
}

export const memorySection: Section = {
  id: 'memory',
  title: 'Memory on a large CSV (~1 GB unless BENCH_BIG_MB says otherwise)',
  skipReason: () => (env('BENCH_SKIP_BIG', '0') === '1' ? 'BENCH_SKIP_BIG=1' : null),
  async run(ctx: BenchContext): Promise<SectionResult> {
    const targetMb = envInt('BENCH_BIG_MB', 1000);
    // whole 100,000s of rows, so that nearby sizes reuse one file
    const rows = Math.ceil((targetMb * 1e6) / BYTES_PER_ROW / 100_000) * 100_000;
    const runs = envInt('BENCH_BIG_RUNS', 1);
    const dataset = await ensureProductsCsv(ctx, rows);

    const failures: string[] = [];
    const reports = [];
    for (let run = 1; run <= runs; run++) {
      const result = await runPeer({
        script: 'engine.ts',
        args: [dataset.csvPath],
        nodeArgs: ['--expose-gc'],
      });
      if (!result.ok) {
        failures.push(`engine on the ${fmt(dataset.csvBytes / 1e6)} MB CSV: ${result.message}`);
        break;
      }
      const r = result.report;
      ctx.log(
        `  engine run ${run}/${runs}: ${fmt(r.ms)} ms, ${fmt(mbPerSecond(r.bytes, r.ms), 1)} MB/s, ${fmt(r.peakRssMiB)} MiB`,
      );
      reports.push(r);
    }

    const first = reports[0];
    const ms = first ? median(reports.map((r) => r.ms)) : 0;
    const peak = first ? Math.max(...reports.map((r) => r.peakRssMiB)) : 0;
    if (first && (first.errors !== dataset.plantedCount || first.rows !== dataset.rows)) {
      failures.push(
        `engine on the big CSV: ${fmt(first.rows)} rows and ${fmt(first.errors)} errors, ` +
          `expected ${fmt(dataset.rows)} rows and ${fmt(dataset.plantedCount)} planted errors`,
      );
    }
    const baseline = ctx.baseline?.peakRssMiB;
    const header = [
      'tool',
      'input',
      'MB/s',
      'rows/s',
      'peak MiB',
      'CPU %',
      'MB/s per CPU-s',
      'errors found',
    ];
    const row = first
      ? [
          'SchemaCheck engine',
          `CSV ${fmt(dataset.csvBytes / 1e6)} MB`,
          fmt(mbPerSecond(first.bytes, ms), 1),
          fmt(perSecond(first.rows, ms)),
          fmt(peak),
          fmt(median(reports.map((r) => (100 * r.cpuMs) / r.ms))),
          fmt(mbPerSecond(first.bytes, median(reports.map((r) => r.cpuMs))), 1),
          `${fmt(first.errors)} of ${fmt(dataset.plantedCount)}`,
        ]
      : [
          'SchemaCheck engine',
          `CSV ${fmt(dataset.csvBytes / 1e6)} MB`,
          'failed',
          '',
          '',
          '',
          '',
          '',
        ];
    const note =
      `${fmt(dataset.rows)} rows; peak RSS of the whole child process (VmHWM)` +
      (baseline !== undefined
        ? `, of which ~${fmt(baseline)} MiB is node + tsx with nothing loaded`
        : '');
    return {
      text: `${note}\n\n${textTable(header, [row])}`,
      markdown: `${note}.\n\n${markdownTable(header, [row], 2)}`,
      data: {
        dataset,
        runs: reports.map((r) => ({ ms: r.ms, cpuMs: r.cpuMs, peakRssMiB: r.peakRssMiB })),
        medianMs: ms,
        mbPerS: first ? mbPerSecond(first.bytes, ms) : null,
        peakRssMiB: first ? peak : null,
        errors: first?.errors ?? null,
        extra: first?.extra,
      },
      targets: [
        {
          name: 'Peak memory on ~1 GB CSV',
          goal: `≤ ${TARGET_MIB} MiB`,
          actual: first ? `${fmt(peak)} MiB` : 'not measured',
          met: first ? peak <= TARGET_MIB : null,
          note: heapNote(first?.extra),
        },
      ],
      failures,
    };
  },
};
