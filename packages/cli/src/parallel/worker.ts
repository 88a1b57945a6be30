// A validation thread of `validate --jobs N` (parallel/validate-chunks.ts): validates the chunks
// it is sent with the engine's chunk validator, one at a time, and sends each outcome back with
// the chunk's bytes (transferred both ways, never copied).
import { parentPort, workerData } from 'node:worker_threads';
import {
  type ChunkValidateOptions,
  type CsvChunk,
  type CsvSplitPlan,
  type SchemaModel,
  validateCsvChunk,
} from '@schemacheck/engine';

export interface WorkerSetup {
  schema: SchemaModel;
  plan: CsvSplitPlan;
  header: Uint8Array;
  options: ChunkValidateOptions;
}

export interface ChunkTask {
  id: number;
  chunk: CsvChunk;
  bytes: Uint8Array;
}

const setup = workerData as WorkerSetup;
const port = parentPort!;

// Reference lists: read into Sets once per thread, not once per chunk (the validator keeps a Set
// as it is); read-only from here on.
const given = setup.options.lists;
if (given !== undefined) {
  const entries: [string, Iterable<string>][] =
    given instanceof Map ? [...given] : Object.entries(given);
  setup.options.lists = new Map(entries.map(([name, values]) => [name, new Set(values)]));
}

port.on('message', (task: ChunkTask) => {
  try {
    const outcome = validateCsvChunk(
      setup.schema,
      setup.plan,
      setup.header,
      task.chunk,
      task.bytes,
      setup.options,
    );
    const transfer: ArrayBuffer[] = [task.bytes.buffer as ArrayBuffer];
    for (const t of outcome.seen) {
      transfer.push(t.h1.buffer as ArrayBuffer, t.h2.buffer as ArrayBuffer);
      transfer.push(t.rows.buffer as ArrayBuffer);
    }
    port.postMessage({ id: task.id, outcome, bytes: task.bytes }, transfer);
  } catch (error) {
    port.postMessage({ id: task.id, error: (error as Error).stack ?? String(error) });
  }
});
