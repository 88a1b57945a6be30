import type { SchemaModel } from '../model.ts';
import type { Collector } from './collector.ts';
import type { CompiledField, Failure } from './compile.ts';
import { messages } from './messages.ts';
import type { ValidateOptions } from './validator.ts';

/** What the CSV and JSON sides share while one validation runs. */
export interface Run {
  readonly schema: SchemaModel;
  readonly fields: readonly CompiledField[];
  readonly options: ValidateOptions;
  readonly collector: Collector;
  /** Makes `row` the current data row; false when the event must be ignored (row limit passed). */
  startRow(row: number): boolean;
  /** True once the row limit was passed: nothing more is checked or counted. */
  readonly stopped: boolean;
}

/** The push side of a file reader, wired to a Run. */
export interface RecordSource {
  push(chunk: Uint8Array): void;
  end(): void;
}

export const REQUIRED: Failure = { code: 'required', message: messages.required };
