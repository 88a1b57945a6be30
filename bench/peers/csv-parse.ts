// Peer (b): csv-parse in streaming mode (arrays, not objects) with hand-written checks.
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { CHUNK_BYTES, PairRecorder, fileBytes, peerArgs, report, startTimer } from './common.ts';
import { rowChecker } from './handwritten.ts';

const { file, pairsOut } = peerArgs();
const recorder = new PairRecorder(pairsOut !== null);
const started = startTimer();

const parser = createReadStream(file, { highWaterMark: CHUNK_BYTES }).pipe(
  parse({ bom: true, relax_column_count: true }),
);
let checker: ReturnType<typeof rowChecker> | null = null;
let rows = 0;

await new Promise<void>((resolve, reject) => {
  parser.on('readable', () => {
    let cells: string[] | null;
    while ((cells = parser.read() as string[] | null) !== null) {
      if (checker === null) {
        checker = rowChecker(cells);
        for (const name of checker.missing) recorder.add(1, name, 'missing_column', null);
        continue;
      }
      rows++;
      const row = rows + 1;
      checker.check(cells, (field, code, value) => recorder.add(row, field, code, value));
    }
  });
  parser.on('end', resolve);
  parser.on('error', reject);
});

const ms = performance.now() - started;
recorder.write(pairsOut);
report({
  tool: 'csv-parse + hand-written checks',
  input: 'csv',
  file,
  bytes: fileBytes(file),
  rows,
  errors: recorder.count,
  errorPairs: recorder.count,
  ms,
});
