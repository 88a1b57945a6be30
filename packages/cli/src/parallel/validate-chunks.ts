// `validate --jobs N` on one CSV or JSON file (decisions 210, 228, 247): this thread reads the
// file's first bytes (the plan) and scans it for N record boundaries at about equal distances
// (CSV: quote parity on a reused Buffer, Node's memchr; NDJSON: line feeds; a JSON array: the
// commas between its elements); each of N worker threads then reads its own range of the file
// with positional reads and validates it with one long-lived validator, sending its issues back
// block by block. The engine's RangeMerger puts them in file order through the engine's Collector,
// so every issue reaches onIssue in file order and the result is the single-threaded one. A range
// whose `unique` values were seen in an earlier range is validated again, seeded with them; a
// range the boundary scan misread (a stray quote; a broken JSON array) is read on to the end of
// the file by its thread.
import { existsSync, fstatSync, openSync, closeSync, readSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  type ChunkValidateOptions,
  countSeenTables,
  CSV_PLAN_SAMPLE_BYTES,
  type Issue,
  JSON_PLAN_SAMPLE_BYTES,
  planCsvRanges,
  planCsvSplit,
  planJsonRanges,
  planJsonSplit,
  type PlannedChunk,
  RangeMerger,
  type RangeReading,
  type SchemaModel,
  type SeenEntries,
  type ReadAt,
  type TallyEntry,
  startRange,
  type ValidationResult,
} from '@schemacheck/engine';
import { type RangeFormat, rangeReading } from './format.ts';
import type { RangeTask, WorkerReply, WorkerSetup } from './worker.ts';

export interface ParallelOptions extends ChunkValidateOptions {
  path: string;
  fileType: 'csv' | 'json';
  /** JSON: the shape the file's name forces (.ndjson, .jsonl). */
  jsonShape?: 'ndjson' | undefined;
  schema: SchemaModel;
  jobs: number;
  maxErrors: number;
  /** CSV: the delimiter asked for; JSON: given only for the warning that it is ignored. */
  delimiter?: string | undefined;
  onIssue(issue: Issue): void;
  /**
   * Set when the output lists only the first maxErrors issues: each thread then sends its first
   * issues and counts the rest by field and code, which reach onTally instead of onIssue.
   */
  tally?: { onTally(entries: readonly TallyEntry[]): void } | undefined;
  /** Whether onBytes needs the bytes themselves (row outputs), not only how many. */
  wantBytes: boolean;
  /**
   * The file's bytes in order, once their rows' issues have gone to onIssue (row outputs,
   * progress): their count, and the bytes when wantBytes. Returning false stops the validation
   * (nobody reads the output any more).
   */
  onBytes(length: number, bytes: Uint8Array | undefined): Promise<boolean>;
  /** Bytes a thread reads and validates at a time (default 1 MiB). */
  blockBytes?: number | undefined;
}

/** What the parallel run did (SCHEMACHECK_TRACE_CHUNKS prints it). */
export interface ChunkStats {
  ranges: number;
  /** Ranges validated again, seeded with values seen in earlier ranges. */
  rerun: number;
  /** The file offset of the range that was read on to the end (a misread boundary), if any. */
  restFrom?: number;
}

export type ParallelOutcome = { result: ValidationResult; stats: ChunkStats } | { refused: string };

const MIB = 1 << 20;
/** Issues a thread may have sent that are not merged yet, before it waits (memory bound). */
const ISSUES_AHEAD = 100_000;

export async function validateFileInParallel(o: ParallelOptions): Promise<ParallelOutcome> {
  const fd = openSync(o.path, 'r');
  try {
    const size = fstatSync(fd).size;
    const scratch = Buffer.allocUnsafeSlow(MIB);
    const read = (position: number, length: number): Uint8Array => {
      // A Buffer: the boundary scan's indexOf is then Node's memchr, ~20x a plain Uint8Array's.
      const into = length <= scratch.length ? scratch : Buffer.allocUnsafeSlow(length);
      readFully(fd, into, length, position);
      return into.subarray(0, length);
    };
    const sampleBytes = o.fileType === 'csv' ? CSV_PLAN_SAMPLE_BYTES : JSON_PLAN_SAMPLE_BYTES;
    const sample = Uint8Array.prototype.slice.call(
      read(0, Math.min(size, sampleBytes)),
    ) as Uint8Array;
    const planned = planFormat(o, sample);
    if ('refused' in planned) return planned;
    const format = planned.format;
    const options: ChunkValidateOptions = {};
    if (o.maxFieldBytes !== undefined) options.maxFieldBytes = o.maxFieldBytes;
    if (o.now !== undefined) options.now = o.now;
    const tables = countSeenTables(
      o.schema,
      o.lists === undefined ? options : { ...options, lists: o.lists },
    );
    // The threads get the lists as arrays: a structured clone keeps no class, so a ValueSet (what
    // --list reads a file into) would arrive as a bare object.
    if (o.lists !== undefined) {
      const entries: [string, Iterable<string>][] =
        o.lists instanceof Map ? [...o.lists] : Object.entries(o.lists);
      options.lists = Object.fromEntries(
        entries.map(([name, values]) => [name, Array.isArray(values) ? values : [...values]]),
      );
    }
    const blockBytes = o.blockBytes ?? MIB;
    const setup: WorkerSetup = {
      path: o.path,
      size,
      schema: o.schema,
      format,
      options,
      blockBytes,
      issuesAhead: ISSUES_AHEAD,
      tallyAfter: o.tally === undefined ? undefined : o.maxErrors,
    };
    // The first range is validated here (one isolate fewer to start and warm up), the others by
    // jobs - 1 worker threads, which start (load and compile) while this one scans for the
    // ranges' starts.
    const workers = Array.from({ length: o.jobs - 1 }, () => new RangeThread(setup));
    try {
      const ranges =
        format.kind === 'csv'
          ? planCsvRanges(read, size, o.jobs)
          : planJsonRanges(format.plan, read, size, o.jobs);
      const here: RangeHere = {
        reading: rangeReading(
          o.schema,
          format,
          o.lists === undefined ? options : { ...options, lists: o.lists },
        ),
        read,
        blockBytes,
        tallyAfter: setup.tallyAfter,
      };
      return await runRanges(o, fd, size, ranges, tables, workers, here);
    } finally {
      await Promise.all(workers.map((w) => w.worker.terminate()));
    }
  } finally {
    closeSync(fd);
  }
}

/** The file's plan, or why it is validated in one piece. */
function planFormat(
  o: ParallelOptions,
  sample: Uint8Array,
): { format: RangeFormat } | { refused: string } {
  if (o.fileType === 'csv') {
    const decision = planCsvSplit(sample, o.delimiter);
    if (!decision.ok) return { refused: decision.reason };
    const plan = decision.plan;
    return { format: { kind: 'csv', plan, header: sample.slice(0, plan.headerEnd) } };
  }
  const decision = planJsonSplit(sample, o.jsonShape);
  if (!decision.ok) return { refused: decision.reason };
  return { format: { kind: 'json', plan: decision.plan, delimiter: o.delimiter } };
}

/** What this thread needs to validate the first range itself. */
interface RangeHere {
  reading: RangeReading<PlannedChunk>;
  read: ReadAt;
  blockBytes: number;
  tallyAfter: number | undefined;
}

async function runRanges(
  o: ParallelOptions,
  fd: number,
  size: number,
  ranges: PlannedChunk[],
  tables: number,
  workers: RangeThread[],
  here: RangeHere,
): Promise<ParallelOutcome> {
  const stats: ChunkStats = { ranges: ranges.length, rerun: 0 };
  const merger = new RangeMerger<PlannedChunk>(
    ranges,
    tables,
    o.maxErrors,
    o.onIssue,
    o.tally?.onTally,
  );
  let mergedTo = 0;
  let finished = false;
  let failure: Error | undefined;
  let complete!: () => void;
  const completed = new Promise<void>((resolve) => (complete = resolve));
  const stop = (error?: Error) => {
    if (finished) return;
    finished = true;
    failure = error;
    complete();
  };
  // Range i > 0 runs on workers[i - 1].
  const start = (
    range: PlannedChunk,
    pass: number,
    seeds: (SeenEntries | undefined)[] | undefined,
  ) => {
    const task: RangeTask = {
      range,
      pass,
      seeds,
      keepIssues: pass === 0 && merger.mayRerun(range.index) ? ISSUES_AHEAD : undefined,
    };
    workers[range.index - 1]!.run(task);
  };
  // Merges what can be merged, in file order; passes run one after another (onBytes is awaited).
  const drainAll = async () => {
    for (let actions = merger.drain(); actions.length > 0 && !finished; actions = merger.drain()) {
      for (const action of actions) {
        if (action.kind === 'complete') return stop();
        if (action.kind === 'rerun') {
          stats.rerun++;
          start(action.range, 1, action.seeds);
          continue;
        }
        if (action.range > 0) workers[action.range - 1]!.ack(action.issues);
        if (action.to <= mergedTo) continue;
        const length = action.to - mergedTo;
        let bytes: Uint8Array | undefined;
        if (o.wantBytes) {
          bytes = new Uint8Array(length);
          readFully(fd, bytes, length, mergedTo);
        }
        mergedTo = action.to;
        if (!(await o.onBytes(length, bytes))) return stop();
      }
    }
  };
  let chain = Promise.resolve();
  const pump = () =>
    (chain = chain.then(() => (finished ? undefined : drainAll())).catch((e) => stop(e as Error)));
  workers.forEach((thread) => {
    thread.onReply = (reply) => {
      if (reply.kind === 'error') return stop(new Error(reply.error));
      if (reply.kind === 'batch') merger.batch(reply.range, reply.pass, reply.batch);
      else {
        if (reply.done.rest) stats.restFrom = ranges[reply.range]!.start;
        merger.done(reply.range, reply.pass, reply.done);
      }
      void pump();
    };
    thread.onFailure = (error) => stop(error);
  });
  for (const range of ranges) if (range.index > 0) start(range, 0, undefined);
  // The first range, here, a block at a time; its issues are merged (and written) as it goes.
  const first = ranges[0]!;
  const steps = startRange(here.reading, first, size, here.read, {
    blockBytes: here.blockBytes,
    tallyAfter: here.tallyAfter,
    onBatch: (batch) => merger.batch(0, 0, batch),
  });
  for (let more = true; more && !finished;) {
    more = steps.step();
    await pump();
  }
  if (!finished) {
    const done = steps.finish();
    if (done.rest) stats.restFrom = first.start;
    merger.done(0, 0, done);
    await pump();
  }
  await completed;
  if (failure !== undefined) throw failure;
  return { result: merger.result(), stats };
}

/** One worker thread and the counter of its issues merged (it waits when too many are not). */
class RangeThread {
  readonly worker: Worker;
  private readonly acked = new Int32Array(new SharedArrayBuffer(4));
  onReply: (reply: WorkerReply) => void = () => {};
  onFailure: (error: Error) => void = () => {};

  constructor(setup: WorkerSetup) {
    this.worker = new Worker(workerUrl(), { workerData: { ...setup, acked: this.acked } });
    this.worker.on('message', (reply: WorkerReply) => this.onReply(reply));
    this.worker.on('error', (error) => this.onFailure(error));
    this.worker.on('exit', (code) => {
      if (code !== 0) this.onFailure(new Error(`a validation thread stopped (exit code ${code})`));
    });
  }

  run(task: RangeTask): void {
    Atomics.store(this.acked, 0, 0);
    this.worker.postMessage(task);
  }

  ack(issues: number): void {
    if (issues === 0) return;
    Atomics.add(this.acked, 0, issues);
    Atomics.notify(this.acked, 0);
  }
}

function readFully(fd: number, into: Uint8Array, length: number, position: number): void {
  let done = 0;
  while (done < length) {
    const n = readSync(fd, into, done, length - done, position + done);
    if (n === 0) throw new Error('the file got shorter while it was read');
    done += n;
  }
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
