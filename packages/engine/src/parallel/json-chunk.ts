// One range of a JSON file validated as the whole file's validator validates those records
// (decision 247): the first range from the file's start (its reader detects the shape and reads
// a BOM); a later one resumed at its record boundary with the records, line and column before it
// and its file offset (JsonResume), its `unique` / `uniqueTogether` tables seeded as for CSV.

import { JSON_PIECE_BYTES } from '../json/reader.ts';
import type { Issue, SchemaModel, ValidationResult } from '../model.ts';
import { SeenRegistry, type SeenEntries } from '../validate/rules/unique.ts';
import { createValidatorWith, type ValidateOptions } from '../validate/validator.ts';
import { type ChunkValidateOptions, type ChunkValidator, chunkValidator } from './chunk.ts';
import {
  JSON_PLAN_SAMPLE_BYTES,
  type JsonRange,
  type JsonSplitPlan,
  planJsonRanges,
  planJsonSplit,
} from './json-plan.ts';
import {
  type InRangesOptions,
  type RangeReading,
  type ReadAt,
  sharedOptions,
  validateInRanges,
} from './ranges.ts';

/** What every range of a JSON file is validated with (the delimiter only for its warning). */
export type JsonChunkOptions = ChunkValidateOptions & Pick<ValidateOptions, 'delimiter'>;

export function createJsonChunkValidator(
  schema: SchemaModel,
  plan: JsonSplitPlan,
  range: JsonRange,
  seeds: readonly (SeenEntries | undefined)[] | undefined,
  options: JsonChunkOptions,
): ChunkValidator {
  const collected = { issues: [] as Issue[] };
  const registry = new SeenRegistry(seeds ?? []);
  const validateOptions: ValidateOptions = {
    ...options,
    fileType: 'json',
    // Kept here, not by the validator: the merge keeps the first maxErrors of the whole file.
    maxErrors: 0,
    onIssue: (issue) => collected.issues.push(issue),
  };
  if (plan.forced !== undefined) validateOptions.jsonShape = plan.forced;
  const validator = createValidatorWith(
    schema,
    validateOptions,
    range.index === 0
      ? { seen: registry }
      : {
          seen: registry,
          jsonChunk: {
            shape: plan.shape,
            row: range.lineBreaksBefore,
            line: range.line,
            column: range.column,
            byteOffset: range.start,
          },
        },
  );
  return chunkValidator(range.index, validator, registry, collected, true);
}

export function jsonRangeReading(
  schema: SchemaModel,
  plan: JsonSplitPlan,
  options: JsonChunkOptions,
): RangeReading<JsonRange> {
  return {
    // The first push holds the BOM whole, and the array's `[`.
    firstPushBytes: plan.bodyStart,
    alignBytes: JSON_PIECE_BYTES,
    open: (range, seeds) => createJsonChunkValidator(schema, plan, range, seeds, options),
  };
}

/** validateCsvInRanges for a JSON file (null: refused, validate it in one piece). For tests. */
export function validateJsonInRanges(
  schema: SchemaModel,
  bytes: Uint8Array,
  options: InRangesOptions & Pick<ValidateOptions, 'jsonShape'>,
): ValidationResult | null {
  const { delimiter, jsonShape, ...rest } = options;
  const decision = planJsonSplit(bytes.subarray(0, JSON_PLAN_SAMPLE_BYTES), jsonShape);
  if (!decision.ok) return null;
  const plan = decision.plan;
  const read: ReadAt = (position, length) => bytes.subarray(position, position + length);
  const ranges = planJsonRanges(plan, read, bytes.length, options.ranges, options.blockBytes);
  const shared: JsonChunkOptions = sharedOptions(options);
  if (delimiter !== undefined) shared.delimiter = delimiter;
  return validateInRanges(schema, bytes, ranges, jsonRangeReading(schema, plan, shared), rest);
}
