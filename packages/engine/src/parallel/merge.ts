// Chunks' outcomes merged, in chunk order, into the result the whole file's validator gives:
// issues replayed through the same Collector (so the kept errors, the per-field and per-code
// counts and their caps are global), rows summed, warnings in order of first appearance, and the
// `unique` / `uniqueTogether` tables merged so that a value first seen in an earlier chunk is
// reported as a duplicate of the row where it was first seen.

import type { Issue, ValidationResult, Warning } from '../model.ts';
import { Collector, DEFAULT_MAX_ERRORS, type TallyEntry } from '../validate/collector.ts';
import { type SeenEntries, SeenValues } from '../validate/rules/unique.ts';
import type { ChunkOutcome, CsvChunk } from './chunk.ts';

/** A chunk as the boundary scan cut it. */
export interface PlannedChunk {
  index: number;
  start: number;
  /** File offset after its last byte. */
  end: number;
  lineBreaksBefore: number;
  /** The row its last line break is on, as the boundary scan counted: lineBreaksBefore + its own. */
  predictedEndRow: number;
  last: boolean;
}

/** What to do with a chunk's outcome, once the chunks before it are merged. */
export type ChunkVerdict =
  /** Merged: its issues have gone to onIssue. */
  | { kind: 'merged' }
  /** Validate the chunk again with these seeds, then accept that outcome with `seeded`. */
  | { kind: 'seed'; chunk: CsvChunk }
  /**
   * The scan misread the chunk: validate from its start to the end of the file in one piece
   * (later chunks' outcomes are dropped), then accept that outcome with `seeded` and `last`.
   */
  | { kind: 'rest'; chunk: CsvChunk };

export class ChunkMerger {
  private readonly collector: Collector;
  private readonly tables: SeenValues[] = [];
  private totalRows = 0;
  private invalidRows = 0;

  constructor(
    maxErrors = DEFAULT_MAX_ERRORS,
    onIssue?: (issue: Issue) => void,
    private readonly onTally?: (entries: readonly TallyEntry[]) => void,
  ) {
    this.collector = new Collector(maxErrors, onIssue);
  }

  /**
   * Records the values a chunk saw (call once per chunk, in chunk order) and returns the seeds
   * the chunk must be validated again with when some of them were seen in an earlier chunk:
   * seeded, its checks find the duplicates the whole file's validator finds. Undefined when its
   * first validation stands.
   */
  addSeen(seen: readonly SeenEntries[]): (SeenEntries | undefined)[] | undefined {
    let seeds: (SeenEntries | undefined)[] | undefined;
    seen.forEach((entries, t) => {
      const table = (this.tables[t] ??= new SeenValues());
      const h1: number[] = [];
      const h2: number[] = [];
      const rows: number[] = [];
      for (let i = 0; i < entries.rows.length; i++) {
        const a = entries.h1[i] as number;
        const b = entries.h2[i] as number;
        const first = table.firstRowOfHash(a, b, entries.rows[i] as number);
        if (first === 0) continue;
        h1.push(a);
        h2.push(b);
        rows.push(first);
      }
      if (rows.length === 0) return;
      seeds ??= [];
      seeds[t] = {
        h1: Int32Array.from(h1),
        h2: Int32Array.from(h2),
        rows: Uint32Array.from(rows),
      };
    });
    return seeds;
  }

  /** Every value seen so far: the seeds for reading the rest of the file in one piece. */
  allSeen(): SeenEntries[] {
    return this.tables.map((t) => t.entries());
  }

  /**
   * A chunk's outcome, in chunk order. `seeded`: the outcome of a validation the verdict asked
   * for (it is merged as it is).
   */
  accept(planned: PlannedChunk, outcome: ChunkOutcome, seeded = false): ChunkVerdict {
    if (!seeded) {
      if (!planned.last && outcome.endRow !== planned.predictedEndRow) {
        return {
          kind: 'rest',
          chunk: {
            index: planned.index,
            start: planned.start,
            lineBreaksBefore: planned.lineBreaksBefore,
            seeds: this.allSeen(),
          },
        };
      }
      const seeds = this.addSeen(outcome.seen);
      if (seeds !== undefined) {
        return {
          kind: 'seed',
          chunk: {
            index: planned.index,
            start: planned.start,
            lineBreaksBefore: planned.lineBreaksBefore,
            seeds,
          },
        };
      }
    }
    this.add(outcome);
    return { kind: 'merged' };
  }

  /** A chunk's final outcome, in chunk order: its issues go to onIssue now. */
  add(outcome: ChunkOutcome): void {
    const collector = this.collector;
    for (const warning of outcome.warnings) collector.warn(warning);
    // rowIssue counts an issue (or a warning issue) exactly as the chunk's collector did; rows
    // are counted by the chunks.
    for (const issue of outcome.issues) collector.rowIssue(issue);
    this.totalRows += outcome.totalRows;
    this.invalidRows += outcome.invalidRows;
  }

  /** One issue, in file order (ranges: decision 228). */
  addIssue(issue: Issue): void {
    this.collector.rowIssue(issue);
  }

  /** Issues counted in a range but not sent, in file order among addIssue's (RangeBatch.tallies). */
  addTally(entries: readonly TallyEntry[]): void {
    this.collector.addTally(entries);
    this.onTally?.(entries);
  }

  /** A range's rows and warnings, once its issues are added. */
  addTotals(done: { totalRows: number; invalidRows: number; warnings: readonly Warning[] }): void {
    for (const warning of done.warnings) this.collector.warn(warning);
    this.totalRows += done.totalRows;
    this.invalidRows += done.invalidRows;
  }

  result(): ValidationResult {
    const result = this.collector.result(false);
    result.totalRows = this.totalRows;
    result.invalidRows = this.invalidRows;
    result.validRows = this.totalRows - this.invalidRows;
    return result;
  }
}
