// Throughput and correctness on the 1,000,000-row product file (CSV and JSON), engine vs peers.
import { join } from 'node:path';
import { ensureDataset, readPlanted, type Dataset } from '../generate.ts';
import type { PeerReport } from '../peers/common.ts';
import { comparePairs, type PairComparison } from '../lib/check.ts';
import { runPeer } from '../lib/child.ts';
import { env, envInt } from '../lib/env.ts';
import {
  fmt,
  markdownTable,
  mbPerSecond,
  median,
  perSecond,
  ratio,
  textTable,
} from '../lib/format.ts';
import type { BenchContext, Section, SectionResult, Target } from '../lib/types.ts';
import type { FileType } from '@schemacheck/engine';

/** Below this share of its core, a tool's wall-clock time says more about the machine than the tool. */
export const CONTENDED_PERCENT = 90;

interface PeerSpec {
  id: string;
  /** Script under bench/peers/. */
  script: string;
  input: FileType;
  /** Does the tool check values (uDSV does not)? */
  checks: boolean;
  nodeArgs?: string[];
}

export const PEERS: PeerSpec[] = [
  // --expose-gc only lets the engine peer report its heap after a final GC (outside the timing)
  { id: 'engine-csv', script: 'engine.ts', input: 'csv', checks: true, nodeArgs: ['--expose-gc'] },
  { id: 'csv-parse', script: 'csv-parse.ts', input: 'csv', checks: true },
  { id: 'papaparse-ajv', script: 'papaparse-ajv.ts', input: 'csv', checks: true },
  { id: 'udsv', script: 'udsv.ts', input: 'csv', checks: false },
  {
    id: 'engine-json',
    script: 'engine.ts',
    input: 'json',
    checks: true,
    nodeArgs: ['--expose-gc'],
  },
  {
    id: 'json-parse-ajv',
    script: 'json-parse-ajv.ts',
    input: 'json',
    checks: true,
    // the whole file as one string plus a million objects: give V8 room, as its user would
    nodeArgs: ['--max-old-space-size=8192'],
  },
  {
    id: 'json-parse',
    script: 'json-parse.ts',
    input: 'json',
    checks: false,
    nodeArgs: ['--max-old-space-size=8192'],
  },
];

export interface PeerResult {
  id: string;
  tool: string;
  input: FileType;
  ok: boolean;
  failure?: string;
  runs: { ms: number; cpuMs: number; peakRssMiB: number }[];
  bytes: number;
  rows: number;
  errors: number;
  errorPairs: number | null;
  extra?: Record<string, number | string>;
  medianMs: number;
  mbPerS: number;
  /** Bytes per CPU-second (median run): what an idle core would give, near enough. */
  mbPerCpuS: number;
  rowsPerS: number;
  peakRssMiB: number;
  /** Median share of the wall time the process was on a CPU (under 100%: the core was shared). */
  cpuPercent: number;
  comparison?: PairComparison;
}

async function measure(
  spec: PeerSpec,
  file: string,
  ctx: BenchContext,
  pairsFile: string,
): Promise<PeerResult> {
  const reports: PeerReport[] = [];
  const base = { id: spec.id, tool: spec.id, input: spec.input, runs: [], bytes: 0, rows: 0 };
  const empty = {
    errors: 0,
    errorPairs: null,
    medianMs: 0,
    mbPerS: 0,
    mbPerCpuS: 0,
    rowsPerS: 0,
    peakRssMiB: 0,
    cpuPercent: 0,
  };
  for (let run = 1; run <= ctx.runs; run++) {
    // pairs are written on the first run only; later runs time the same work without the file
    const args = run === 1 ? [file, '--pairs', pairsFile] : [file];
    const result = await runPeer({ script: spec.script, args, nodeArgs: spec.nodeArgs });
    if (!result.ok) {
      ctx.log(`  ${spec.id}: FAILED (${result.message})`);
      return { ...base, ...empty, ok: false, failure: result.message };
    }
    const r = result.report;
    ctx.log(
      `  ${spec.id} run ${run}/${ctx.runs}: ${fmt(r.ms)} ms, ${fmt(mbPerSecond(r.bytes, r.ms), 1)} MB/s, ` +
        `${fmt(r.peakRssMiB)} MiB, ${fmt(r.errors)} errors`,
    );
    reports.push(r);
  }
  const first = reports[0]!;
  const ms = median(reports.map((r) => r.ms));
  return {
    id: spec.id,
    tool: first.tool,
    input: spec.input,
    ok: true,
    runs: reports.map((r) => ({ ms: r.ms, cpuMs: r.cpuMs, peakRssMiB: r.peakRssMiB })),
    bytes: first.bytes,
    rows: first.rows,
    errors: first.errors,
    errorPairs: first.errorPairs,
    extra: first.extra,
    medianMs: ms,
    mbPerS: mbPerSecond(first.bytes, ms),
    mbPerCpuS: mbPerSecond(first.bytes, median(reports.map((r) => r.cpuMs))),
    rowsPerS: perSecond(first.rows, ms),
    peakRssMiB: Math.max(...reports.map((r) => r.peakRssMiB)),
    cpuPercent: median(reports.map((r) => (100 * r.cpuMs) / r.ms)),
  };
}

function checkPeer(
  result: PeerResult,
  spec: PeerSpec,
  dataset: Dataset,
  pairsFile: string,
  planted: ReturnType<typeof readPlanted>,
): string[] {
  const label = `${result.tool} (${result.input})`;
  if (!result.ok) return [`${label}: did not complete: ${result.failure}`];
  const failures: string[] = [];
  if (result.rows !== dataset.rows) {
    failures.push(`${label}: saw ${fmt(result.rows)} rows, the file has ${fmt(dataset.rows)}`);
  }
  if (!spec.checks) return failures;
  if (result.errors !== dataset.plantedCount || result.errorPairs !== dataset.plantedCount) {
    failures.push(
      `${label}: found ${fmt(result.errors)} errors (${fmt(result.errorPairs ?? 0)} distinct row+field), planted ${fmt(dataset.plantedCount)}`,
    );
  }
  const c = comparePairs(pairsFile, planted, result.input);
  result.comparison = c;
  if (c.missed.length || c.unexpected.length) {
    failures.push(
      `${label}: (row, field) set differs from the planted errors: ` +
        `${fmt(c.matched)} of ${fmt(dataset.plantedCount)} matched` +
        (c.missed.length ? `\n      missed: ${c.missed.join('\n              ')}` : '') +
        (c.unexpected.length
          ? `\n      unexpected: ${c.unexpected.join('\n                  ')}`
          : ''),
    );
  }
  return failures;
}

export const throughputSection: Section = {
  id: 'throughput',
  title: 'Throughput and correctness (1M-row product file)',
  skipReason: () => null,
  async run(ctx: BenchContext): Promise<SectionResult> {
    const rows = envInt('BENCH_ROWS', 1_000_000);
    const seed = envInt('BENCH_SEED', 42);
    const only = env('BENCH_ONLY', '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const dataset = await ensureDataset({
      dir: ctx.dir,
      rows,
      seed,
      json: true,
      errorRate: 0.01,
      log: ctx.log,
    });
    const planted = readPlanted(dataset.plantedPath);

    const results: PeerResult[] = [];
    const failures: string[] = [];
    for (const spec of PEERS) {
      if (only.length && !only.includes(spec.id)) continue;
      const file = spec.input === 'csv' ? dataset.csvPath : (dataset.jsonPath as string);
      const pairsFile = join(ctx.dir, `pairs-${spec.id}.json`);
      ctx.log(`${spec.id}: ${file}`);
      const result = await measure(spec, file, ctx, pairsFile);
      results.push(result);
      failures.push(...checkPeer(result, spec, dataset, pairsFile, planted));
    }

    const by = (id: string) => results.find((r) => r.id === id && r.ok);
    const engineCsv = by('engine-csv');
    const engineJson = by('engine-json');
    const papa = by('papaparse-ajv');
    const csvParse = by('csv-parse');
    const udsv = by('udsv');
    const jsonAjv = by('json-parse-ajv');
    const jsonParse = by('json-parse');

    const ratios: { name: string; value: string; byCpu: string }[] = [];
    const addRatio = (name: string, a?: PeerResult, b?: PeerResult) => {
      if (a && b) {
        ratios.push({
          name,
          value: ratio(a.mbPerS, b.mbPerS),
          byCpu: ratio(a.mbPerCpuS, b.mbPerCpuS),
        });
      }
    };
    addRatio('engine CSV vs papaparse + ajv', engineCsv, papa);
    addRatio('engine CSV vs csv-parse + hand-written checks', engineCsv, csvParse);
    addRatio('engine CSV vs uDSV parse-only floor', engineCsv, udsv);
    addRatio('engine JSON vs JSON.parse + ajv', engineJson, jsonAjv);
    addRatio('engine JSON vs JSON.parse parse-only floor', engineJson, jsonParse);

    // Targets are judged on wall-clock MB/s. When a tool had less than 90% of its core (the
    // machine was busy), the CPU-time figure is added so that nobody reads noise as a result.
    const busy = (...rs: (PeerResult | undefined)[]) =>
      rs.filter((r): r is PeerResult => !!r && r.cpuPercent < CONTENDED_PERCENT);
    const cpuNote = (value: string, ...rs: (PeerResult | undefined)[]) => {
      const b = busy(...rs);
      if (!b.length) return undefined;
      const who = b.map((r) => `${r.tool} ${r.input.toUpperCase()} at ${fmt(r.cpuPercent)}% CPU`);
      return `busy machine (${who.join(', ')}); by CPU time: ${value}`;
    };
    const speed = (r: PeerResult | undefined, goal: number): Target['met'] =>
      r ? r.mbPerS >= goal : null;
    const faster = (a: PeerResult | undefined, b: PeerResult | undefined, goal: number) =>
      a && b ? a.mbPerS >= goal * b.mbPerS : null;
    /** `a` at least `times` as fast as `b`, judged on wall-clock MB/s. */
    const versus = (name: string, goal: string, times: number, a?: PeerResult, b?: PeerResult) =>
      ({
        name,
        goal,
        actual: a && b ? ratio(a.mbPerS, b.mbPerS) : 'not measured',
        met: faster(a, b, times),
        note: a && b ? cpuNote(ratio(a.mbPerCpuS, b.mbPerCpuS), a, b) : undefined,
      }) satisfies Target;
    const targets: Target[] = [
      {
        name: 'CSV throughput, end to end',
        goal: '≥ 100 MB/s',
        actual: engineCsv ? `${fmt(engineCsv.mbPerS, 1)} MB/s` : 'not measured',
        met: speed(engineCsv, 100),
        note: engineCsv && cpuNote(`${fmt(engineCsv.mbPerCpuS, 1)} MB/s`, engineCsv),
      },
      versus('CSV vs papaparse + ajv', '≥ 5x', 5, engineCsv, papa),
      {
        name: 'JSON throughput, streaming',
        goal: '≥ 40 MB/s',
        actual: engineJson ? `${fmt(engineJson.mbPerS, 1)} MB/s` : 'not measured',
        met: speed(engineJson, 40),
        note: engineJson && cpuNote(`${fmt(engineJson.mbPerCpuS, 1)} MB/s`, engineJson),
      },
      versus('JSON vs JSON.parse + ajv', '≥ 2x', 2, engineJson, jsonAjv),
      // Issue 24: validating as fast as the fastest tool that only parses.
      versus('CSV vs uDSV (parse only)', '≥ 1.0x', 1, engineCsv, udsv),
      versus('JSON vs JSON.parse (parse only)', '≥ 1.0x', 1, engineJson, jsonParse),
    ];

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
    const tableRows = results.map((r) => [
      r.tool,
      r.input.toUpperCase(),
      r.ok ? fmt(r.mbPerS, 1) : 'failed',
      r.ok ? fmt(r.rowsPerS) : '',
      r.ok ? fmt(r.peakRssMiB) : '',
      r.ok ? fmt(r.cpuPercent) : '',
      r.ok ? fmt(r.mbPerCpuS, 1) : '',
      !r.ok
        ? ''
        : r.errorPairs === null
          ? '(no checks)'
          : `${fmt(r.errors)}${r.errors === dataset.plantedCount && !r.comparison?.missed.length && !r.comparison?.unexpected.length ? ' ✓' : ' ✗'}`,
    ]);
    const inputs =
      `${fmt(dataset.rows)} rows, ${fmt(dataset.plantedCount)} planted errors; ` +
      `CSV ${fmt(dataset.csvBytes / 1e6, 1)} MB, JSON ${fmt(dataset.jsonBytes / 1e6, 1)} MB; ` +
      `median of ${ctx.runs} run(s)`;
    const notes = results
      .filter((r) => r.extra?.schema && r.extra.schema !== 'parseSchema(web form)')
      .map((r) => `note: ${r.tool} (${r.input}) used the ${r.extra?.schema}, not parseSchema`);
    const text = [
      inputs,
      ...notes,
      '',
      textTable(header, tableRows),
      '',
      ...ratios.map((r) => `${r.name}: ${r.value} (by CPU time: ${r.byCpu})`),
    ].join('\n');
    const markdown = [
      `${inputs}.`,
      ...notes.map((n) => `\n${n}.`),
      '',
      markdownTable(header, tableRows, 2),
      '',
      markdownTable(
        ['ratio', 'wall clock', 'CPU time'],
        ratios.map((r) => [r.name, r.value, r.byCpu]),
      ),
    ].join('\n');

    return {
      text,
      markdown,
      data: { dataset, results, ratios },
      targets,
      failures,
    };
  },
};
