// Peers (a) and (e): the SchemaCheck engine, streamed from a file read stream in 1 MiB chunks,
// counting every issue through onIssue and keeping the first 1000 (maxErrors).
//
//   node --import tsx bench/peers/engine.ts <file.csv|file.json> [--pairs <out.json>]
import { createReadStream } from 'node:fs';
import { CHUNK_BYTES, PairRecorder, fileBytes, peerArgs, report } from './common.ts';
import { benchSchema, loadEngine } from './engine-api.ts';

const { file, pairsOut } = peerArgs();
const fileType = file.endsWith('.json') ? 'json' : 'csv';
const engine = await loadEngine();
const recorder = new PairRecorder(pairsOut !== null);
let issues = 0;
const started = performance.now();

const { schema, source } = benchSchema(engine, fileType);
const validator = engine.createValidator(schema, {
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
const memory = process.memoryUsage();
const mib = (n: number) => Math.round((n / 2 ** 20) * 10) / 10;
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
    heapTotalAtEndMiB: mib(memory.heapTotal),
  },
  ms,
});
