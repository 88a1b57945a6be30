// exceljs's streaming reader (stream.xlsx.WorkbookReader), shared strings cached, styles and
// hyperlinks ignored: it reads every row of the first sheet and checks nothing, so it is the
// reading cost alone, a floor under what a validator built on it would take.
//
//   node --import tsx bench/peers/exceljs-stream.ts <file.xlsx>
import ExcelJS from 'exceljs';
import { fileBytes, peerArgs, report, startTimer } from './common.ts';

const { file } = peerArgs();
const started = startTimer();
const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
  sharedStrings: 'cache',
  styles: 'ignore',
  hyperlinks: 'ignore',
  worksheets: 'emit',
});
let rows = 0;
let cells = 0;
for await (const sheet of reader) {
  for await (const row of sheet) {
    rows++;
    cells += (row.values as unknown[]).length - 1;
  }
  break;
}
report({
  tool: 'exceljs WorkbookReader (read only)',
  input: 'csv',
  file,
  bytes: fileBytes(file),
  rows: rows - 1,
  errors: 0,
  errorPairs: null,
  extra: { cells },
  ms: performance.now() - started,
});
