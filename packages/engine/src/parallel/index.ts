// Chunked validation of one CSV or JSON file on several threads (docs/decisions/210, 247): the
// pure pieces.
// The threads themselves are the caller's (the CLI's worker_threads driver).
export { newCsvScanState, scanCsvBytes, type CsvCut, type CsvScanState } from './boundary.ts';
export {
  createCsvChunkValidator,
  validateCsvChunk,
  type ChunkOutcome,
  type ChunkValidateOptions,
  type ChunkValidator,
  type CsvChunk,
} from './chunk.ts';
export {
  createJsonChunkValidator,
  jsonRangeReading,
  validateJsonInRanges,
  type JsonChunkOptions,
} from './json-chunk.ts';
export {
  JSON_PLAN_SAMPLE_BYTES,
  planJsonRanges,
  planJsonSplit,
  type JsonRange,
  type JsonSplitDecision,
  type JsonSplitPlan,
} from './json-plan.ts';
export { ChunkMerger, type ChunkVerdict, type PlannedChunk } from './merge.ts';
export {
  countSeenTables,
  csvRangeReading,
  planCsvRanges,
  RangeMerger,
  startRange,
  type RangeReading,
  type RangeSteps,
  validateCsvInRanges,
  type CsvRange,
  type InRangesOptions,
  type RangeAction,
  type RangeBatch,
  type RangeDone,
  type RangeRunOptions,
  type ReadAt,
} from './ranges.ts';
export { validateCsvInChunks, type InChunksOptions } from './in-memory.ts';
export {
  CSV_PLAN_SAMPLE_BYTES,
  planCsvSplit,
  type CsvSplitDecision,
  type CsvSplitPlan,
} from './plan.ts';
export type { SeenEntries } from '../validate/rules/unique.ts';
export type { TallyEntry } from '../validate/collector.ts';
