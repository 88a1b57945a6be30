// Peer (f): read the whole file, JSON.parse it, run ajv over each record.
import { readFileSync } from 'node:fs';
import { PairRecorder, fileBytes, peerArgs, report, startTimer } from './common.ts';
import { compileAjv, recordAjvErrors } from './ajv.ts';

const { file, pairsOut } = peerArgs();
const recorder = new PairRecorder(pairsOut !== null);
const started = startTimer();

const validate = compileAjv(false);
const records = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>[];
let ajvErrors = 0;
for (let i = 0; i < records.length; i++) {
  const record = records[i]!;
  if (!validate(record)) ajvErrors += recordAjvErrors(recorder, i + 1, validate.errors, record);
}

const ms = performance.now() - started;
recorder.write(pairsOut);
report({
  tool: 'JSON.parse + ajv',
  input: 'json',
  file,
  bytes: fileBytes(file),
  rows: records.length,
  errors: recorder.count,
  errorPairs: recorder.count,
  extra: { ajvErrorObjects: ajvErrors },
  ms,
});
