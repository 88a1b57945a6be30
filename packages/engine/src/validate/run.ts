import type { CsvChunkReading } from '../csv/reader.ts';
import type { JsonResume } from '../json/reader.ts';
import type { Issue, SchemaModel } from '../model.ts';
import { truncateValue } from './issue-value.ts';
import type { Collector } from './collector.ts';
import type { CompiledField, Failure } from './compile.ts';
import type { CompiledRules, RuleFailure } from './cross-field.ts';
import { messages, renderTemplate } from './messages.ts';
import type { ValidateOptions } from './validator.ts';

/** What the CSV and JSON sides share while one validation runs. */
export interface Run {
  readonly schema: SchemaModel;
  readonly fields: readonly CompiledField[];
  readonly options: ValidateOptions;
  readonly collector: Collector;
  /** The schema's cross-field rules, compiled; undefined when it has none. */
  readonly rules: CompiledRules | undefined;
  /** Makes `row` the current data row; false when the event must be ignored (row limit passed). */
  startRow(row: number): boolean;
  /** How many rows may still start before the row limit (0 once stopped). */
  roomForRows(): number;
  /** startRow for `count` clean rows at once, the last of them `lastRow` (count ≤ roomForRows). */
  startCleanRows(lastRow: number, count: number): void;
  /** True once the row limit was passed: nothing more is checked or counted. */
  readonly stopped: boolean;
  /** CSV, chunked validation only: the bytes are a chunk of a file (engine/src/parallel). */
  readonly csvChunk?: CsvChunkReading | undefined;
  /** JSON, chunked validation only: the bytes are a range of a file (engine/src/parallel). */
  readonly jsonChunk?: JsonResume | undefined;
}

/** The push side of a file reader, wired to a Run. */
export interface RecordSource {
  push(chunk: Uint8Array): void;
  end(): void;
  /** Where reading stands (see CsvReader.boundary, JsonReader.boundary). */
  boundary?(): { row: number; clean: boolean } | undefined;
}

export const REQUIRED: Failure = { code: 'required', message: messages.required };

/**
 * The issue of a field's failure: its severity and own message template (FieldRules) applied, and
 * the suggestion carried. `shown` is the value for the issue (cut), `raw` the value for {value}
 * (cut the same way, so that a CSV cell and a JSON string give the same message).
 */
export function fieldIssue(
  row: number,
  field: CompiledField,
  f: Failure,
  shown: string | null,
  raw: string,
): Issue {
  const issue: Issue = {
    row,
    field: field.name,
    code: f.code,
    message:
      field.template === undefined
        ? f.message
        : renderTemplate(field.template, field.name, truncateValue(raw), ''),
    value: shown,
  };
  if (field.severity !== undefined) issue.severity = field.severity;
  if (f.suggestion !== undefined) issue.suggestion = f.suggestion;
  return issue;
}

/** The issue of a cross-field rule's failure, on its dependent field. */
export function ruleIssue(row: number, field: CompiledField, f: RuleFailure): Issue {
  const issue: Issue = {
    row,
    field: field.name,
    code: f.code,
    message: f.message,
    value: f.value === null ? null : truncateValue(f.value),
  };
  if (f.severity !== undefined) issue.severity = f.severity;
  return issue;
}
