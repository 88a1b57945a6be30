// Chunked validation of a CSV file held in memory, one chunk after another: the same plan, cuts,
// chunk validators and merge as the CLI's worker threads use, without the threads. The property
// tests compare it with validateBytes for every chunking; a caller with the bytes at hand and no
// threads gets the same result as validateBytes.

import type { Issue, SchemaModel, ValidationResult } from '../model.ts';
import { validateBytes } from '../validate/validator.ts';
import { newCsvScanState, scanCsvBytes } from './boundary.ts';
import { type ChunkValidateOptions, type CsvChunk, validateCsvChunk } from './chunk.ts';
import { ChunkMerger, type PlannedChunk } from './merge.ts';
import { CSV_PLAN_SAMPLE_BYTES, planCsvSplit } from './plan.ts';

export interface InChunksOptions extends ChunkValidateOptions {
  maxErrors?: number;
  delimiter?: string;
  onIssue?: (issue: Issue) => void;
  /**
   * Where to try to cut, as file offsets in increasing order: each chunk ends at the last record
   * boundary before one of them (none before it: the chunk runs on).
   */
  cuts: readonly number[];
  /** Told what became of each chunk (tests: that every path was taken). */
  onVerdict?: (kind: 'merged' | 'seed' | 'rest') => void;
}

/** Cuts the bytes as the CLI's reader does, block by block (block ends at `cuts`). */
export function planChunks(bytes: Uint8Array, cuts: readonly number[]): PlannedChunk[] {
  const state = newCsvScanState();
  const chunks: PlannedChunk[] = [];
  let start = 0;
  let breaksBefore = 0;
  let scanned = 0;
  for (const cut of [...cuts, bytes.length]) {
    const to = Math.min(Math.max(cut, scanned), bytes.length);
    const found = scanCsvBytes(bytes.subarray(0, to), state, scanned);
    scanned = to;
    if (to === bytes.length) break;
    if (found.at <= start) continue;
    chunks.push({
      index: chunks.length,
      start,
      end: found.at,
      lineBreaksBefore: breaksBefore,
      predictedEndRow: found.lineBreaks,
      last: false,
    });
    start = found.at;
    breaksBefore = found.lineBreaks;
  }
  chunks.push({
    index: chunks.length,
    start,
    end: bytes.length,
    lineBreaksBefore: breaksBefore,
    predictedEndRow: state.lineBreaks,
    last: true,
  });
  return chunks;
}

export function validateCsvInChunks(
  schema: SchemaModel,
  bytes: Uint8Array,
  options: InChunksOptions,
): ValidationResult {
  const { maxErrors, delimiter, onIssue, cuts, onVerdict, ...shared } = options;
  const decision = planCsvSplit(bytes.subarray(0, CSV_PLAN_SAMPLE_BYTES), delimiter);
  if (!decision.ok) {
    const single: Parameters<typeof validateBytes>[2] = { ...shared, fileType: 'csv' };
    if (maxErrors !== undefined) single.maxErrors = maxErrors;
    if (delimiter !== undefined) single.delimiter = delimiter;
    if (onIssue !== undefined) single.onIssue = onIssue;
    return validateBytes(schema, bytes, single);
  }
  const plan = decision.plan;
  const header = bytes.subarray(0, plan.headerEnd);
  const merger = new ChunkMerger(maxErrors, onIssue);
  const planned = planChunks(bytes, cuts);
  const run = (chunk: CsvChunk, end: number) =>
    validateCsvChunk(schema, plan, header, chunk, bytes.subarray(chunk.start, end), shared);
  for (const p of planned) {
    const outcome = run(
      { index: p.index, start: p.start, lineBreaksBefore: p.lineBreaksBefore },
      p.end,
    );
    const verdict = merger.accept(p, outcome);
    onVerdict?.(verdict.kind);
    if (verdict.kind === 'seed') merger.accept(p, run(verdict.chunk, p.end), true);
    if (verdict.kind === 'rest') {
      merger.accept({ ...p, last: true }, run(verdict.chunk, bytes.length), true);
      break;
    }
  }
  return merger.result();
}
