// Peers (a) and (e): the SchemaCheck engine, streamed from a file read stream in 1 MiB chunks,
// counting every issue through onIssue and keeping the first 1000 (maxErrors).
//
//   node --import tsx bench/peers/engine.ts <file.csv|file.json> [--pairs <out.json>]
import { createReadStream } from 'node:fs';
import { CHUNK_BYTES, PairRecorder, fileBytes, peerArgs, report, startTimer } from './common.ts';
import { benchSchema, createValidator } from './engine-api.ts';

const { file, pairsOut } = peerArgs();
const fileType = file.endsWith('.json') ? 'json' : 'csv';
const recorder = new PairRecorder(pairsOut !== null);
let issues = 0;
// Where the peak RSS goes: V8 heap vs Buffers/ArrayBuffers, sampled every 100 ms.
const peak = { heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  for (const k of Object.keys(peak) as (keyof typeof peak)[]) peak[k] = Math.max(peak[k], m[k]);
}, 100);
const started = startTimer();

const { schema, source } = benchSchema(fileType);
const validator = createValidator(schema, {
  fileType,
  maxErrors: 1000,
  onIssue: (issue) => {
    issues++;
    recorder.add(issue.row, issue.field, issue.code, issue.value);
  },
});
for await (const chunk of createReadStream(file, { highWaterMark: CHUNK_BYTES })) {
  validator.push(chunk as Buffer);
}
const result = validator.end();

const ms = performance.now() - started;
clearInterval(sampler);
const memory = process.memoryUsage();
const mib = (n: number) => Math.round((n / 2 ** 20) * 10) / 10;
// With --expose-gc (the orchestrator passes it), what the engine still holds once garbage is gone:
// flat in the file's size when it streams; growing with rows if it keeps something per row.
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const retained = gc ? mib(process.memoryUsage().heapUsed) : 'no --expose-gc';
recorder.write(pairsOut);
report({
  tool: 'SchemaCheck engine',
  input: fileType,
  file,
  bytes: fileBytes(file),
  rows: result.totalRows,
  errors: result.errorCount,
  errorPairs: recorder.count,
  extra: {
    onIssueCalls: issues,
    errorsKept: result.errors.length,
    invalidRows: result.invalidRows,
    warnings: result.warnings.map((w) => w.code).join(' '),
    schema: source,
    heapUsedAtEndMiB: mib(memory.heapUsed),
    peakHeapUsedMiB: mib(peak.heapUsed),
    peakHeapTotalMiB: mib(peak.heapTotal),
    peakExternalMiB: mib(peak.external),
    peakArrayBuffersMiB: mib(peak.arrayBuffers),
    heapAfterGcMiB: retained,
  },
  ms,
});
