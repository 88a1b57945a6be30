// `validate --jobs N` on one CSV file: the file is read once, in blocks, by this thread, which
// cuts it at record boundaries (the engine's boundary scan) and hands the chunks to N worker
// threads running the engine's chunk validator; outcomes are merged in chunk order by the
// engine's ChunkMerger, so every issue reaches onIssue in file order and the result is the one
// the single-threaded validator gives (docs/decisions/210). A chunk with values seen in an
// earlier chunk is validated again, seeded with them; a chunk the boundary scan misread (a stray
// quote) ends the parallel part, and the rest of the file is validated here in one piece.
import { existsSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  type ChunkOutcome,
  ChunkMerger,
  type ChunkValidateOptions,
  createCsvChunkValidator,
  CSV_PLAN_SAMPLE_BYTES,
  type CsvChunk,
  type CsvSplitPlan,
  type Issue,
  newCsvScanState,
  planCsvSplit,
  type PlannedChunk,
  type SchemaModel,
  scanCsvBytes,
  type ValidationResult,
} from '@schemacheck/engine';
import type { ChunkTask, WorkerSetup } from './worker.ts';

export interface ParallelCsvOptions extends ChunkValidateOptions {
  path: string;
  schema: SchemaModel;
  jobs: number;
  maxErrors: number;
  delimiter?: string | undefined;
  onIssue(issue: Issue): void;
  /**
   * A chunk's bytes, in file order, once its issues have gone to onIssue (row outputs, progress).
   * Returning false stops the validation (nobody reads the output any more).
   */
  onBytes(bytes: Uint8Array): Promise<boolean>;
  /** Bytes read (and cut) at a time; default from the file's size and the jobs. */
  chunkBytes?: number | undefined;
}

/** What the parallel run did (SCHEMACHECK_TRACE_CHUNKS prints it). */
export interface ChunkStats {
  chunks: number;
  /** Chunks validated again, seeded with values seen in earlier chunks. */
  seeded: number;
  /** The file offset from which the rest was validated in one piece (a misread chunk), if any. */
  restFrom?: number;
}

export type ParallelOutcome = { result: ValidationResult; stats: ChunkStats } | { refused: string };

const MIB = 1 << 20;

/** The chunk size: several chunks per thread (so a re-validated chunk costs little), 1-8 MiB. */
export function defaultChunkBytes(size: number, jobs: number): number {
  return Math.min(8 * MIB, Math.max(MIB, Math.ceil(size / (jobs * 8))));
}

export async function validateCsvFileInParallel(o: ParallelCsvOptions): Promise<ParallelOutcome> {
  const file = await open(o.path, 'r');
  try {
    const size = (await file.stat()).size;
    const sample = await readAt(file, 0, Math.min(size, CSV_PLAN_SAMPLE_BYTES));
    const decision = planCsvSplit(sample, o.delimiter);
    if (!decision.ok) return { refused: decision.reason };
    const stats: ChunkStats = { chunks: 0, seeded: 0 };
    const result = await runChunks(o, file, size, decision.plan, sample, stats);
    return { result, stats };
  } finally {
    await file.close();
  }
}

async function runChunks(
  o: ParallelCsvOptions,
  file: FileHandle,
  size: number,
  plan: CsvSplitPlan,
  sample: Uint8Array,
  stats: ChunkStats,
): Promise<ValidationResult> {
  const header = sample.slice(0, plan.headerEnd);
  const options: ChunkValidateOptions = {};
  if (o.maxFieldBytes !== undefined) options.maxFieldBytes = o.maxFieldBytes;
  if (o.now !== undefined) options.now = o.now;
  // The threads get the lists as arrays: a structured clone keeps no class, so a ValueSet (what
  // --list reads a file into) would arrive as a bare object.
  if (o.lists !== undefined) {
    const entries: [string, Iterable<string>][] =
      o.lists instanceof Map ? [...o.lists] : Object.entries(o.lists);
    options.lists = Object.fromEntries(
      entries.map(([name, values]) => [name, Array.isArray(values) ? values : [...values]]),
    );
  }
  const pool = new Pool(o.jobs, { schema: o.schema, plan, header, options });
  const merger = new ChunkMerger(o.maxErrors, o.onIssue);
  const chunkBytes = o.chunkBytes ?? defaultChunkBytes(size, o.jobs);
  const inFlight: { planned: PlannedChunk; done: Promise<Done> }[] = [];
  const ahead = o.jobs + 2;
  try {
    let stopped = false;
    const settle = async (): Promise<'next' | 'stop' | 'rest'> => {
      const { planned, done } = inFlight.shift()!;
      let { outcome, bytes } = await done;
      const verdict = merger.accept(planned, outcome);
      stats.chunks++;
      if (verdict.kind === 'rest') {
        stats.restFrom = planned.start;
        await validateRest(o, file, size, plan, header, verdict.chunk, merger, options);
        return 'rest';
      }
      if (verdict.kind === 'seed') {
        stats.seeded++;
        ({ outcome, bytes } = await pool.run(verdict.chunk, bytes));
        merger.accept(planned, outcome, true);
      }
      return (await o.onBytes(bytes)) ? 'next' : 'stop';
    };
    for await (const { planned, bytes } of cutFile(file, size, chunkBytes)) {
      const chunk: CsvChunk = {
        index: planned.index,
        start: planned.start,
        lineBreaksBefore: planned.lineBreaksBefore,
      };
      inFlight.push({ planned, done: pool.run(chunk, bytes) });
      // Outcomes not yet merged are caught here, so a failing one never goes unhandled.
      inFlight.at(-1)!.done.catch(() => {});
      if (inFlight.length >= ahead) {
        const next = await settle();
        if (next !== 'next') {
          stopped = true;
          break;
        }
      }
    }
    while (!stopped && inFlight.length > 0) {
      if ((await settle()) !== 'next') break;
    }
    return merger.result();
  } finally {
    await pool.close();
  }
}

interface Done {
  outcome: ChunkOutcome;
  bytes: Uint8Array;
}

/** The file in chunks that end at record boundaries, as the boundary scan finds them. */
async function* cutFile(
  file: FileHandle,
  size: number,
  chunkBytes: number,
): AsyncGenerator<{ planned: PlannedChunk; bytes: Uint8Array }> {
  const state = newCsvScanState();
  let carry = new Uint8Array(0);
  let start = 0;
  let breaksBefore = 0;
  let index = 0;
  for (let at = 0; at < size;) {
    const n = Math.min(chunkBytes, size - at);
    // A Buffer: the boundary scan's indexOf is then Node's memchr, ~20x a plain Uint8Array's.
    // Never from Node's shared pool, so that its memory can be transferred to a worker.
    const block = Buffer.allocUnsafeSlow(carry.length + n);
    block.set(carry);
    await readInto(file, block, carry.length, n, at);
    at += n;
    const cut = scanCsvBytes(block, state, carry.length);
    if (at >= size) {
      yield {
        planned: {
          index,
          start,
          end: size,
          lineBreaksBefore: breaksBefore,
          predictedEndRow: state.lineBreaks,
          last: true,
        },
        bytes: block,
      };
      return;
    }
    if (cut.at <= 0) {
      carry = block;
      continue;
    }
    carry = Uint8Array.prototype.slice.call(block, cut.at);
    yield {
      planned: {
        index: index++,
        start,
        end: start + cut.at,
        lineBreaksBefore: breaksBefore,
        predictedEndRow: cut.lineBreaks,
        last: false,
      },
      bytes: block.subarray(0, cut.at),
    };
    start += cut.at;
    breaksBefore = cut.lineBreaks;
  }
}

/** The scan misread a chunk: from its start to the end of the file, in one piece, here. */
async function validateRest(
  o: ParallelCsvOptions,
  file: FileHandle,
  size: number,
  plan: CsvSplitPlan,
  header: Uint8Array,
  chunk: CsvChunk,
  merger: ChunkMerger,
  options: ChunkValidateOptions,
): Promise<void> {
  const validator = createCsvChunkValidator(o.schema, plan, header, chunk, options);
  for (let at = chunk.start; at < size; at += MIB) {
    validator.push(await readAt(file, at, Math.min(MIB, size - at)));
  }
  merger.accept(
    {
      index: chunk.index,
      start: chunk.start,
      end: size,
      lineBreaksBefore: 0,
      predictedEndRow: 0,
      last: true,
    },
    validator.finish(),
    true,
  );
  for (let at = chunk.start; at < size; at += MIB) {
    if (!(await o.onBytes(await readAt(file, at, Math.min(MIB, size - at))))) return;
  }
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  await readInto(file, bytes, 0, length, position);
  return bytes;
}

async function readInto(
  file: FileHandle,
  into: Uint8Array,
  offset: number,
  length: number,
  position: number,
): Promise<void> {
  let done = 0;
  while (done < length) {
    const { bytesRead } = await file.read(into, offset + done, length - done, position + done);
    if (bytesRead === 0) throw new Error('the file got shorter while it was read');
    done += bytesRead;
  }
}

/** N worker threads; a task goes to the first idle one. */
class Pool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly queue: { task: ChunkTask; settle: Settle }[] = [];
  private readonly running = new Map<Worker, Settle>();
  private nextId = 0;
  private failure: Error | undefined;

  constructor(jobs: number, setup: WorkerSetup) {
    const url = workerUrl();
    for (let i = 0; i < jobs; i++) {
      const worker = new Worker(url, { workerData: setup });
      worker.on(
        'message',
        (reply: { outcome?: ChunkOutcome; bytes?: Uint8Array; error?: string }) => {
          const settle = this.running.get(worker);
          this.running.delete(worker);
          if (reply.error !== undefined) settle?.reject(new Error(reply.error));
          else settle?.resolve({ outcome: reply.outcome!, bytes: reply.bytes! });
          this.idle.push(worker);
          this.pump();
        },
      );
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => {
        if (code !== 0 && this.running.has(worker))
          this.fail(new Error(`a validation thread stopped (exit code ${code})`));
      });
      this.workers.push(worker);
      this.idle.push(worker);
    }
  }

  run(chunk: CsvChunk, bytes: Uint8Array): Promise<Done> {
    return new Promise<Done>((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.queue.push({ task: { id: this.nextId++, chunk, bytes }, settle: { resolve, reject } });
      this.pump();
    });
  }

  private pump(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.shift()!;
      const { task, settle } = this.queue.shift()!;
      this.running.set(worker, settle);
      worker.postMessage(task, [task.bytes.buffer as ArrayBuffer]);
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const settle of this.running.values()) settle.reject(error);
    this.running.clear();
    for (const { settle } of this.queue.splice(0)) settle.reject(error);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

interface Settle {
  resolve(done: Done): void;
  reject(error: Error): void;
}

/** dist/validate-worker.js beside the built CLI (this code sits in dist/ or dist/chunks/). */
function workerUrl(): URL {
  const candidates = [
    new URL('./validate-worker.js', import.meta.url),
    new URL('../validate-worker.js', import.meta.url),
    new URL('./worker.ts', import.meta.url),
  ];
  const found = candidates.find((url) => existsSync(fileURLToPath(url)));
  if (!found)
    throw new Error('the validation thread (validate-worker.js) is missing; rebuild the CLI');
  return found;
}
