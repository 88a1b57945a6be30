import { MessageChannel, Worker, type ResourceLimits } from 'node:worker_threads';
import type {
  ChunkOutcome,
  ChunkVerdict,
  CsvChunk,
  CsvSplitPlan,
  PlannedChunk,
  SchemaProblem,
  ValidationResult,
} from '@schemacheck/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { BeginOptions, FileInputInfo, FileOptions, FromWorker, ToWorker } from './protocol.ts';
import type { ValidationLists } from '../lists/store.ts';
import type { FileType } from '@schemacheck/engine';

// A small pool of worker threads that run the engine (docs/decisions/030). Each job lives on
// one worker; a worker runs several jobs, interleaved chunk by chunk, so a slow upload never
// holds a worker for itself. Chunks are copied once into a fresh ArrayBuffer and transferred.
// Flow control: at most MAX_IN_FLIGHT chunks of a job wait in its worker; push() resolves when
// the worker has room, so reading the upload pauses while the engine is behind.
// Isolation (docs/decisions/061): each worker has its own heap limit (resourceLimits), so a
// worker that runs out of memory dies alone; its jobs fail with WorkerCrashed (answered 503,
// never charged), it is replaced, and the server goes on. Fairness rests on every message being
// short: the engine bounds the work one chunk can cause (record limits, docs/decisions/062) and
// a job has at most MAX_IN_FLIGHT chunks queued, so a small job on a busy worker waits for at most
// that many chunks of each other job.
// Two workers for one job (docs/decisions/259): when a job wants the valid and invalid rows and
// another worker is idle, that worker writes them, fed by the validating worker over a channel of
// their own, so that validating and splitting run at once; flow control then waits for both.

const MAX_IN_FLIGHT = 8;
const BOOT = new URL('./worker-boot.mjs', import.meta.url);
const ENTRY = new URL('./worker.ts', import.meta.url).href;

/** Report text, or with `stream` a piece of the valid or invalid rows output (UTF-8 bytes). */
export type ReportListener = (data: string | Uint8Array, stream?: 'valid' | 'invalid') => void;

export type OpenResult =
  { ok: true; fileType?: FileType } | { ok: false; problems: SchemaProblem[] };

interface Slot {
  worker: Worker;
  jobs: Map<number, ValidationJob>;
  ready: boolean;
}

/** A validation stopped for a reason of ours (not the file's, not the client's). */
export class ValidationInterrupted extends Error {
  override name = 'ValidationInterrupted';
}

/** The engine would not read the file (a bomb, an .xls, several entries): the client's fault. */
export class InputRefused extends Error {
  override name = 'InputRefused';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The worker running the job died (out of memory, crash, shutdown). */
export class WorkerCrashed extends ValidationInterrupted {
  override name = 'WorkerCrashed';
  constructor(
    message: string,
    /** True when the worker passed its heap limit. */
    readonly outOfMemory = false,
  ) {
    super(message);
  }
}

export interface PoolOptions {
  /** Heap limit of each worker (old generation), in MB. */
  maxHeapMb?: number;
}

/** Enough for many interleaved jobs, each holding at most one record of the engine's limits. */
export const DEFAULT_WORKER_HEAP_MB = 1024;

export class ValidationJob {
  private inFlight = 0;
  /** The worker writing this job's row outputs, when not its own (begin()). */
  private rowsSlot: Slot | null = null;
  private rowsInFlight = 0;
  /** The result, held until the row outputs' worker has sent everything. */
  private held: { result: ValidationResult } | null = null;
  private rowsDone = false;
  private waiter: (() => void) | null = null;
  private opened: ((r: OpenResult) => void) | null = null;
  private finished: {
    resolve: (r: ValidationResult, input?: FileInputInfo) => void;
    reject: (e: Error) => void;
  } | null = null;
  /** The awaited answer of a split job's chunk or merge step (chunkDone, verdict). */
  private answer: { resolve: (m: FromWorker) => void; reject: (e: Error) => void } | null = null;
  private onReport: ReportListener | null = null;
  private failure: Error | null = null;
  private closed = false;
  /** Data rows the worker has read so far. */
  rows = 0;
  /** True once the row limit was passed. */
  stopped = false;

  constructor(
    private readonly pool: ValidationPool,
    private readonly slot: Slot,
    readonly id: number,
  ) {}

  private send(m: ToWorker, transfer?: ArrayBuffer[]): void {
    this.slot.worker.postMessage(m, transfer);
  }

  /** Checks the schema in the worker and keeps it, with the lists it names, for begin(). */
  open(schemaText: string, lists?: ValidationLists): Promise<OpenResult> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.opened = resolve;
      this.finished = { resolve: () => {}, reject };
      this.send({
        type: 'open',
        job: this.id,
        schemaText,
        ...(lists ? { lists: lists.values, withheld: lists.withheld } : {}),
      });
    });
  }

  begin(options: BeginOptions, onReport?: ReportListener): void {
    this.onReport = onReport ?? null;
    const rowsSlot = options.rows ? this.pool.idleSlot(this.slot) : null;
    if (!rowsSlot) {
      this.send({ type: 'begin', job: this.id, options });
      return;
    }
    this.rowsSlot = rowsSlot;
    rowsSlot.jobs.set(this.id, this);
    const { port1, port2 } = new MessageChannel();
    rowsSlot.worker.postMessage(
      { type: 'beginRows', job: this.id, options, port: port2 } satisfies ToWorker,
      [port2],
    );
    this.slot.worker.postMessage(
      {
        type: 'begin',
        job: this.id,
        options: { ...options, rows: false },
        rowsPort: port1,
      } satisfies ToWorker,
      [port1],
    );
  }

  /** True when another worker writes this job's row outputs. */
  get rowsElsewhere(): boolean {
    return this.rowsSlot !== null;
  }

  /** Sends a chunk; resolves once the worker has room for more. */
  async push(chunk: Uint8Array): Promise<void> {
    if (this.failure) throw this.failure;
    const copy = new Uint8Array(chunk.byteLength);
    copy.set(chunk);
    this.inFlight++;
    if (this.rowsSlot) this.rowsInFlight++;
    this.send({ type: 'chunk', job: this.id, data: copy.buffer }, [copy.buffer]);
    while (
      (this.inFlight >= MAX_IN_FLIGHT || this.rowsInFlight >= MAX_IN_FLIGHT) &&
      !this.failure
    ) {
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
    if (this.failure) throw this.failure;
  }

  /** The result once the worker has read everything sent. */
  end(): Promise<ValidationResult> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.finished = { resolve, reject };
      this.send({ type: 'end', job: this.id });
    });
  }

  /**
   * A chunk of a split job's CSV (docs/decisions/239): push() its bytes, then endChunk(); the
   * job stays open for the next chunk.
   */
  beginChunk(plan: CsvSplitPlan, header: Uint8Array, chunk: CsvChunk, now: string): void {
    // A copy of its own to transfer (a Buffer's slice() shares its memory).
    const copy = new Uint8Array(header.byteLength);
    copy.set(header);
    this.send({ type: 'beginChunk', job: this.id, plan, header: copy.buffer, chunk, now }, [
      copy.buffer,
    ]);
  }

  /** The chunk's outcome once the worker has read everything sent. */
  async endChunk(): Promise<ChunkOutcome> {
    const m = await this.ask({ type: 'endChunk', job: this.id });
    if (m.type !== 'chunkDone') throw new Error(`unexpected answer ${m.type}`);
    return m.outcome;
  }

  /**
   * The merge of a split job's outcomes (docs/decisions/239): the report and row outputs as
   * begin() writes them; then merge() each outcome in order, push() each merged chunk's bytes
   * when the row outputs are wanted, and end().
   */
  beginMerge(options: BeginOptions, onReport?: ReportListener): void {
    this.onReport = onReport ?? null;
    this.send({ type: 'beginMerge', job: this.id, options });
  }

  async merge(
    planned: PlannedChunk,
    outcome: ChunkOutcome,
    seeded: boolean,
  ): Promise<ChunkVerdict> {
    const m = await this.ask({ type: 'merge', job: this.id, planned, outcome, seeded });
    if (m.type !== 'verdict') throw new Error(`unexpected answer ${m.type}`);
    return m.verdict;
  }

  private ask(message: ToWorker): Promise<FromWorker> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.answer = { resolve, reject };
      this.send(message);
    });
  }

  /**
   * Validates a spooled container file in the worker (after open()); resolves with the result
   * and what was read inside, or rejects with InputRefused.
   */
  runFile(
    options: FileOptions,
    onReport?: ReportListener,
  ): Promise<{ result: ValidationResult; input: FileInputInfo }> {
    this.onReport = onReport ?? null;
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.finished = {
        resolve: (result, input) => resolve({ result, input: input ?? { fileType: 'csv' } }),
        reject,
      };
      this.send({ type: 'file', job: this.id, options });
    });
  }

  /** Drops the job (abort, refusal); safe to call more than once. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.pool.release(this);
    for (const slot of [this.slot, this.rowsSlot]) {
      if (!slot?.jobs.has(this.id)) continue;
      slot.jobs.delete(this.id);
      try {
        slot.worker.postMessage({ type: 'close', job: this.id } satisfies ToWorker);
      } catch {
        // the worker is gone
      }
    }
    this.fail(new Error('Validation job closed'));
  }

  /** @internal `from`: the worker that sent it. */
  handle(m: FromWorker, from: Slot): void {
    switch (m.type) {
      case 'opened':
        this.opened?.(
          m.ok ? { ok: true, fileType: m.fileType } : { ok: false, problems: m.problems ?? [] },
        );
        this.opened = null;
        return;
      case 'ack':
        this.inFlight--;
        this.rows = m.rows;
        this.stopped = m.stopped;
        this.wake();
        return;
      case 'rowsAck':
        this.rowsInFlight--;
        this.wake();
        return;
      case 'rowsDone':
        this.rowsSlot?.jobs.delete(this.id);
        this.rowsDone = true;
        if (this.held) this.finish(this.held.result);
        return;
      case 'report':
        this.onReport?.(m.text);
        return;
      case 'rows':
        this.onReport?.(m.bytes, m.stream);
        return;
      case 'chunkDone':
        this.answer?.resolve(m);
        this.answer = null;
        return;
      case 'verdict':
        this.answer?.resolve(m);
        this.answer = null;
        return;
      case 'done':
        this.slot.jobs.delete(this.id);
        if (this.rowsSlot && !this.rowsDone) this.held = { result: m.result };
        else this.finish(m.result, m.input);
        return;
      case 'refused':
        from.jobs.delete(this.id);
        this.fail(new InputRefused(m.code, m.message));
        return;
      case 'failed':
        from.jobs.delete(this.id);
        this.fail(new ValidationInterrupted(`Validation failed in the worker: ${m.message}`));
        return;
    }
  }

  private finish(result: ValidationResult, input?: FileInputInfo): void {
    this.held = null;
    this.finished?.resolve(result, input);
    this.finished = null;
  }

  /** @internal */
  fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    this.finished?.reject(err);
    this.finished = null;
    this.answer?.reject(err);
    this.answer = null;
    this.opened = null;
    this.wake();
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = null;
    w?.();
  }
}

export class ValidationPool {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private closing = false;
  /** Jobs open right now (tests wait for 0 after an abort). */
  active = 0;

  /** Workers replaced after they died (tests, logs). */
  replaced = 0;
  private readonly resourceLimits: ResourceLimits;

  constructor(
    readonly size: number,
    private readonly log: FastifyBaseLogger,
    options: PoolOptions = {},
  ) {
    this.resourceLimits = {
      maxOldGenerationSizeMb: options.maxHeapMb ?? DEFAULT_WORKER_HEAP_MB,
      // Young generation in proportion: one larger than the old generation makes V8 abort the
      // whole process instead of stopping the worker.
      maxYoungGenerationSizeMb: Math.max(
        2,
        Math.min(32, Math.floor((options.maxHeapMb ?? DEFAULT_WORKER_HEAP_MB) / 8)),
      ),
    };
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const worker = new Worker(BOOT, {
      workerData: { entry: ENTRY },
      execArgv: [],
      resourceLimits: this.resourceLimits,
    });
    const slot: Slot = { worker, jobs: new Map(), ready: true };
    worker.on('message', (m: FromWorker) => slot.jobs.get(m.job)?.handle(m, slot));
    const crashed = (err: Error) => {
      if (!slot.ready) return;
      slot.ready = false;
      const outOfMemory = (err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
      const jobs = slot.jobs.size;
      for (const job of slot.jobs.values()) job.fail(new WorkerCrashed(err.message, outOfMemory));
      slot.jobs.clear();
      if (this.closing) return;
      this.log.error({ err, outOfMemory, jobs }, 'Validation worker stopped; starting a new one');
      // A worker that dies still exits: make sure it does, and free its thread.
      void worker.terminate().catch(() => {});
      const i = this.slots.indexOf(slot);
      if (i >= 0) {
        this.slots[i] = this.spawn();
        this.replaced++;
      }
    };
    worker.on('error', crashed);
    worker.on('exit', (code) => crashed(new Error(`Validation worker exited with code ${code}`)));
    worker.unref();
    return slot;
  }

  /** A new job on the least busy worker. Call close() on it when done, whatever happens. */
  job(): ValidationJob {
    if (this.closing) throw new Error('The validation pool is closed');
    const slot = this.slots.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a));
    const job = new ValidationJob(this, slot, this.nextId++);
    slot.jobs.set(job.id, job);
    this.active++;
    return job;
  }

  /** @internal A ready worker other than `busy` with no job at all, if there is one. */
  idleSlot(busy: Slot): Slot | null {
    if (this.closing) return null;
    return this.slots.find((s) => s !== busy && s.ready && s.jobs.size === 0) ?? null;
  }

  /** @internal */
  release(_job: ValidationJob): void {
    this.active--;
  }

  /** Checks a schema in a worker (saved schemas): never blocks the event loop. */
  async check(schemaText: string): Promise<OpenResult> {
    const job = this.job();
    try {
      return await job.open(schemaText);
    } finally {
      job.close();
    }
  }

  /** Terminates every worker, whatever it is doing; their jobs fail with WorkerCrashed. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
