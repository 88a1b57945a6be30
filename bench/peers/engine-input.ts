// The SchemaCheck engine on an input opened as the CLI opens it (the engine's planner with
// node:zlib): an .xlsx workbook (zip directory, shared strings and styles once, the sheet scanned
// as a stream), a .csv.gz or a plain .csv, validated against the bench schema.
//
//   node --import tsx bench/peers/engine-input.ts <file.xlsx|file.csv.gz|file.csv> [--pairs <out.json>]
import { fileSource, nodePlatform } from '../../packages/node-platform/src/index.ts';
import {
  createValidator,
  finishResult,
  planInputs,
  sendCells,
  validatorOptionsFor,
} from '../../packages/engine/src/index.ts';
import { PairRecorder, fileBytes, peerArgs, report, startTimer } from './common.ts';
import { benchSchema } from './engine-api.ts';

const { file, pairsOut } = peerArgs();
const recorder = new PairRecorder(pairsOut !== null);
const peak = { heapTotal: 0, arrayBuffers: 0 };
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peak.heapTotal = Math.max(peak.heapTotal, m.heapTotal);
  peak.arrayBuffers = Math.max(peak.arrayBuffers, m.arrayBuffers);
}, 100);
const started = startTimer();

const { schema } = benchSchema('csv');
const source = await fileSource(file);
const [plan] = await planInputs(file, source, nodePlatform, { schema });
const opened = await plan!.open();
const validator = createValidator(
  schema,
  validatorOptionsFor(opened, {
    maxErrors: 1000,
    onIssue: (issue) => recorder.add(issue.row, issue.field, issue.code, issue.value),
  }),
);
// Nothing here wants the sheet's CSV bytes: its cells go to the validator directly (decision 244).
sendCells(opened, validator);
let dataBytes = 0;
for await (const chunk of opened.chunks) {
  dataBytes += chunk.byteLength;
  validator.push(chunk);
}
const result = finishResult(opened, validator.end());
await source.close();

const ms = performance.now() - started;
clearInterval(sampler);
const mib = (n: number) => Math.round((n / 2 ** 20) * 10) / 10;
recorder.write(pairsOut);
report({
  tool: `SchemaCheck engine (${opened.format}${opened.compression ? `, ${opened.compression}` : ''})`,
  input: 'csv',
  file,
  bytes: fileBytes(file),
  rows: result.totalRows,
  errors: result.errorCount,
  errorPairs: recorder.count,
  extra: {
    dataBytes,
    warnings: result.warnings.map((w) => w.code).join(' '),
    peakHeapTotalMiB: mib(peak.heapTotal),
    peakArrayBuffersMiB: mib(peak.arrayBuffers),
  },
  ms,
});
