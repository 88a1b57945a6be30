// Peer (c): papaparse (stream mode, header: true) with ajv over each row object. CSV cells are
// strings, so ajv runs with `coerceTypes: true` (see docs/performance.md).
import { createReadStream } from 'node:fs';
import Papa from 'papaparse';
import { CHUNK_BYTES, PairRecorder, fileBytes, peerArgs, report, startTimer } from './common.ts';
import { compileAjv, recordAjvErrors } from './ajv.ts';

const { file, pairsOut } = peerArgs();
const recorder = new PairRecorder(pairsOut !== null);
const started = startTimer();

const validate = compileAjv(true);
let rows = 0;
let ajvErrors = 0;
let parseErrors = 0;

await new Promise<void>((resolve, reject) => {
  Papa.parse<Record<string, unknown>>(
    createReadStream(file, { highWaterMark: CHUNK_BYTES, encoding: 'utf8' }),
    {
      header: true,
      skipEmptyLines: true,
      chunk(results) {
        for (const e of results.errors) {
          parseErrors++;
          recorder.add(rows + (e.row ?? 0) + 2, '', 'parse_error', e.message);
        }
        for (const record of results.data) {
          rows++;
          if (!validate(record)) {
            ajvErrors += recordAjvErrors(recorder, rows + 1, validate.errors, record);
          }
        }
      },
      complete: () => resolve(),
      error: (e: Error) => reject(e),
    },
  );
});

const ms = performance.now() - started;
recorder.write(pairsOut);
report({
  tool: 'papaparse + ajv',
  input: 'csv',
  file,
  bytes: fileBytes(file),
  rows,
  errors: recorder.count,
  errorPairs: recorder.count,
  extra: { ajvErrorObjects: ajvErrors, parseErrors },
  ms,
});
