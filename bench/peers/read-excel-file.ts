// read-excel-file (its Node entry, readSheet): the whole first sheet read at once into arrays, as
// its README says it works; no checks, the reading cost alone.
//
//   node --import tsx bench/peers/read-excel-file.ts <file.xlsx>
import { readSheet } from 'read-excel-file/node';
import { fileBytes, peerArgs, report, startTimer } from './common.ts';

const { file } = peerArgs();
const started = startTimer();
const rows = await readSheet(file);
report({
  tool: 'read-excel-file (read only)',
  input: 'csv',
  file,
  bytes: fileBytes(file),
  rows: Math.max(0, rows.length - 1),
  errors: 0,
  errorPairs: null,
  ms: performance.now() - started,
});
