// One file on several threads, a contiguous range of the file per thread (decision 228; JSON:
// decision 247, json-plan.ts and json-chunk.ts): the CSV boundary scan that cuts the file into
// ranges, the loop a thread runs over its range with one long-lived chunk validator of the file's
// format (reading the range itself, block by block), and the merge that puts the ranges' issues
// back in file order. No Node imports: the threads and the file reads are the caller's (the CLI's
// parallel/validate-chunks.ts); validateInRanges runs it all on one thread over bytes in memory,
// for the property tests.
//
// Why ranges, not many small chunks: each thread reads and validates one stretch of the file with
// one validator, so it warms up once and nothing crosses threads but issues and a few numbers.
//
// Correctness, as for chunks (decision 210):
// - A range starts just after an LF that the boundary scan found outside quotes. The thread before
//   checks, when it has read its whole range, that its reader stands exactly at a record boundary
//   on the row the scan predicted; if not (a stray quote misled the scan), it goes on reading to
//   the end of the file with the same validator, and the later ranges are dropped. A range's issues
//   are merged only once every range before it has been verified, so nothing wrong is ever output.
// - `unique` / `uniqueTogether`: a range after the first whose values were seen in an earlier range
//   is validated again seeded with those values (their first rows), as chunks were.
// - Error caps and counts: every issue is replayed in file order through the engine's Collector;
//   with tallyAfter, a range's issues past its first ones arrive as counts, replayed in their
//   place (decision 258).
import type { Issue, SchemaModel, ValidationResult, Warning } from '../model.ts';
import type { TallyEntry } from '../validate/collector.ts';
import { SeenRegistry, type SeenEntries } from '../validate/rules/unique.ts';
import { createValidatorWith } from '../validate/validator.ts';
import { newCsvScanState, scanCsvBytes } from './boundary.ts';
import {
  type ChunkValidateOptions,
  type ChunkValidator,
  createCsvChunkValidator,
} from './chunk.ts';
import { ChunkMerger, type PlannedChunk } from './merge.ts';
import { CSV_PLAN_SAMPLE_BYTES, type CsvSplitPlan, planCsvSplit } from './plan.ts';

/** Reads `length` bytes of the file at `position` (all of them: the file is known to hold them). */
export type ReadAt = (position: number, length: number) => Uint8Array;

/** A range is planned as a split job's chunk is: the same fields, the same merger. */
export type CsvRange = PlannedChunk;

/**
 * Cuts the file into at most `count` ranges of about equal size, each starting just after an LF
 * outside quotes (the boundary scan), scanning the file from its start up to the last cut. A
 * range that would be empty (a quoted cell longer than a range) is joined to the one before.
 */
export function planCsvRanges(
  read: ReadAt,
  size: number,
  count: number,
  blockBytes = 1 << 20,
): CsvRange[] {
  const state = newCsvScanState();
  const starts: { at: number; before: number }[] = [{ at: 0, before: 0 }];
  let pos = 0;
  for (let i = 1; i < count && pos < size; i++) {
    const target = Math.max(pos, Math.floor((size * i) / count));
    while (pos < target) {
      const n = Math.min(blockBytes, target - pos);
      scanCsvBytes(read(pos, n), state);
      pos += n;
    }
    // The first cut at or after the target; the state then stands there.
    let found = -1;
    while (pos < size && found < 0) {
      const n = Math.min(blockBytes, size - pos);
      const cut = scanCsvBytes(read(pos, n), state, 0, true);
      if (cut.at >= 0) {
        found = pos + cut.at;
        pos = found;
      } else pos += n;
    }
    if (found < 0 || found >= size) break;
    starts.push({ at: found, before: state.lineBreaks });
  }
  return rangesBetween(starts, size);
}

/**
 * The ranges from each cut to the next (the last to `size`); `before` is what the reader counts
 * before the cut (CSV: line breaks; JSON: records), which the range before must end on.
 */
export function rangesBetween(
  starts: readonly { at: number; before: number }[],
  size: number,
): CsvRange[] {
  return starts.map((s, i) => {
    const next = starts[i + 1];
    return {
      index: i,
      start: s.at,
      end: next === undefined ? size : next.at,
      lineBreaksBefore: s.before,
      predictedEndRow: next === undefined ? 0 : next.before,
      last: next === undefined,
    };
  });
}

/** Issues found while a range's bytes up to file offset `to` were read. */
export interface RangeBatch {
  issues: Issue[];
  /**
   * With RangeRunOptions.tallyAfter: the issues counted instead of sent, each run of them with
   * the index in `issues` it comes before (issues.length: after the last).
   */
  tallies?: { at: number; entries: TallyEntry[] }[];
  to: number;
}

/** What a range's run ends with (its issues went out in batches). */
export interface RangeDone {
  totalRows: number;
  invalidRows: number;
  warnings: Warning[];
  /** The values its `unique` / `uniqueTogether` checks saw, by table. */
  seen: SeenEntries[];
  /** The scan misread the range's end: it was read on to the end of the file. */
  rest: boolean;
  /** Issues were dropped (more than `keepIssues` waited): the range must be run again. */
  overflow: boolean;
}

export interface RangeRunOptions {
  /** Bytes read and validated at a time. */
  blockBytes: number;
  /** Values seen in earlier ranges (a second run). */
  seeds?: readonly (SeenEntries | undefined)[] | undefined;
  /**
   * A first run whose issues may not be wanted (a later range of a schema with `unique`): past
   * this many issues, further ones are dropped and the outcome says `overflow`. Undefined: keep
   * all (the caller holds them back, e.g. by waiting in onBatch).
   */
  keepIssues?: number | undefined;
  onBatch(batch: RangeBatch): void;
  /**
   * Send a range's first this-many errors and as many warnings; count the rest by field and code
   * (RangeBatch.tallies). At least the merge's maxErrors: the file's first issues are then all
   * sent. For outputs that list only those (a report of every issue needs them all).
   */
  tallyAfter?: number | undefined;
  /**
   * Issues a batch should hold at most: after a block with more, the blocks shrink (to 16 KiB at
   * least), so that a file with an error in every cell does not send huge batches.
   */
  batchIssues?: number | undefined;
}

/** One range's run a block at a time: step() reads and validates one block (false once all are). */
export interface RangeSteps {
  step(): boolean;
  finish(): RangeDone;
}

/** How a file's ranges are read (CSV: chunk.ts, JSON: json-chunk.ts). */
export interface RangeReading<R extends PlannedChunk> {
  /** Bytes the first range's first push must hold at least (CSV: its header line, BOM included). */
  firstPushBytes: number;
  /**
   * JSON: pushes end at file offsets that are multiples of this (the reader's piece size), as a
   * reading from the start of the file in blocks of such a multiple does, so that the reader's
   * pieces end where one thread's do. Applied when the run's blockBytes is such a multiple.
   */
  alignBytes?: number;
  /** A validator for the range, its `unique` tables seeded with values of earlier ranges. */
  open(range: R, seeds: readonly (SeenEntries | undefined)[] | undefined): ChunkValidator;
}

export function csvRangeReading(
  schema: SchemaModel,
  plan: CsvSplitPlan,
  header: Uint8Array,
  validate: ChunkValidateOptions,
): RangeReading<CsvRange> {
  return {
    firstPushBytes: plan.headerEnd,
    open: (range, seeds) =>
      createCsvChunkValidator(
        schema,
        plan,
        header,
        {
          index: range.index,
          start: range.start,
          lineBreaksBefore: range.lineBreaksBefore,
          seeds,
        },
        validate,
      ),
  };
}

/**
 * A range's first block; the next ones double while a block finds at most FEW_ISSUES, up to the
 * run's blockBytes. A first block of a megabyte on a file with an error in every cell held ~170,000
 * issues at once: they outlived young collections, V8 then allocated every later issue in the old
 * generation, and each thread's heap grew to ~80 MB of garbage (`--jobs 2` peaked at ~270 MiB
 * against ~100 MiB for one thread; with 64 KiB blocks from the start, ~150 MiB).
 */
const FIRST_BLOCK_BYTES = 64 << 10;
const FEW_ISSUES = 1000;

/**
 * A range's issues past its first `limit` errors and `limit` warnings, counted by field, code and
 * severity instead of sent: none of them can be among the file's first `limit` of either, and an
 * output that lists only those needs no more (with ten issues a row, cloning every issue to the
 * merging thread cost more CPU and memory than validating). Each run of counted issues keeps its
 * place among the sent ones, so that the merge counts them in file order.
 */
class RangeTally {
  private errors = 0;
  private warnings = 0;

  constructor(private readonly limit: number) {}

  batch(found: Issue[], to: number): RangeBatch {
    const issues: Issue[] = [];
    const tallies: { at: number; entries: TallyEntry[] }[] = [];
    let open: Map<string, TallyEntry> | undefined;
    for (const issue of found) {
      const warning = issue.severity === 'warning';
      if (warning ? this.warnings < this.limit : this.errors < this.limit) {
        if (warning) this.warnings++;
        else this.errors++;
        issues.push(issue);
        open = undefined;
        continue;
      }
      if (open === undefined) {
        open = new Map();
        tallies.push({ at: issues.length, entries: [] });
      }
      const key = `${warning ? 'w' : 'e'}${issue.code}\u0000${issue.field}`;
      const entry = open.get(key);
      if (entry !== undefined) entry[3]++;
      else {
        const added: TallyEntry = [issue.field, issue.code, warning, 1];
        open.set(key, added);
        (tallies.at(-1) as { entries: TallyEntry[] }).entries.push(added);
      }
    }
    return tallies.length === 0 ? { issues, to } : { issues, tallies, to };
  }
}

/**
 * Validates one range with one validator, reading it block by block, and sends its issues out
 * after each block. A range that does not end at the predicted record boundary is read on to the
 * end of the file (`rest`).
 */
export function startRange<R extends PlannedChunk>(
  reading: RangeReading<R>,
  range: R,
  size: number,
  read: ReadAt,
  run: RangeRunOptions,
): RangeSteps {
  const validator = reading.open(range, run.seeds);
  let kept = 0;
  let overflow = false;
  let blockBytes = Math.min(run.blockBytes, FIRST_BLOCK_BYTES);
  const tally = run.tallyAfter === undefined ? undefined : new RangeTally(run.tallyAfter);
  const send = (to: number, read: number, found: Issue[]) => {
    if (run.batchIssues !== undefined && found.length > run.batchIssues) {
      const fit = Math.floor((read * run.batchIssues) / found.length);
      blockBytes = Math.min(blockBytes, Math.max(16 << 10, fit));
    } else if (found.length <= FEW_ISSUES && read >= blockBytes) {
      blockBytes = Math.min(run.blockBytes, blockBytes * 2);
    }
    if (overflow) return;
    const batch: RangeBatch = tally === undefined ? { issues: found, to } : tally.batch(found, to);
    if (run.keepIssues !== undefined && kept + batch.issues.length > run.keepIssues) {
      overflow = true;
      return;
    }
    kept += batch.issues.length;
    run.onBatch(batch);
  };
  let end = range.end;
  let rest = false;
  let pos = range.start;
  const align =
    reading.alignBytes !== undefined && run.blockBytes % reading.alignBytes === 0
      ? reading.alignBytes
      : 0;
  return {
    step() {
      if (pos >= end) return false;
      let want = pos === 0 ? Math.max(blockBytes, reading.firstPushBytes) : blockBytes;
      // Up to the next multiple first (a range starts anywhere), then whole multiples.
      if (align > 0)
        want = pos % align !== 0 ? align - (pos % align) : Math.ceil(want / align) * align;
      const n = Math.min(want, end - pos);
      validator.push(read(pos, n));
      pos += n;
      if (
        pos === end &&
        !range.last &&
        !rest &&
        validator.boundaryRow() !== range.predictedEndRow
      ) {
        rest = true;
        end = size;
      }
      send(pos, n, validator.takeIssues());
      return pos < end;
    },
    finish() {
      const outcome = validator.finish(end === size);
      // Whatever finish() found (the last row of a file without a final line break).
      if (outcome.issues.length > 0) send(end, 0, outcome.issues);
      return {
        totalRows: outcome.totalRows,
        invalidRows: outcome.invalidRows,
        warnings: outcome.warnings,
        seen: outcome.seen,
        rest,
        overflow,
      };
    },
  };
}

/** How many `unique` / `uniqueTogether` tables the schema's checks keep (0: no range is run twice). */
export function countSeenTables(schema: SchemaModel, options: ChunkValidateOptions): number {
  const registry = new SeenRegistry();
  createValidatorWith(schema, { ...options, fileType: 'csv', maxErrors: 0 }, { seen: registry });
  return registry.tables.length;
}

/** What the merge asks of its caller. */
export type RangeAction<R extends PlannedChunk = CsvRange> =
  /** Issues merged up to file offset `to` (progress, rows output); acknowledge `issues` to the range's thread. */
  | { kind: 'merged'; range: number; to: number; issues: number }
  /** Run this range again with these seeds (undefined: none), keeping every issue. */
  | { kind: 'rerun'; range: R; seeds: (SeenEntries | undefined)[] | undefined }
  /** Every range is merged: result() is the file's. */
  | { kind: 'complete' };

interface RangeState<R extends PlannedChunk> {
  range: R;
  /** 0: first run; 1: the second run (seeded or after an overflow). */
  pass: number;
  batches: RangeBatch[];
  done: RangeDone | undefined;
  /** Its values are in the merger's tables (from its first run). */
  seenAdded: boolean;
}

/**
 * Merges the ranges' batches and outcomes, which arrive in any order between ranges (in order
 * within a run), into the whole file's issues and result. Feed it batch() and done(), then take
 * the actions from drain().
 */
export class RangeMerger<R extends PlannedChunk = CsvRange> {
  private readonly merger: ChunkMerger;
  private readonly states: RangeState<R>[];
  private current = 0;
  private completed = false;

  constructor(
    ranges: readonly R[],
    private readonly seenTables: number,
    maxErrors: number | undefined,
    onIssue: ((issue: Issue) => void) | undefined,
    onTally?: (entries: readonly TallyEntry[]) => void,
  ) {
    this.merger = new ChunkMerger(maxErrors, onIssue, onTally);
    this.states = ranges.map((range) => ({
      range,
      pass: 0,
      batches: [],
      done: undefined,
      seenAdded: false,
    }));
  }

  /** Whether a range's first run must keep issues only up to a bound (they may be thrown away). */
  mayRerun(range: number): boolean {
    return this.seenTables > 0 && range > 0;
  }

  batch(range: number, pass: number, batch: RangeBatch): void {
    const state = this.states[range];
    if (state === undefined || state.pass !== pass || range < this.current) return;
    state.batches.push(batch);
  }

  done(range: number, pass: number, done: RangeDone): void {
    const state = this.states[range];
    if (state === undefined || state.pass !== pass || range < this.current) return;
    state.done = done;
  }

  /** Merges what can be merged now, in file order. */
  drain(): RangeAction<R>[] {
    const actions: RangeAction<R>[] = [];
    while (!this.completed) {
      const state = this.states[this.current];
      if (state === undefined) {
        this.completed = true;
        actions.push({ kind: 'complete' });
        break;
      }
      if (state.pass === 0 && this.mayRerun(this.current)) {
        // Its issues stand only if none of its values was seen in an earlier range.
        if (state.done === undefined) break;
        const seeds = this.merger.addSeen(state.done.seen);
        state.seenAdded = true;
        if (seeds !== undefined || state.done.overflow) {
          state.pass = 1;
          state.batches = [];
          const done = state.done;
          state.done = undefined;
          actions.push({ kind: 'rerun', range: state.range, seeds });
          // A second run of a misread range reads on to the end too; the later ranges are dropped.
          if (done.rest) this.states.length = this.current + 1;
          break;
        }
      }
      for (const batch of state.batches) {
        this.mergeBatch(batch);
        actions.push({
          kind: 'merged',
          range: this.current,
          to: batch.to,
          issues: batch.issues.length,
        });
      }
      state.batches = [];
      const done = state.done;
      if (done === undefined) break;
      if (!state.seenAdded) this.merger.addSeen(done.seen);
      this.merger.addTotals(done);
      if (done.rest) this.states.length = this.current + 1;
      this.current++;
    }
    return actions;
  }

  /** A batch's issues, and its counted ones where they lie among them. */
  private mergeBatch(batch: RangeBatch): void {
    const tallies = batch.tallies ?? [];
    let t = 0;
    const countUpTo = (at: number) => {
      for (let next = tallies[t]; next !== undefined && next.at <= at; next = tallies[++t])
        this.merger.addTally(next.entries);
    };
    batch.issues.forEach((issue, i) => {
      countUpTo(i);
      this.merger.addIssue(issue);
    });
    countUpTo(batch.issues.length);
  }

  result(): ValidationResult {
    return this.merger.result();
  }
}

export interface InRangesOptions extends ChunkValidateOptions {
  maxErrors?: number;
  delimiter?: string;
  onIssue?: (issue: Issue) => void;
  /** How many ranges (threads) to cut the file into. */
  ranges: number;
  blockBytes: number;
  /** Issues a later range's first run may keep (RangeRunOptions.keepIssues). */
  keepIssues?: number;
  /** RangeRunOptions.tallyAfter for every range, and where the counted issues go. */
  tallyAfter?: number;
  onTally?: (entries: readonly TallyEntry[]) => void;
  /** The order the ranges' first runs are done in (a permutation of their indexes); default in order. */
  order?: readonly number[];
  onAction?: (action: RangeAction<PlannedChunk>) => void;
}

/**
 * The whole range pipeline on one thread, over bytes in memory: ranges run one after another in
 * `order` (each run's batches delivered at once), merged as the CLI merges them. For tests.
 */
export function validateCsvInRanges(
  schema: SchemaModel,
  bytes: Uint8Array,
  options: InRangesOptions,
): ValidationResult | null {
  const { delimiter, ...rest } = options;
  const decision = planCsvSplit(bytes.subarray(0, CSV_PLAN_SAMPLE_BYTES), delimiter);
  if (!decision.ok) return null;
  const plan = decision.plan;
  const read: ReadAt = (position, length) => bytes.subarray(position, position + length);
  const ranges = planCsvRanges(read, bytes.length, options.ranges, options.blockBytes);
  const shared = sharedOptions(options);
  const reading = csvRangeReading(schema, plan, bytes.subarray(0, plan.headerEnd), shared);
  return validateInRanges(schema, bytes, ranges, reading, rest);
}

/** The options every range's validator shares, from the in-memory pipeline's. */
export function sharedOptions(options: InRangesOptions): ChunkValidateOptions {
  const shared: ChunkValidateOptions = {};
  if (options.maxFieldBytes !== undefined) shared.maxFieldBytes = options.maxFieldBytes;
  if (options.now !== undefined) shared.now = options.now;
  if (options.lists !== undefined) shared.lists = options.lists;
  return shared;
}

/** validateCsvInRanges for any format: its ranges planned, and how they are read. */
export function validateInRanges<R extends PlannedChunk>(
  schema: SchemaModel,
  bytes: Uint8Array,
  ranges: readonly R[],
  reading: RangeReading<R>,
  options: Omit<InRangesOptions, 'delimiter'>,
): ValidationResult {
  const { maxErrors, onIssue, blockBytes, keepIssues, order, onAction, tallyAfter, onTally } =
    options;
  const read: ReadAt = (position, length) => bytes.subarray(position, position + length);
  const tables = countSeenTables(schema, sharedOptions(options));
  const merger = new RangeMerger<R>(ranges, tables, maxErrors, onIssue, onTally);
  const runOne = (range: R, pass: number, seeds: (SeenEntries | undefined)[] | undefined) => {
    const mayRerun = pass === 0 && merger.mayRerun(range.index);
    const steps = startRange(reading, range, bytes.length, read, {
      blockBytes,
      seeds,
      keepIssues: mayRerun ? keepIssues : undefined,
      tallyAfter,
      onBatch: (batch) => merger.batch(range.index, pass, batch),
    });
    while (steps.step());
    merger.done(range.index, pass, steps.finish());
  };
  const pending: RangeAction<R>[] = [];
  const step = () => {
    for (const action of merger.drain()) {
      onAction?.(action);
      pending.push(action);
    }
  };
  for (const i of order ?? ranges.map((r) => r.index)) {
    runOne(ranges[i]!, 0, undefined);
    step();
    for (let a = pending.shift(); a !== undefined; a = pending.shift()) {
      if (a.kind === 'rerun') {
        runOne(a.range, 1, a.seeds);
        step();
      }
    }
  }
  return merger.result();
}
