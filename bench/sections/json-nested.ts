// JSON records with nested objects (decision 253): the throughput section's JSON array, and the
// same records with `price` and `stock` moved into an object `offer` and `email` and `url` into
// `contact` (the schema's fields renamed `offer.price`, … to match). Each file is validated with
// the byte core on and off, each run in its own child process pinned to one core, rounds
// interleaved. What it shows: a schema with nested objects keeps the byte core (nested about as
// fast as flat), and the core changes no result (the same errors, core on or off).
//
//   BENCH_NESTED_RUNS=3   rounds (each file with the core on and off)
//
// The same file is the child: `node --import tsx bench/sections/json-nested.ts validate FILE
// flat|nested on|off`, printing one PeerReport line (bench/peers/common.ts).
import {
  createReadStream,
  existsSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createValidator, parseSchema, type SchemaModel } from '../../packages/engine/src/index.ts';
import { ensureDataset } from '../generate.ts';
import { runPeer } from '../lib/child.ts';
import { envInt } from '../lib/env.ts';
import { fmt, markdownTable, mbPerSecond, median, ratio, textTable } from '../lib/format.ts';
import type { BenchContext, Section, SectionResult } from '../lib/types.ts';
import { CHUNK_BYTES, report, startTimer, type PeerReport } from '../peers/common.ts';
import { webFormSchema } from '../schema.ts';

type Shape = 'flat' | 'nested';
type Core = 'on' | 'off';

const NESTED_NAMES: Record<string, string> = {
  price: 'offer.price',
  stock: 'offer.stock',
  email: 'contact.email',
  url: 'contact.url',
};

function schemaOf(shape: Shape): SchemaModel {
  const form = webFormSchema('json');
  const fields =
    shape === 'flat'
      ? form.fields
      : form.fields.map((f) => ({ ...f, name: NESTED_NAMES[f.name] ?? f.name }));
  const parsed = parseSchema({ ...form, fields }, 'web');
  if (!parsed.ok) throw new Error(`engine refused the schema: ${JSON.stringify(parsed.problems)}`);
  return parsed.value;
}

/**
 * The generator's array (one record a line, properties in the schema's order) with the nested
 * objects, beside it; made once. A record whose planted error removed one of the moved
 * properties keeps its properties where they are (then an error of the nested schema too).
 */
function ensureNested(jsonPath: string): string {
  const path = jsonPath.replace(/\.json$/, '.nested.json');
  if (existsSync(path) && statSync(path).mtimeMs >= statSync(jsonPath).mtimeMs) return path;
  const text = readFileSync(jsonPath, 'utf8')
    .replace(/"price":([^,\n]*),"stock":([^,\n]*),/g, '"offer":{"price":$1,"stock":$2},')
    .replace(/"email":("[^"\n]*"),"url":("[^"\n]*"),/g, '"contact":{"email":$1,"url":$2},');
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
  return path;
}

// ---- the child ----

async function validateChild(file: string, shape: Shape, core: Core): Promise<void> {
  const started = startTimer();
  const validator = createValidator(schemaOf(shape), {
    fileType: 'json',
    maxErrors: 1000,
    byteCore: core === 'on',
  });
  for await (const chunk of createReadStream(file, { highWaterMark: CHUNK_BYTES }))
    validator.push(chunk as Buffer);
  const result = validator.end();
  const ms = performance.now() - started;
  report({
    tool: `engine, ${shape}, byte core ${core}`,
    input: 'json',
    file,
    bytes: statSync(file).size,
    rows: result.totalRows,
    errors: result.errorCount,
    errorPairs: null,
    ms,
  });
}

// ---- the section ----

const VARIANTS: [Shape, Core][] = [
  ['flat', 'on'],
  ['nested', 'on'],
  ['flat', 'off'],
  ['nested', 'off'],
];
const key = (shape: Shape, core: Core) => `${shape} ${core}`;

export const jsonNestedSection: Section = {
  id: 'json-nested',
  title: 'JSON with nested objects: the byte core on a nested schema',
  skipReason: () => null,
  async run(ctx: BenchContext): Promise<SectionResult> {
    const runs = envInt('BENCH_NESTED_RUNS', 3);
    const dataset = await ensureDataset({
      dir: ctx.dir,
      rows: envInt('BENCH_ROWS', 1_000_000),
      seed: envInt('BENCH_SEED', 42),
      json: true,
      errorRate: 0.01,
      log: ctx.log,
    });
    const files: Record<Shape, string> = {
      flat: dataset.jsonPath as string,
      nested: ensureNested(dataset.jsonPath as string),
    };
    const failures: string[] = [];
    const reports = new Map<string, PeerReport[]>(VARIANTS.map(([s, c]) => [key(s, c), []]));
    for (let round = 1; round <= runs; round++) {
      // Each round in another order, so that no variant always follows the same one.
      const order = round % 2 ? VARIANTS : [...VARIANTS].reverse();
      for (const [shape, core] of order) {
        const r = await runPeer({
          script: '../sections/json-nested.ts',
          args: ['validate', files[shape], shape, core],
        });
        if (!r.ok) {
          failures.push(`json-nested, ${shape} core ${core}: ${r.message}`);
          continue;
        }
        reports.get(key(shape, core))!.push(r.report);
        ctx.log(
          `  round ${round}/${runs} ${shape}, core ${core}: ${fmt(r.report.ms)} ms (CPU ${fmt(r.report.cpuMs)} ms), ` +
            `${fmt(r.report.errors)} errors`,
        );
      }
    }
    const errorsOf = (shape: Shape, core: Core) =>
      new Set(reports.get(key(shape, core))!.map((r) => r.errors));
    for (const shape of ['flat', 'nested'] as const) {
      const on = [...errorsOf(shape, 'on')];
      const off = [...errorsOf(shape, 'off')];
      if (on.length > 1 || off.length > 1 || on[0] !== off[0])
        failures.push(`json-nested, ${shape}: error counts differ (core on ${on}, off ${off})`);
    }
    if (![...errorsOf('flat', 'off')].every((n) => n === dataset.plantedCount))
      failures.push(
        `json-nested: the flat file's errors are not the ${dataset.plantedCount} planted`,
      );

    const med = (shape: Shape, core: Core, pick: (r: PeerReport) => number) =>
      median(reports.get(key(shape, core))!.map(pick));
    const header = ['records', 'byte core', 'ms', 'MB/s', 'CPU ms', 'peak MiB', 'errors'];
    const rows = VARIANTS.map(([shape, core]) => {
      const rs = reports.get(key(shape, core))!;
      const ms = med(shape, core, (r) => r.ms);
      return [
        shape,
        core,
        fmt(ms),
        fmt(mbPerSecond(rs[0]?.bytes ?? 0, ms), 1),
        fmt(med(shape, core, (r) => r.cpuMs)),
        fmt(Math.max(0, ...rs.map((r) => r.peakRssMiB))),
        fmt(rs[0]?.errors ?? 0),
      ];
    });
    const cpu = (shape: Shape, core: Core) => med(shape, core, (r) => r.cpuMs);
    const ratios =
      `nested / flat, CPU time: ${ratio(cpu('nested', 'on'), cpu('flat', 'on'))} with the byte core, ` +
      `${ratio(cpu('nested', 'off'), cpu('flat', 'off'))} without; ` +
      `the byte core on nested records: ${ratio(cpu('nested', 'off'), cpu('nested', 'on'))} faster`;
    const inputs =
      `${fmt(dataset.rows)} records: flat ${fmt(statSync(files.flat).size / 1e6, 1)} MB, ` +
      `nested ${fmt(statSync(files.nested).size / 1e6, 1)} MB; median of ${runs} interleaved round(s)`;
    return {
      text: [inputs, '', textTable(header, rows), '', ratios].join('\n'),
      markdown: [`${inputs}.`, '', markdownTable(header, rows), '', `${ratios}.`].join('\n'),
      data: { files, reports: Object.fromEntries(reports) },
      targets: [],
      failures,
    };
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [mode, file, shape, core] = process.argv.slice(2);
  if (
    mode === 'validate' &&
    file &&
    (shape === 'flat' || shape === 'nested') &&
    (core === 'on' || core === 'off')
  )
    await validateChild(file, shape, core);
  else {
    console.error('usage: json-nested.ts validate FILE flat|nested on|off');
    process.exitCode = 2;
  }
}
