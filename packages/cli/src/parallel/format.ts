// What the threads of `validate --jobs N` need to read a range of the file, as plain data that
// crosses to a worker thread (a structured clone): the CSV plan and header line, or the JSON plan.
import {
  type ChunkValidateOptions,
  csvRangeReading,
  type CsvSplitPlan,
  jsonRangeReading,
  type JsonSplitPlan,
  type PlannedChunk,
  type RangeReading,
  type SchemaModel,
} from '@schemacheck/engine';

export type RangeFormat =
  | { kind: 'csv'; plan: CsvSplitPlan; header: Uint8Array }
  /** `delimiter`: given for a JSON file, only for the warning that it is ignored. */
  | { kind: 'json'; plan: JsonSplitPlan; delimiter: string | undefined };

export function rangeReading(
  schema: SchemaModel,
  format: RangeFormat,
  options: ChunkValidateOptions,
): RangeReading<PlannedChunk> {
  if (format.kind === 'csv') return csvRangeReading(schema, format.plan, format.header, options);
  // Its ranges are the JsonRanges planJsonRanges cut (with their lines and columns).
  return jsonRangeReading(
    schema,
    format.plan,
    format.delimiter === undefined ? options : { ...options, delimiter: format.delimiter },
  );
}
