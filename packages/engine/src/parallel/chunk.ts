// One chunk of a CSV file validated as the whole file's validator would validate those rows:
// read after the file's header line, with the file's encoding and delimiter, rows numbered from
// the line breaks before the chunk, encoding errors at their file offsets, and `unique` /
// `uniqueTogether` tables seeded with the values earlier chunks had (see merge.ts).

import type { Issue, SchemaModel, Warning } from '../model.ts';
import { type SeenEntries, SeenRegistry } from '../validate/rules/unique.ts';
import {
  createValidatorWith,
  type InternalValidator,
  type ValidateOptions,
} from '../validate/validator.ts';
import type { CsvSplitPlan } from './plan.ts';

/** Options every chunk of one validation shares (`now` fixed once, for allowFuture/allowPast). */
export type ChunkValidateOptions = Pick<ValidateOptions, 'maxFieldBytes' | 'now' | 'lists'>;

export interface CsvChunk {
  /** 0 for the chunk at the file's start (it holds the header line). */
  index: number;
  /** File offset of the chunk's first byte; a later chunk starts just after a line feed. */
  start: number;
  /** Line breaks in the file before `start` (the header's included); 0 for the first chunk. */
  lineBreaksBefore: number;
  /** Seen values of earlier chunks, by table (SeenRegistry order). */
  seeds?: readonly (SeenEntries | undefined)[] | undefined;
}

export interface ChunkOutcome {
  index: number;
  /** Every issue of the chunk's rows in file order (the header's only in the first chunk). */
  issues: Issue[];
  warnings: Warning[];
  totalRows: number;
  invalidRows: number;
  /**
   * The row of the last line break read, when reading ended exactly at a record boundary; null
   * otherwise. A chunk that is not the last is right only when this is the row the boundary
   * scan predicted.
   */
  endRow: number | null;
  /** The values the chunk's `unique` and `uniqueTogether` checks saw, by table. */
  seen: SeenEntries[];
}

export interface ChunkValidator {
  push(bytes: Uint8Array): void;
  /** The issues found since the last call (or the start), in file order; they leave the outcome. */
  takeIssues(): Issue[];
  /** The row of the last line break read when reading stands exactly at a record boundary, else null. */
  boundaryRow(): number | null;
  /**
   * `atFileEnd`: whether the bytes pushed reach the end of the file (default); false for a range
   * that ends at a verified record boundary inside it.
   */
  finish(atFileEnd?: boolean): ChunkOutcome;
}

/**
 * A validator for one chunk: push the chunk's bytes (in any pieces), then finish. `header` is the
 * file's bytes [0, plan.headerEnd); it is read first for every chunk but the first.
 */
export function createCsvChunkValidator(
  schema: SchemaModel,
  plan: CsvSplitPlan,
  header: Uint8Array,
  chunk: CsvChunk,
  options: ChunkValidateOptions,
): ChunkValidator {
  const first = chunk.index === 0;
  const collected = { issues: [] as Issue[] };
  const registry = new SeenRegistry(chunk.seeds ?? []);
  const headerLength = first ? 0 : header.length;
  const validator = createValidatorWith(
    schema,
    {
      ...options,
      fileType: 'csv',
      delimiter: plan.delimiter,
      // Kept here, not by the validator: the merge keeps the first maxErrors of the whole file.
      maxErrors: 0,
      onIssue: first
        ? (issue) => collected.issues.push(issue)
        : (issue) => {
            // The header's issues were the first chunk's to report.
            if (issue.row > 1) collected.issues.push(issue);
          },
    },
    {
      seen: registry,
      csvChunk: {
        encoding: plan.encoding,
        rowsAfterHeader: first ? 0 : chunk.lineBreaksBefore - 1,
        fileOffset: first
          ? (offset) => offset
          : (offset) => (offset < headerLength ? offset : offset - headerLength + chunk.start),
      },
    },
  );
  if (!first) validator.push(header);
  return chunkValidator(chunk.index, validator, registry, collected, false);
}

/**
 * The ChunkValidator of a chunk's validator, whose onIssue puts its issues into
 * `collected.issues`. With `resumable`, a chunk that ends inside the file at a record boundary
 * ends with endAtBoundary(): its reader is not told that input ended (JSON: an array would report
 * its missing `]`).
 */
export function chunkValidator(
  index: number,
  validator: InternalValidator,
  registry: SeenRegistry,
  collected: { issues: Issue[] },
  resumable: boolean,
): ChunkValidator {
  const boundaryRow = () => {
    const at = validator.boundary();
    return at !== undefined && at.clean ? at.row : null;
  };
  return {
    push: (bytes) => validator.push(bytes),
    takeIssues() {
      const taken = collected.issues;
      collected.issues = [];
      return taken;
    },
    boundaryRow,
    finish(atFileEnd = true) {
      const endRow = boundaryRow();
      const result =
        resumable && !atFileEnd && endRow !== null ? validator.endAtBoundary() : validator.end();
      return {
        index,
        issues: collected.issues,
        warnings: result.warnings.filter((w) => w.code !== 'errors_truncated'),
        totalRows: result.totalRows,
        invalidRows: result.invalidRows,
        endRow,
        seen: registry.tables.map((t) => t.entries()),
      };
    },
  };
}

export function validateCsvChunk(
  schema: SchemaModel,
  plan: CsvSplitPlan,
  header: Uint8Array,
  chunk: CsvChunk,
  bytes: Uint8Array,
  options: ChunkValidateOptions,
): ChunkOutcome {
  const validator = createCsvChunkValidator(schema, plan, header, chunk, options);
  validator.push(bytes);
  return validator.finish();
}
