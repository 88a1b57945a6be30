import { createInterface } from 'node:readline';
import { PassThrough, type Readable } from 'node:stream';
import {
  CSV_PLAN_SAMPLE_BYTES,
  detectFileType,
  fileNameKind,
  newCsvScanState,
  planCsvSplit,
  scanCsvBytes,
  sniffContainer,
  type ChunkOutcome,
  type CsvChunk,
  type CsvSplitPlan,
  type PlannedChunk,
  type SeenEntries,
} from '@schemacheck/engine';
import { and, asc, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.ts';
import { validationJobParts, validationJobs } from '../db/schema.ts';
import { listsForSchema, type ValidationLists } from '../lists/store.ts';
import { displayFileName } from '../validation/files.ts';
import type { ValidationJob } from '../validation/pool.ts';
import { isContainerName, ValidationAborted } from '../validation/service.ts';
import { executorOf } from './queue.ts';
import { failJob, MAX_ATTEMPTS, VALIDATION_QUEUE, type JobRow } from './validation-jobs.ts';

// One big CSV file validated by several machines (docs/decisions/239). A job whose upload is
// larger than JOB_SPLIT_BYTES is planned by the attempt that claims it: the engine's boundary
// scan reads the stored object once and cuts it into chunks at record boundaries (1-8 MiB), and
// the chunks are grouped into parts, one validation_job_parts row and one pg-boss job each
// (queue `validation-part`), inserted with the job's split columns in one transaction. Any
// worker runs a part: it reads its chunks with ranged reads, validates each with the engine's
// chunk validator in a worker thread, and stores the outcomes (issues, counts, the `unique` values
// seen) as one object; the part that completes last queues the job again. The job's next
// attempt merges the outcomes in order with the engine's ChunkMerger (chunks whose values were
// seen earlier are validated again, seeded; a chunk the scan misread ends the parallel part and
// the rest is validated in one piece), writing the report and row outputs as a job read in one
// piece writes them, through validation/service.ts. A part's attempt number is its lease and its
// heartbeat is watched as a job's is, so a part whose worker died is run again, alone.
// JSON, NDJSON, workbooks, gzip and zip uploads are never split.

export const PART_QUEUE = 'validation-part';
const MIB = 1024 * 1024;

/** Storage key of a part's outcomes, beside the job's upload (account deletion removes it). */
export function outcomeKeyFor(userId: string, jobId: string, part: number): string {
  return `${userId}/uploads/${jobId}.part-${part}`;
}

/** Chunks of about a quarter of a part, 1-8 MiB: a chunk validated again costs little. */
function chunkBytesFor(size: number, parts: number): number {
  return Math.min(8 * MIB, Math.max(MIB, Math.ceil(size / (parts * 4))));
}

async function readAll(stream: Readable | null): Promise<Buffer | null> {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The upload's first bytes, its split plan and header line; null when it cannot be split. */
async function csvPlanOf(
  app: FastifyInstance,
  uploadKey: string,
  size: number,
): Promise<{ plan: CsvSplitPlan; header: Uint8Array; sample: Uint8Array } | null> {
  const sample = await readAll(
    await app.storage.getRange(uploadKey, 0, Math.min(size, CSV_PLAN_SAMPLE_BYTES)),
  );
  if (!sample) return null;
  const decision = planCsvSplit(sample);
  if (!decision.ok) return null;
  return { plan: decision.plan, header: sample.subarray(0, decision.plan.headerEnd), sample };
}

/**
 * Splits the job when its upload is a CSV file above the threshold: true once its parts are
 * queued (the attempt ends there), false when it is validated in one piece.
 */
export async function splitJob(
  app: FastifyInstance,
  job: JobRow,
  held: SQL | undefined,
): Promise<boolean> {
  const threshold = app.config.jobSplitBytes;
  const size = job.fileSize;
  if (threshold === null || size <= threshold || !job.uploadKey) return false;
  const fileName = displayFileName(job.fileName);
  if (isContainerName(fileName) || fileNameKind(fileName) === 'other') return false;
  const csv = await csvPlanOf(app, job.uploadKey, size);
  if (!csv || sniffContainer(csv.sample) !== 'none') return false;
  // The file type as the run decides it: the schema's, the name's, or the first bytes'.
  const check = await app.validationPool.check(job.schemaText ?? JSON.stringify(job.schemaUsed));
  if (!check.ok) return false; // the run in one piece reports the schema's problems
  const detected = detectFileType(fileName, csv.sample, check.fileType);
  if (detected?.fileType !== 'csv' || detected.jsonShape) return false;

  const count = Math.ceil(size / threshold);
  const chunks = await cutUpload(app, job.uploadKey, size, chunkBytesFor(size, count));
  if (!chunks) return false;
  const parts: PlannedChunk[][] = [];
  for (const c of chunks) {
    const p = Math.min(count - 1, Math.floor((c.start * count) / size));
    (parts[p] ??= []).push(c);
  }
  const groups = parts.filter((g) => g !== undefined);
  if (groups.length < 2) return false;

  const boss = await app.jobQueue.boss();
  const now = app.now();
  const planned = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(validationJobs)
      .set({ splitParts: groups.length, partsDone: 0, splitAt: now, heartbeatAt: now })
      .where(held)
      .returning({ id: validationJobs.id });
    if (!row) return false;
    await tx.insert(validationJobParts).values(
      groups.map((g, part) => ({
        jobId: job.id,
        part,
        chunks: g,
        startByte: g[0]!.start,
        endByte: g.at(-1)!.end,
      })),
    );
    for (let part = 0; part < groups.length; part++) {
      const id = await boss.send(PART_QUEUE, { jobId: job.id, part }, { db: executorOf(tx) });
      if (!id) throw new Error('pg-boss did not accept the part');
    }
    return true;
  });
  if (planned) {
    app.log.info(
      { jobId: job.id, parts: groups.length, chunks: chunks.length, bytes: size },
      'Validation job split',
    );
  }
  return true;
}

/**
 * The engine's boundary scan over the stored upload, read once from its start: chunks that end
 * just after a line feed outside quotes, each about `chunkBytes` long; null when the object is
 * not the size the job says.
 */
async function cutUpload(
  app: FastifyInstance,
  key: string,
  size: number,
  chunkBytes: number,
): Promise<PlannedChunk[] | null> {
  const source = await app.storage.getRange(key, 0, size);
  if (!source) return null;
  const state = newCsvScanState();
  const chunks: PlannedChunk[] = [];
  let start = 0;
  let breaksBefore = 0;
  let at = 0;
  for await (const piece of source) {
    const bytes = piece as Buffer;
    const cut = scanCsvBytes(bytes, state);
    at += bytes.length;
    if (cut.at >= 0 && at - bytes.length + cut.at - start >= chunkBytes && at < size) {
      const end = at - bytes.length + cut.at;
      chunks.push({
        index: chunks.length,
        start,
        end,
        lineBreaksBefore: breaksBefore,
        predictedEndRow: cut.lineBreaks,
        last: false,
      });
      start = end;
      breaksBefore = cut.lineBreaks;
    }
  }
  if (at !== size) return null;
  chunks.push({
    index: chunks.length,
    start,
    end: size,
    lineBreaksBefore: breaksBefore,
    predictedEndRow: state.lineBreaks,
    last: true,
  });
  return chunks;
}

/** What a part needs of its job to validate chunks. */
interface ChunkContext {
  app: FastifyInstance;
  uploadKey: string;
  schemaText: string;
  lists: ValidationLists;
  plan: CsvSplitPlan;
  header: Uint8Array;
  now: string;
  signal: AbortSignal;
}

async function contextOf(
  app: FastifyInstance,
  job: JobRow,
  signal: AbortSignal,
): Promise<ChunkContext | null> {
  if (!job.uploadKey || !job.splitAt) return null;
  const csv = await csvPlanOf(app, job.uploadKey, job.fileSize);
  if (!csv) return null;
  const schemaText = job.schemaText ?? JSON.stringify(job.schemaUsed);
  return {
    app,
    uploadKey: job.uploadKey,
    schemaText,
    lists: await listsForSchema(app.db, job.userId, schemaText),
    plan: csv.plan,
    header: csv.header,
    now: job.splitAt.toISOString(),
    signal,
  };
}

/** Streams the upload's bytes [start, end) into `push`. */
async function pushRange(
  ctx: ChunkContext,
  start: number,
  end: number,
  push: (bytes: Uint8Array) => Promise<void>,
): Promise<void> {
  const stream = await ctx.app.storage.getRange(ctx.uploadKey, start, end);
  if (!stream) throw new Error('The uploaded file is no longer in storage');
  try {
    for await (const piece of stream) {
      if (ctx.signal.aborted) throw new ValidationAborted('The part was aborted');
      await push(piece as Buffer);
    }
  } finally {
    stream.destroy();
  }
}

/**
 * A worker job with the schema and lists opened once, for chunk after chunk (`close` it). The
 * account's reference lists go to the worker once, not once per chunk.
 */
type ChunkRunner = Awaited<ReturnType<typeof chunkRunner>>;

async function chunkRunner(ctx: ChunkContext) {
  const job = ctx.app.validationPool.job();
  try {
    const opened = await job.open(ctx.schemaText, ctx.lists);
    if (!opened.ok) throw new Error('The schema no longer opens');
  } catch (err) {
    job.close();
    throw err;
  }
  return {
    /** One chunk, from `chunk.start` to `end`, validated in the worker thread. */
    async validate(chunk: CsvChunk, end: number): Promise<ChunkOutcome> {
      job.beginChunk(ctx.plan, ctx.header, chunk, ctx.now);
      await pushRange(ctx, chunk.start, end, (bytes) => job.push(bytes));
      return job.endChunk();
    },
    close: () => job.close(),
  };
}

// A part's outcomes as stored: one JSON line per chunk, the seen values' typed arrays as base64.

interface StoredOutcome extends Omit<ChunkOutcome, 'seen'> {
  planned: PlannedChunk;
  seen: { h1: string; h2: string; rows: string }[];
}

const b64 = (a: Int32Array | Uint32Array) =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');

function typed<T>(text: string, make: (buffer: ArrayBuffer) => T): T {
  const bytes = Buffer.from(text, 'base64');
  // A fresh, aligned buffer (a Buffer may sit at any offset of Node's pool).
  return make(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

function encodeOutcome(planned: PlannedChunk, outcome: ChunkOutcome): string {
  const stored: StoredOutcome = {
    ...outcome,
    planned,
    seen: outcome.seen.map((t) => ({ h1: b64(t.h1), h2: b64(t.h2), rows: b64(t.rows) })),
  };
  return `${JSON.stringify(stored)}\n`;
}

function decodeOutcome(line: string): { planned: PlannedChunk; outcome: ChunkOutcome } {
  const { planned, seen, ...rest } = JSON.parse(line) as StoredOutcome;
  const tables: SeenEntries[] = seen.map((t) => ({
    h1: typed(t.h1, (b) => new Int32Array(b)),
    h2: typed(t.h2, (b) => new Int32Array(b)),
    rows: typed(t.rows, (b) => new Uint32Array(b)),
  }));
  return { planned, outcome: { ...rest, seen: tables } };
}

/** Where this attempt still holds the part. */
const partHeld = (jobId: string, part: number, attempt: number) =>
  and(
    eq(validationJobParts.jobId, jobId),
    eq(validationJobParts.part, part),
    eq(validationJobParts.status, 'running'),
    eq(validationJobParts.attempts, attempt),
  );

const GAVE_UP = 'The validation could not be completed. Please try again.';

/**
 * The pg-boss handler of one part: validates its chunks and stores their outcomes; the part that
 * completes last queues the job's merge. A part whose attempts run out fails the whole job (a
 * reason of ours: the month's validation is given back).
 */
export async function runPart(app: FastifyInstance, jobId: string, part: number): Promise<void> {
  const [claimed] = await app.db
    .update(validationJobParts)
    .set({
      status: 'running',
      attempts: sql`${validationJobParts.attempts} + 1`,
      heartbeatAt: app.now(),
    })
    .where(
      and(
        eq(validationJobParts.jobId, jobId),
        eq(validationJobParts.part, part),
        eq(validationJobParts.status, 'queued'),
      ),
    )
    .returning();
  if (!claimed) return; // done, running elsewhere, or gone with its job
  const attempt = claimed.attempts;
  const [job] = await app.db.select().from(validationJobs).where(eq(validationJobs.id, jobId));
  if (!job || job.status !== 'running' || job.splitParts === null) return;
  // The job's attempt that split it still holds it while its parts run.
  const failWhole = (message: string) => failJob(app, job, job.attempts, message, true);
  if (attempt > MAX_ATTEMPTS) {
    await failWhole(GAVE_UP);
    return;
  }
  const control = new AbortController();
  const beat = async () => {
    const [still] = await app.db
      .update(validationJobParts)
      .set({ heartbeatAt: app.now() })
      .where(partHeld(jobId, part, attempt))
      .returning({ part: validationJobParts.part });
    if (!still) control.abort(new ValidationAborted('The part was taken over'));
  };
  const timer = setInterval(
    () => void beat().catch((err: unknown) => app.log.warn({ err }, 'Part heartbeat failed')),
    app.config.validationJobs.heartbeatMs,
  );
  timer.unref();
  abortOnStop(app, control);
  app.log.info({ jobId, part, attempt }, 'Validation part started');
  try {
    const ctx = await contextOf(app, job, control.signal);
    if (!ctx) {
      await failWhole('The uploaded file is no longer available.');
      return;
    }
    const out = new PassThrough();
    out.on('error', () => {});
    const key = outcomeKeyFor(job.userId, jobId, part);
    const stored = app.storage.put(key, out);
    stored.catch(() => {});
    const runner = await chunkRunner(ctx);
    try {
      for (const planned of claimed.chunks as PlannedChunk[]) {
        const outcome = await runner.validate(
          {
            index: planned.index,
            start: planned.start,
            lineBreaksBefore: planned.lineBreaksBefore,
          },
          planned.end,
        );
        if (!out.write(encodeOutcome(planned, outcome))) {
          await new Promise((resolve) => out.once('drain', resolve));
        }
      }
      out.end();
      await stored;
    } catch (err) {
      out.destroy(err as Error);
      await stored.catch(() => {});
      throw err;
    } finally {
      runner.close();
    }
    const queued = await app.db.transaction(async (tx) => {
      const [mine] = await tx
        .update(validationJobParts)
        .set({ status: 'completed', heartbeatAt: null })
        .where(partHeld(jobId, part, attempt))
        .returning({ part: validationJobParts.part });
      if (!mine) return null;
      // Row-locked: of parts completing at once, exactly one sees the last count.
      const [parent] = await tx
        .update(validationJobs)
        .set({
          partsDone: sql`${validationJobs.partsDone} + 1`,
          bytesProcessed: sql`${validationJobs.bytesProcessed} + ${claimed.endByte - claimed.startByte}`,
          status: sql`case when ${validationJobs.partsDone} + 1 >= ${validationJobs.splitParts} then 'queued' else ${validationJobs.status} end`,
          heartbeatAt: sql`case when ${validationJobs.partsDone} + 1 >= ${validationJobs.splitParts} then null else ${validationJobs.heartbeatAt} end`,
        })
        .where(and(eq(validationJobs.id, jobId), eq(validationJobs.status, 'running')))
        .returning({ status: validationJobs.status });
      if (parent?.status !== 'queued') return false;
      const boss = await app.jobQueue.boss();
      const id = await boss.send(VALIDATION_QUEUE, { jobId }, { db: executorOf(tx) });
      if (!id) throw new Error('pg-boss did not accept the merge');
      return true;
    });
    app.log.info({ jobId, part, attempt, merge: queued === true }, 'Validation part completed');
  } catch (err) {
    if (err instanceof ValidationAborted || control.signal.aborted) {
      await handBack(app, jobId, part, attempt);
      if (String(control.signal.reason?.message).includes('stopping')) throw err;
      return;
    }
    app.log.error({ err, jobId, part, attempt }, 'Validation part attempt failed');
    if (attempt >= MAX_ATTEMPTS) {
      await failWhole(GAVE_UP);
      return;
    }
    await handBack(app, jobId, part, attempt);
    throw err; // pg-boss retries after its delay
  } finally {
    clearInterval(timer);
    stopping.get(app)?.delete(control);
  }
}

async function handBack(app: FastifyInstance, jobId: string, part: number, attempt: number) {
  await app.db
    .update(validationJobParts)
    .set({ status: 'queued', heartbeatAt: null })
    .where(partHeld(jobId, part, attempt));
}

/** Running parts of this process, so that a shutdown hands them back at once. */
const stopping = new WeakMap<FastifyInstance, Set<AbortController>>();

function abortOnStop(app: FastifyInstance, control: AbortController) {
  let s = stopping.get(app);
  if (!s) stopping.set(app, (s = new Set()));
  s.add(control);
}

export function abortRunningParts(app: FastifyInstance): void {
  for (const c of stopping.get(app) ?? [])
    c.abort(new ValidationAborted('The process is stopping'));
}

/**
 * The merge, as validation/service.ts's `merge`: every part's outcomes in chunk order into the
 * worker's ChunkMerger, chunks validated again where the merger asks, and each merged chunk's
 * bytes after its issues, for the row outputs (a job always writes them). Returns the file's size.
 */
export function mergeParts(
  app: FastifyInstance,
  job: JobRow,
  signal: AbortSignal,
): (merger: ValidationJob) => Promise<number> {
  return async (merger) => {
    const ctx = await contextOf(app, job, signal);
    if (!ctx) throw new Error('The uploaded file is no longer in storage');
    const parts = await app.db
      .select()
      .from(validationJobParts)
      .where(eq(validationJobParts.jobId, job.id))
      .orderBy(asc(validationJobParts.part));
    if (parts.length !== job.splitParts || parts.some((p) => p.status !== 'completed')) {
      throw new Error('A part of the split job is not complete');
    }
    const rows = (start: number, end: number) =>
      pushRange(ctx, start, end, (bytes) => merger.push(bytes));
    // Opened when a chunk must be validated again (repeated `unique` values, a misread chunk).
    let runner: ChunkRunner | null = null;
    const again = async (chunk: CsvChunk, end: number) => {
      runner ??= await chunkRunner(ctx);
      return runner.validate(chunk, end);
    };
    let seeded = 0;
    const merged = (restFrom?: number) => {
      app.log.info({ jobId: job.id, seeded, restFrom }, 'Validation parts merged');
      return job.fileSize;
    };
    try {
      for (const p of parts) {
        const restFrom = await mergePart(p.part);
        if (restFrom !== null) return merged(restFrom);
      }
      return merged();
    } finally {
      // Assigned inside again(), which TypeScript does not follow.
      (runner as ChunkRunner | null)?.close();
    }

    /** One part's outcomes; the offset the rest was read in one piece from, if it was. */
    async function mergePart(part: number): Promise<number | null> {
      const stream = await app.storage.get(outcomeKeyFor(job.userId, job.id, part));
      if (!stream) throw new Error(`The outcome of part ${part} is not in storage`);
      const lines = createInterface({ input: stream, crlfDelay: Infinity });
      try {
        for await (const line of lines) {
          if (signal.aborted) throw new ValidationAborted('The job was aborted');
          const { planned, outcome } = decodeOutcome(line);
          const verdict = await merger.merge(planned, outcome, false);
          if (verdict.kind === 'seed') {
            seeded++;
            await merger.merge(planned, await again(verdict.chunk, planned.end), true);
          } else if (verdict.kind === 'rest') {
            // The scan misread this chunk: the rest of the file in one piece, then nothing more.
            const rest = await again(verdict.chunk, job.fileSize);
            await merger.merge({ ...planned, last: true }, rest, true);
            await rows(planned.start, job.fileSize);
            return planned.start;
          }
          await rows(planned.start, planned.end);
        }
        return null;
      } finally {
        lines.close();
        stream.destroy();
      }
    }
  };
}

/** A split job's part rows, in the transaction that ends the job. */
export async function dropPartRows(tx: Pick<Db, 'delete'>, jobId: string): Promise<void> {
  await tx.delete(validationJobParts).where(eq(validationJobParts.jobId, jobId));
}

/** A split job's stored outcomes, once the job has ended. */
export async function deleteOutcomes(app: FastifyInstance, job: JobRow): Promise<void> {
  for (let part = 0; part < (job.splitParts ?? 0); part++) {
    await app.storage.delete(outcomeKeyFor(job.userId, job.id, part));
  }
}

/** Puts running parts with a stale heartbeat back in their queue (their process died). */
export async function sweepStaleParts(app: FastifyInstance): Promise<number> {
  const cutoff = new Date(app.now().getTime() - app.config.validationJobs.staleMs);
  const stale = await app.db
    .update(validationJobParts)
    .set({ status: 'queued', heartbeatAt: null })
    .where(
      and(eq(validationJobParts.status, 'running'), lt(validationJobParts.heartbeatAt, cutoff)),
    )
    .returning({ jobId: validationJobParts.jobId, part: validationJobParts.part });
  if (stale.length === 0) return 0;
  const boss = await app.jobQueue.boss();
  for (const s of stale) await boss.send(PART_QUEUE, s);
  app.log.warn({ parts: stale }, 'Took over job parts whose process stopped');
  return stale.length;
}
