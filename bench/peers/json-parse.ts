// Peer (g): JSON.parse alone on the whole file, records counted: the JSON floor, as uDSV is CSV's.
import { readFileSync } from 'node:fs';
import { fileBytes, peerArgs, report, startTimer } from './common.ts';

const { file } = peerArgs();
const started = startTimer();

const records = JSON.parse(readFileSync(file, 'utf8')) as unknown[];

const ms = performance.now() - started;
report({
  tool: 'JSON.parse (parse only)',
  input: 'json',
  file,
  bytes: fileBytes(file),
  rows: records.length,
  errors: 0,
  errorPairs: null,
  ms,
});
