// Peer (d): uDSV parsing alone, streamed in 1 MiB chunks, rows counted and dropped: the floor.
import { createReadStream } from 'node:fs';
import { initParser, inferSchema, type Parser } from 'udsv';
import { CHUNK_BYTES, fileBytes, peerArgs, report, startTimer } from './common.ts';

const { file } = peerArgs();
const started = startTimer();

let parser: Parser | null = null;
let rows = 0;
const onRow = (): void => {
  rows++;
};
// Node's StringDecoder (encoding: 'utf8') keeps characters split across chunks whole.
for await (const chunk of createReadStream(file, {
  highWaterMark: CHUNK_BYTES,
  encoding: 'utf8',
})) {
  const text = chunk as string;
  parser ??= initParser(inferSchema(text, { col: ',', row: '\n', encl: '"' }));
  parser.chunk<string[]>(text, parser.stringArrs, onRow);
}
parser?.end();

const ms = performance.now() - started;
report({
  tool: 'uDSV (parse only)',
  input: 'csv',
  file,
  bytes: fileBytes(file),
  rows,
  errors: 0,
  errorPairs: null,
  ms,
});
