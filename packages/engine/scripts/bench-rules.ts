// What cross-field rules cost on the CSV path (issue 22: at most 15% with five rules). Validates
// the bench products file (bench/generate.ts, the throughput section's data) in memory, 1 MiB
// chunks, alternating the schema without rules and with five rules that hold on clean rows, and
// prints the median (and best) CPU time of each with the overhead. WITH_UNIQUE=1 adds a sixth,
// uniqueTogether, which keeps a hash per row like `unique`. Run from the repository root:
//   npx tsx packages/engine/scripts/bench-rules.ts            (BENCH_ROWS=300000, RUNS=7)
import { readFileSync } from 'node:fs';
import { ensureDataset } from '../../../bench/generate.ts';
import { CATEGORIES, webFormSchema } from '../../../bench/schema.ts';
import { createValidator, parseSchema, type SchemaModel } from '../src/index.ts';

const rows = Number(process.env.BENCH_ROWS ?? 300_000);
const runs = Number(process.env.RUNS ?? 7);
const dataset = await ensureDataset({
  dir: '.bench',
  rows,
  seed: 42,
  json: false,
  errorRate: 0.01,
});
const bytes = readFileSync(dataset.csvPath);

const FIVE_RULES = [
  { kind: 'requiredWhen', field: 'url', when: { field: 'active', op: '=', value: true } },
  { kind: 'requireOneOf', fields: ['email', 'url'] },
  { kind: 'compare', left: 'id', op: '>=', value: 1 },
  { kind: 'compare', left: 'date', op: '<=', value: '2100-12-31' },
  {
    kind: 'allowedValuesWhen',
    field: 'category',
    when: { field: 'stock', op: '>=', value: 0 },
    values: [...CATEGORIES],
  },
];
const WITH_UNIQUE = [...FIVE_RULES, { kind: 'uniqueTogether', fields: ['sku', 'id'] }];

function model(rules: unknown[]): SchemaModel {
  const parsed = parseSchema({ ...webFormSchema('csv'), rules });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.value;
}

/**
 * CPU time (user + system) of one validation: on a shared machine wall time mostly measures the
 * neighbours, while the CPU this process used is what the rules add.
 */
function once(schema: SchemaModel): { ms: number; errors: number } {
  const before = process.cpuUsage();
  const v = createValidator(schema, { fileType: 'csv', maxErrors: 1000 });
  for (let i = 0; i < bytes.length; i += 1 << 20) v.push(bytes.subarray(i, i + (1 << 20)));
  const r = v.end();
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000, errors: r.errorCount };
}

const all: Record<string, SchemaModel> = {
  none: model([]),
  five: model(FIVE_RULES),
  sixWithUnique: model(WITH_UNIQUE),
};
// ONLY=five measures one variant in its own process: interleaving schemas in one process makes
// the shared hot functions see several shapes, which a real validation never does.
const only = process.env.ONLY;
const variants: Record<string, SchemaModel> = only
  ? { [only]: all[only] as SchemaModel }
  : { none: all.none as SchemaModel, five: all.five as SchemaModel };
if (!only && process.env.WITH_UNIQUE === '1')
  variants.sixWithUnique = all.sixWithUnique as SchemaModel;
const times: Record<string, number[]> = Object.fromEntries(
  Object.keys(variants).map((k) => [k, []]),
);
const errors: Record<string, number> = {};
once(Object.values(variants)[0] as SchemaModel); // warm-up
for (let r = 0; r < runs; r++) {
  for (const [name, schema] of Object.entries(variants)) {
    const t = once(schema);
    (times[name] as number[]).push(t.ms);
    errors[name] = t.errors;
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const mb = bytes.length / 1e6;
const base = median((times.none ?? Object.values(times)[0]) as number[]);
for (const name of Object.keys(variants)) {
  const m = median(times[name] as number[]);
  const best = Math.min(...(times[name] as number[]));
  console.log(`${name.padEnd(14)} best ${best.toFixed(0).padStart(6)} ms CPU`);
  console.log(
    `${name.padEnd(14)} ${m.toFixed(0).padStart(6)} ms CPU  ${(mb / (m / 1000)).toFixed(1).padStart(6)} MB/s  ` +
      `${(((m - base) / base) * 100).toFixed(1).padStart(5)}%  errors ${errors[name]}`,
  );
}
console.log(`${rows} rows, ${mb.toFixed(1)} MB, median of ${runs} interleaved runs`);
