// A validation thread of `validate --jobs N` (parallel/validate-chunks.ts, decisions 228, 247):
// reads its range of the file itself (positional reads into one reused Buffer), validates it with
// one validator (the engine's startRange, for CSV or JSON) and sends its issues back after each
// block. When more than `issuesAhead` of its issues wait to be merged (the ranges before it are
// still running), it waits until the reading thread has merged some (a counter in shared memory),
// so that memory stays bounded whatever the file holds.
import { openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import {
  type ChunkValidateOptions,
  type PlannedChunk,
  type RangeBatch,
  type RangeDone,
  type SchemaModel,
  type SeenEntries,
  startRange,
} from '@schemacheck/engine';
import { type RangeFormat, rangeReading } from './format.ts';

export interface WorkerSetup {
  path: string;
  size: number;
  schema: SchemaModel;
  format: RangeFormat;
  options: ChunkValidateOptions;
  blockBytes: number;
  issuesAhead: number;
  /** RangeRunOptions.tallyAfter: send the first issues, count the rest. */
  tallyAfter: number | undefined;
}

export interface RangeTask {
  range: PlannedChunk;
  /** 0: first run; 1: run again (seeded, or after its issues overflowed). */
  pass: number;
  seeds: (SeenEntries | undefined)[] | undefined;
  /** RangeRunOptions.keepIssues: a first run whose issues may be thrown away does not wait. */
  keepIssues: number | undefined;
}

export type WorkerReply =
  | { kind: 'batch'; range: number; pass: number; batch: RangeBatch }
  | { kind: 'done'; range: number; pass: number; done: RangeDone }
  | { kind: 'error'; error: string };

const setup = workerData as WorkerSetup & { acked: Int32Array };
const port = parentPort!;

// Reference lists: read into Sets once per thread (the validator keeps a Set as it is).
const given = setup.options.lists;
if (given !== undefined) {
  const entries: [string, Iterable<string>][] =
    given instanceof Map ? [...given] : Object.entries(given);
  setup.options.lists = new Map(entries.map(([name, values]) => [name, new Set(values)]));
}

const reading = rangeReading(setup.schema, setup.format, setup.options);
const fd = openSync(setup.path, 'r');
let scratch = Buffer.allocUnsafeSlow(Math.max(setup.blockBytes, reading.firstPushBytes));

function read(position: number, length: number): Uint8Array {
  if (length > scratch.length) scratch = Buffer.allocUnsafeSlow(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, scratch, done, length - done, position + done);
    if (n === 0) throw new Error('the file got shorter while it was read');
    done += n;
  }
  return scratch.subarray(0, length);
}

port.on('message', (task: RangeTask) => {
  try {
    const { range, pass } = task;
    let sent = 0;
    const steps = startRange(reading, task.range, setup.size, read, {
      blockBytes: setup.blockBytes,
      seeds: task.seeds,
      keepIssues: task.keepIssues,
      tallyAfter: setup.tallyAfter,
      batchIssues: setup.issuesAhead / 10,
      onBatch(batch) {
        port.postMessage({
          kind: 'batch',
          range: range.index,
          pass,
          batch,
        } satisfies WorkerReply);
        if (task.keepIssues !== undefined) return;
        sent += batch.issues.length;
        // Wait while too many of this range's issues are not merged yet.
        for (;;) {
          const merged = Atomics.load(setup.acked, 0);
          if (sent - merged <= setup.issuesAhead) break;
          Atomics.wait(setup.acked, 0, merged);
        }
      },
    });
    while (steps.step());
    const done = steps.finish();
    const transfer: ArrayBuffer[] = [];
    for (const t of done.seen) {
      transfer.push(t.h1.buffer as ArrayBuffer, t.h2.buffer as ArrayBuffer);
      transfer.push(t.rows.buffer as ArrayBuffer);
    }
    port.postMessage(
      { kind: 'done', range: range.index, pass, done } satisfies WorkerReply,
      transfer,
    );
  } catch (error) {
    port.postMessage({
      kind: 'error',
      error: (error as Error).stack ?? String(error),
    } satisfies WorkerReply);
  }
});
