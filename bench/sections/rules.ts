// Cross-field rules and reference lists (issue 22), each measured in its own child process:
// - rules: the engine on the throughput section's product CSV with the bench schema as is and with
//   five cross-field rules of different kinds added, rounds interleaved (plain, rules; then rules,
//   plain; …) so that a busy neighbour weighs on both alike. Target: the rules add at most 15%.
//   The same on the product JSON (the same records as an array), with no target: its ratio shows
//   what the rules cost where the byte core cannot take the records (decision 255).
// - lists: a 1,000,000-value reference list read from a file the way the CLI's `--list` reads it,
//   handed to a validator and used for a file with a near miss, so that its "did you mean" index is
//   built too. Target: under 2 s and 150 MiB peak RSS for the whole process.
//
//   BENCH_RULES_ROWS   rows of the product file (default BENCH_ROWS, else 1,000,000)
//   BENCH_RULES_RUNS=5 rounds (each a plain and a rules run)
//   BENCH_RULES_INPUTS=csv,json  the inputs measured (csv alone skips the JSON rounds)
//   BENCH_RULES_KINDS  only the rules of these kinds, comma-separated (experiments; default all five)
//   BENCH_RULES_SIZED=0  the validator is not told the file's size (inputBytes), as before decision 219
//   BENCH_LIST_VALUES=1000000  values of the reference list   BENCH_LIST_RUNS=3  its runs
//
// The same file is the child: `node --import tsx bench/sections/rules.ts validate FILE plain|rules csv|json`
// or `… list FILE`, printing one PeerReport line (bench/peers/common.ts).
import { createReadStream, createWriteStream, existsSync, readFileSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createValidator,
  parseSchema,
  readListValues,
  type Issue,
  type SchemaModel,
} from '../../packages/engine/src/index.ts';
import { createRandom, ensureDataset, type Dataset } from '../generate.ts';
import { runPeer } from '../lib/child.ts';
import { envInt } from '../lib/env.ts';
import { fmt, markdownTable, mbPerSecond, median, ratio, textTable } from '../lib/format.ts';
import type { BenchContext, Section, SectionResult, Target } from '../lib/types.ts';
import { CHUNK_BYTES, report, startTimer, type PeerReport } from '../peers/common.ts';
import { CATEGORIES, webFormSchema } from '../schema.ts';
import { CONTENDED_PERCENT } from './throughput.ts';

const RULES_GOAL = 1.15;
const LIST_MS_GOAL = 2000;
const LIST_MIB_GOAL = 150;
const LIST_NAME = 'catalogue';

/**
 * Five rules of five kinds a shop would write on these columns. They hold on the generated rows;
 * the planted errors make a few fail (an empty url on an active product fails requiredWhen too).
 */
export const FIVE_RULES = [
  { kind: 'requiredWhen', field: 'url', when: { field: 'active', op: '=', value: 'true' } },
  { kind: 'compare', left: 'date', op: '>=', value: '2000-01-01' },
  {
    kind: 'allowedValuesWhen',
    field: 'category',
    when: { field: 'price', op: '>', value: '0' },
    values: [...CATEGORIES],
  },
  { kind: 'requireOneOf', fields: ['email', 'url'] },
  { kind: 'uniqueTogether', fields: ['sku', 'date'] },
];

type Variant = 'plain' | 'rules';
type Input = 'csv' | 'json';

/** BENCH_RULES_KINDS=uniqueTogether,compare: only the rules of those kinds (experiments). */
function rulesOfRun(): typeof FIVE_RULES {
  const kinds = process.env.BENCH_RULES_KINDS?.split(',').filter(Boolean);
  return kinds?.length ? FIVE_RULES.filter((r) => kinds.includes(r.kind)) : FIVE_RULES;
}

function schemaOf(variant: Variant, input: Input): SchemaModel {
  const form = webFormSchema(input);
  const parsed = parseSchema(variant === 'rules' ? { ...form, rules: rulesOfRun() } : form, 'web');
  if (!parsed.ok) throw new Error(`engine refused the schema: ${JSON.stringify(parsed.problems)}`);
  return parsed.value;
}

// ---- children ----

async function validateChild(file: string, variant: Variant, input: Input): Promise<void> {
  const byCode = new Map<string, number>();
  const started = startTimer();
  const validator = createValidator(schemaOf(variant, input), {
    fileType: input,
    maxErrors: 1000,
    // As the CLI passes a file's size (BENCH_RULES_SIZED=0 leaves it out, for comparisons).
    ...(process.env.BENCH_RULES_SIZED === '0' ? {} : { inputBytes: statSync(file).size }),
    onIssue: (issue: Issue) => byCode.set(issue.code, (byCode.get(issue.code) ?? 0) + 1),
  });
  for await (const chunk of createReadStream(file, { highWaterMark: CHUNK_BYTES }))
    validator.push(chunk as Buffer);
  const result = validator.end();
  const ms = performance.now() - started;
  report({
    tool: `engine, ${variant === 'rules' ? 'five rules' : 'no rules'}`,
    input,
    file,
    bytes: statSync(file).size,
    rows: result.totalRows,
    errors: result.errorCount,
    errorPairs: null,
    extra: Object.fromEntries([...byCode].sort()),
    ms,
  });
}

/** Values that miss the list, and what "did you mean" must answer for each (undefined: none). */
function probes(lines: ListLines): [string, string | undefined][] {
  const a = lines.at(123_457 % lines.count);
  const b = lines.at(777_777 % lines.count);
  return [
    [a, undefined], // listed: no error
    [a.toUpperCase(), a], // case
    [b.replace(' ', '  '), b], // spacing
    // A list whose deletions pass 2,000,000 keeps no edit-distance index (validate/suggest.ts):
    // a typo then gets nothing.
    [`${b.slice(0, 5)}${b.slice(6)}`, lines.deletions <= 2_000_000 ? b : undefined],
  ];
}

/** The list file's lines (distinct, ASCII, LF-ended), read from its bytes without a string each. */
interface ListLines {
  count: number;
  /** Deletions the "did you mean" index would hold for them (1 + L + L(L-1)/2 each). */
  deletions: number;
  at(k: number): string;
}

function listLines(bytes: Uint8Array): ListLines {
  let count = 0;
  let deletions = 0;
  for (let start = 0; start < bytes.length; count++) {
    let end = bytes.indexOf(10, start);
    if (end < 0) end = bytes.length;
    const length = end - start;
    deletions += 1 + length + (length * (length - 1)) / 2;
    start = end + 1;
  }
  const at = (k: number) => {
    let start = 0;
    for (let i = 0; i < k; i++) start = bytes.indexOf(10, start) + 1;
    const end = bytes.indexOf(10, start);
    return Buffer.from(bytes.subarray(start, end < 0 ? bytes.length : end)).toString('latin1');
  };
  return { count, deletions, at };
}

async function listChild(file: string): Promise<void> {
  const started = startTimer();
  // As the CLI's --list reads a file (packages/cli/src/lists.ts): its bytes.
  const bytes = readFileSync(file);
  const read = readListValues(bytes, { csv: false });
  if (!read.ok) throw new Error(read.message);
  const readMs = performance.now() - started;
  const parsed = parseSchema({
    name: 'list lookup',
    fileType: 'csv',
    fields: [
      { name: 'category', type: 'string', required: true, validation: { inList: LIST_NAME } },
    ],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const validator = createValidator(parsed.value, {
    fileType: 'csv',
    lists: { [LIST_NAME]: read.values },
  });
  const loadedMs = performance.now() - started;
  const lines = listLines(bytes);
  const cases = probes(lines);
  const csv = `category\n${cases.map(([v]) => JSON.stringify(v)).join('\n')}\n`;
  validator.push(new TextEncoder().encode(csv));
  const result = validator.end();
  const ms = performance.now() - started;
  // Each probe's row: the suggestion the engine gave, checked against the one expected.
  const wrong = cases.flatMap(([value, expected], i) => {
    const issue = result.errors.find((e) => e.row === i + 2);
    const listed = expected === undefined && i === 0;
    if (listed) return issue ? [`${value}: reported although listed`] : [];
    if (!issue) return [`${value}: not reported`];
    return issue.suggestion === expected
      ? []
      : [`${value}: suggested ${issue.suggestion ?? 'nothing'}, expected ${expected ?? 'nothing'}`];
  });
  if (read.values.size !== lines.count)
    wrong.push(`read ${read.values.size} of ${lines.count} values`);
  report({
    tool: 'engine, reference list',
    input: 'csv',
    file,
    bytes: statSync(file).size,
    rows: read.values.size,
    errors: result.errorCount,
    errorPairs: null,
    extra: {
      readMs: Math.round(readMs),
      loadedMs: Math.round(loadedMs),
      wrong: wrong.join('; '),
    },
    ms,
  });
}

// ---- the rules section ----

interface Round {
  plain: PeerReport;
  rules: PeerReport;
}

const cpuPercent = (r: PeerReport) => (100 * r.cpuMs) / r.ms;

/** Interleaved rounds of the plain and the rules run on one input, and what they show. */
interface Measured {
  input: Input;
  rounds: Round[];
  wall: Record<Variant, number>;
  cpu: Record<Variant, number>;
  busy: boolean;
  rows: string[][];
}

async function measure(
  ctx: BenchContext,
  dataset: Dataset,
  input: Input,
  runs: number,
  failures: string[],
): Promise<Measured> {
  const file = input === 'csv' ? dataset.csvPath : (dataset.jsonPath as string);
  const rounds: Round[] = [];
  const one = async (variant: Variant): Promise<PeerReport | null> => {
    const r = await runPeer({
      script: '../sections/rules.ts',
      args: ['validate', file, variant, input],
    });
    if (r.ok) return r.report;
    failures.push(`rules section, ${input} ${variant}: ${r.message}`);
    return null;
  };
  for (let round = 1; round <= runs; round++) {
    // Alternate which goes first, so that neither always follows the other's caches.
    const order: Variant[] = round % 2 ? ['plain', 'rules'] : ['rules', 'plain'];
    const got: Partial<Record<Variant, PeerReport>> = {};
    for (const variant of order) {
      const r = await one(variant);
      if (!r) break;
      got[variant] = r;
      ctx.log(
        `  ${input} round ${round}/${runs} ${variant}: ${fmt(r.ms)} ms (CPU ${fmt(r.cpuMs)} ms), ` +
          `${fmt(mbPerSecond(r.bytes, r.ms), 1)} MB/s, ${fmt(r.peakRssMiB)} MiB, ${fmt(r.errors)} errors`,
      );
    }
    if (!got.plain || !got.rules) break;
    rounds.push({ plain: got.plain, rules: got.rules });
  }

  const first = rounds[0];
  if (first) {
    for (const variant of ['plain', 'rules'] as const) {
      const counts = new Set(rounds.map((r) => r[variant].errors));
      if (counts.size > 1)
        failures.push(`rules section, ${input} ${variant}: error counts differ between runs`);
    }
    if (first.plain.errors !== dataset.plantedCount)
      failures.push(
        `rules section, ${input}: without rules found ${fmt(first.plain.errors)} errors, planted ${fmt(dataset.plantedCount)}`,
      );
    const ruleErrors = first.rules.errors - first.plain.errors;
    if (ruleErrors < 0 || ruleErrors > dataset.plantedCount)
      failures.push(`rules section, ${input}: the rules added ${fmt(ruleErrors)} errors`);
  }
  const med = (v: Variant, pick: (r: PeerReport) => number) =>
    median(rounds.map((r) => pick(r[v])));
  const wall = { plain: med('plain', (r) => r.ms), rules: med('rules', (r) => r.ms) };
  const cpu = { plain: med('plain', (r) => r.cpuMs), rules: med('rules', (r) => r.cpuMs) };
  const share = Math.min(med('plain', cpuPercent), med('rules', cpuPercent));
  const bytes = first?.plain.bytes ?? 0;
  const rows = (['plain', 'rules'] as const).map((v) => [
    `${input.toUpperCase()}, bench schema${v === 'plain' ? '' : ' + five rules'}`,
    fmt(wall[v]),
    fmt(mbPerSecond(bytes, wall[v]), 1),
    fmt(cpu[v]),
    fmt(mbPerSecond(bytes, cpu[v]), 1),
    fmt(med(v, cpuPercent)),
    fmt(Math.max(...rounds.map((r) => r[v].peakRssMiB))),
    first ? fmt(first[v].errors) : '',
  ]);
  return { input, rounds, wall, cpu, busy: share < CONTENDED_PERCENT, rows };
}

export const rulesSection: Section = {
  id: 'rules',
  title: 'Cross-field rules: five rules on the product CSV and JSON',
  skipReason: () => null,
  async run(ctx: BenchContext): Promise<SectionResult> {
    const rows = envInt('BENCH_RULES_ROWS', envInt('BENCH_ROWS', 1_000_000));
    const runs = envInt('BENCH_RULES_RUNS', 5);
    const inputs = (process.env.BENCH_RULES_INPUTS ?? 'csv,json')
      .split(',')
      .filter((i): i is Input => i === 'csv' || i === 'json');
    const json = inputs.includes('json');
    const dataset = await ensureDataset({
      dir: ctx.dir,
      rows,
      seed: envInt('BENCH_SEED', 42),
      json,
      errorRate: 0.01,
      log: ctx.log,
    });
    const failures: string[] = [];
    const measured: Measured[] = [];
    for (const input of inputs) measured.push(await measure(ctx, dataset, input, runs, failures));

    const header = [
      'input, schema',
      'ms',
      'MB/s',
      'CPU ms',
      'MB/s per CPU-s',
      'CPU %',
      'peak MiB',
      'errors',
    ];
    const tableRows = measured.flatMap((m) => m.rows);
    const firstRules = measured[0]?.rounds[0];
    const ruleCodes = firstRules
      ? Object.entries(firstRules.rules.extra ?? {})
          .filter(([code, n]) => firstRules.plain.extra?.[code] !== n)
          .map(
            ([code, n]) =>
              `${code} ${fmt(Number(n) - Number(firstRules.plain.extra?.[code] ?? 0))}`,
          )
          .join(', ')
      : '';
    const sizes = inputs
      .map((i) =>
        i === 'csv'
          ? `CSV ${fmt(dataset.csvBytes / 1e6, 1)} MB`
          : `JSON ${fmt(dataset.jsonBytes / 1e6, 1)} MB`,
      )
      .join(', ');
    const inputsLine =
      `${fmt(dataset.rows)} rows (${sizes}); median of ${runs} interleaved round(s) each; ` +
      `rules: ${FIVE_RULES.map((r) => r.kind).join(', ')}` +
      (ruleCodes ? `; rule errors: ${ruleCodes}` : '');
    const ratioLines = measured.map((m) =>
      m.rounds.length
        ? `${m.input.toUpperCase()}, rules / no rules: ${ratio(m.wall.rules, m.wall.plain)} wall clock, ${ratio(m.cpu.rules, m.cpu.plain)} CPU time`
        : `${m.input.toUpperCase()}: not measured`,
    );
    const csv = measured.find((m) => m.input === 'csv');
    const targets: Target[] = [];
    if (csv) {
      const wallRatio = csv.wall.rules / csv.wall.plain;
      const cpuRatio = csv.cpu.rules / csv.cpu.plain;
      // On a busy machine wall time measures the neighbours: the CPU time each run used decides.
      const judged = csv.busy ? cpuRatio : wallRatio;
      targets.push({
        name: 'Five cross-field rules, CSV time',
        goal: `≤ ${RULES_GOAL}x`,
        actual: csv.rounds.length ? `${fmt(judged, 2)}x` : 'not measured',
        met: csv.rounds.length ? judged <= RULES_GOAL : null,
        note: csv.busy
          ? `busy machine: judged by CPU time; wall clock ${ratio(csv.wall.rules, csv.wall.plain)}`
          : `by CPU time ${ratio(csv.cpu.rules, csv.cpu.plain)}`,
      });
    }
    return {
      text: [inputsLine, '', textTable(header, tableRows), '', ...ratioLines].join('\n'),
      markdown: [
        `${inputsLine}.`,
        '',
        markdownTable(header, tableRows),
        '',
        ...ratioLines.map((l) => `${l}.`),
      ].join('\n'),
      data: {
        dataset,
        rules: FIVE_RULES,
        measured: measured.map(({ rows: _rows, ...m }) => m),
      },
      targets,
      failures,
    };
  },
};

// ---- the lists section ----

const WORDS = ['Oak', 'Steel', 'Bamboo', 'Cotton', 'Leather', 'Ceramic', 'Glass', 'Wool'];
const THINGS = ['Chair', 'Desk Lamp', 'Backpack', 'Kettle', 'Headphones', 'Blanket', 'Mug'];

/** `count` distinct catalogue paths of 25 to 45 characters, one a line, unless already there. */
async function ensureList(dir: string, count: number): Promise<string> {
  const path = join(dir, `list-${count}.txt`);
  if (existsSync(path)) return path;
  const r = createRandom(7);
  const out = createWriteStream(path);
  for (let i = 0; i < count; i += 10_000) {
    let text = '';
    for (let j = i; j < Math.min(count, i + 10_000); j++)
      text += `${r.pick(CATEGORIES)} > ${r.pick(WORDS)} ${r.pick(THINGS)} ${String(j).padStart(7, '0')}\n`;
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return path;
}

export const listsSection: Section = {
  id: 'lists',
  title: 'Reference lists: a 1,000,000-value list',
  skipReason: () => null,
  async run(ctx: BenchContext): Promise<SectionResult> {
    const count = envInt('BENCH_LIST_VALUES', 1_000_000);
    const runs = envInt('BENCH_LIST_RUNS', 3);
    const file = await ensureList(ctx.dir, count);
    const failures: string[] = [];
    const reports: PeerReport[] = [];
    for (let run = 1; run <= runs; run++) {
      const r = await runPeer({ script: '../sections/rules.ts', args: ['list', file] });
      if (!r.ok) {
        failures.push(`lists section: ${r.message}`);
        break;
      }
      const x = r.report.extra ?? {};
      ctx.log(
        `  run ${run}/${runs}: ${fmt(r.report.ms)} ms (read ${fmt(Number(x.readMs))}, ` +
          `in the validator ${fmt(Number(x.loadedMs))}; CPU ${fmt(r.report.cpuMs)} ms), ${fmt(r.report.peakRssMiB)} MiB`,
      );
      if (x.wrong) failures.push(`lists section: ${String(x.wrong)}`);
      reports.push(r.report);
    }
    const ms = median(reports.map((r) => r.ms));
    const cpuMs = median(reports.map((r) => r.cpuMs));
    const mib = reports.length ? Math.max(...reports.map((r) => r.peakRssMiB)) : 0;
    const readMs = median(reports.map((r) => Number(r.extra?.readMs)));
    const loadedMs = median(reports.map((r) => Number(r.extra?.loadedMs)));
    const share = reports.length ? median(reports.map(cpuPercent)) : 100;
    const busy = share < CONTENDED_PERCENT;
    const judgedMs = busy ? cpuMs : ms;
    const baseline = ctx.baseline?.peakRssMiB;
    const header = ['phase', 'ms (median)'];
    const tableRows = [
      ['file read and split into distinct values', fmt(readMs)],
      ['… and handed to a validator (its set)', fmt(loadedMs)],
      ['… and a file with near misses checked ("did you mean" index built)', fmt(ms)],
      ['CPU time of the whole', fmt(cpuMs)],
    ];
    const inputs =
      `${fmt(count)} distinct values (catalogue paths, 25–45 characters), ` +
      `${fmt(reports[0]?.bytes ?? 0)} bytes; median of ${reports.length} run(s); ` +
      `peak RSS ${fmt(mib)} MiB` +
      (baseline === undefined ? '' : ` (an empty child: ${fmt(baseline)} MiB)`);
    const targets: Target[] = [
      {
        name: '1,000,000-value list, load time',
        goal: `< ${fmt(LIST_MS_GOAL / 1000)} s`,
        actual: reports.length ? `${fmt(judgedMs / 1000, 2)} s` : 'not measured',
        met: reports.length ? judgedMs < LIST_MS_GOAL : null,
        note: busy
          ? `busy machine (${fmt(share)}% CPU): judged by CPU time; wall clock ${fmt(ms / 1000, 2)} s`
          : undefined,
      },
      {
        name: '1,000,000-value list, peak RSS',
        goal: `< ${LIST_MIB_GOAL} MiB`,
        actual: reports.length ? `${fmt(mib)} MiB` : 'not measured',
        met: reports.length ? mib < LIST_MIB_GOAL : null,
        note: 'the whole process, Node included',
      },
    ];
    return {
      text: [inputs, '', textTable(header, tableRows)].join('\n'),
      markdown: [`${inputs}.`, '', markdownTable(header, tableRows)].join('\n'),
      data: { count, file, reports },
      targets,
      failures,
    };
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [mode, file, variant, input = 'csv'] = process.argv.slice(2);
  if (
    mode === 'validate' &&
    file &&
    (variant === 'plain' || variant === 'rules') &&
    (input === 'csv' || input === 'json')
  )
    await validateChild(file, variant, input);
  else if (mode === 'list' && file) await listChild(file);
  else {
    console.error('usage: rules.ts validate FILE plain|rules [csv|json] | rules.ts list FILE');
    process.exitCode = 2;
  }
}
