// Wires the streaming readers to the compiled field checks and gathers the result. Bytes go in by
// push(); every issue leaves through onIssue as soon as it is found; end() returns the summary.

import type { FileType, Issue, SchemaModel, ValidationResult } from '../model.ts';
import { ValueSet } from '../lists/value-set.ts';
import { Collector, DEFAULT_MAX_ERRORS } from './collector.ts';
import { compileField, type CompileOptions } from './compile.ts';
import { compileCrossFieldRules } from './cross-field.ts';
import { ruleMessages } from './messages.ts';
import { type CellRows, csvRecords } from './csv-records.ts';
import { jsonRecords } from './json-records.ts';
import type { Run } from './run.ts';
import type { CsvChunkReading } from '../csv/reader.ts';
import type { JsonResume } from '../json/reader.ts';
import { SeenRegistry } from './rules/unique.ts';

export interface ValidateOptions {
  fileType: FileType;
  /** CSV: one of , ; \t | — detected when not given. */
  delimiter?: string;
  /** How many issues `errors` keeps; all are counted and all go to onIssue. Default 1000. */
  maxErrors?: number;
  /** CSV: a field above this many bytes is a parse_error. */
  maxFieldBytes?: number;
  /** JSON: force a shape; detected when not given. */
  jsonShape?: 'array' | 'object' | 'ndjson';
  /** Stop after this many data rows; a further row sets rowLimitExceeded. */
  maxRows?: number;
  /** Receives every issue in file order: the sink for a full report. */
  onIssue?: (issue: Issue) => void;
  /** "Today" for allowFuture/allowPast (tests); defaults to the current time. */
  now?: Date;
  /**
   * Reference lists for `inList` fields, by name: each is read once into a set when the
   * validator is created (memory bounded by the list, not the file).
   */
  lists?: ReadonlyMap<string, Iterable<string>> | Readonly<Record<string, Iterable<string>>>;
  /**
   * The size of the whole input in bytes, when known (a file's size). Once the first rows are
   * read, the tables of seen values (`unique`, `uniqueTogether`) are made large enough at once for
   * the rest, instead of doubling their way there. The result is the same without it.
   */
  inputBytes?: number;
  /**
   * CSV: false reads every record in JavaScript, without the WebAssembly byte core (decision
   * 248). The results are the same either way; this is for tests and for measuring.
   */
  byteCore?: boolean;
}

export interface Validator {
  push(chunk: Uint8Array): void;
  end(): ValidationResult;
  /** Data rows read so far. */
  readonly rows: number;
  /** True once the row limit was passed: further input is ignored, so a caller may stop reading. */
  readonly stopped: boolean;
  /**
   * Where a table that has its rows as cells (a workbook's sheet) hands them over instead of
   * pushing them as comma-separated CSV (decision 244), with the same results; undefined unless
   * the validator reads CSV with a comma. Once taken, push() takes only the CSV that
   * CellRows.continueAsCsv announces.
   */
  cellRows(): CellRows | undefined;
}

/** Rows read before the tables of seen values are sized from `inputBytes`. */
const EXPECT_AFTER_ROWS = 1000;

/**
 * Compiles the schema (once per validation: `unique` keeps state) and returns a push-based
 * validator. The schema is assumed checked by the schema parser.
 */
export function createValidator(schema: SchemaModel, options: ValidateOptions): Validator {
  return createValidatorWith(schema, options, {});
}

/** What chunked validation (engine/src/parallel) adds to a validator; nothing by default. */
export interface ValidatorInternals {
  /** Where `unique` and `uniqueTogether` get their tables of seen values. */
  seen?: SeenRegistry;
  /** CSV: the bytes pushed are a chunk of a file (its header line, then the chunk). */
  csvChunk?: CsvChunkReading;
  /** JSON: the bytes pushed are a range of a file, read from a record boundary on. */
  jsonChunk?: JsonResume;
}

export interface InternalValidator extends Validator {
  /** Where reading stands (see CsvReader.boundary, JsonReader.boundary). */
  boundary(): { row: number; clean: boolean } | undefined;
  /**
   * end() for a range that stops at a record boundary inside the file: the reader is not told
   * that the input ended (an array would report the missing rest of the file).
   */
  endAtBoundary(): ValidationResult;
}

export function createValidatorWith(
  schema: SchemaModel,
  options: ValidateOptions,
  internals: ValidatorInternals,
): InternalValidator {
  const lists = loadLists(schema, options);
  const seen = internals.seen ?? new SeenRegistry();
  const compileOptions: CompileOptions = { lists: lists.sets, seen };
  if (options.now) compileOptions.now = options.now;
  const fields = schema.fields.map((f) => compileField(f, compileOptions));
  const collector = new Collector(options.maxErrors ?? DEFAULT_MAX_ERRORS, options.onIssue);
  for (const message of schema.warnings ?? []) collector.warn({ code: 'schema', message });
  for (const message of lists.warnings) collector.warn({ code: 'schema', message });
  const maxRows = options.maxRows ?? Infinity;
  let stopped = false;
  let result: ValidationResult | undefined;

  const run: Run = {
    schema,
    fields,
    options,
    collector,
    rules: compileCrossFieldRules(
      schema,
      seen,
      fields.map((f) => f.last),
    ),
    csvChunk: internals.csvChunk,
    jsonChunk: internals.jsonChunk,
    startRow(row) {
      if (stopped) return false;
      if (collector.startRow(row, maxRows)) return true;
      stopped = true;
      return false;
    },
    roomForRows() {
      return stopped ? 0 : collector.roomForRows(maxRows);
    },
    startCleanRows(lastRow, count) {
      collector.startCleanRows(lastRow, count);
    },
    get stopped() {
      return stopped;
    },
  };
  const csv = options.fileType === 'csv' ? csvRecords(run) : undefined;
  const source = csv ?? jsonRecords(run);

  // inputBytes: the tables of seen values are sized for the whole input once EXPECT_AFTER_ROWS
  // rows have shown how many bytes a row takes (the bytes pushed so far, some not yet read: the
  // estimate errs low).
  const inputBytes = options.inputBytes ?? 0;
  let pushed = 0;
  let sized = inputBytes <= 0 || seen.tables.length === 0;
  return {
    push(chunk) {
      if (stopped || result !== undefined) return;
      source.push(chunk);
      if (sized) return;
      pushed += chunk.length;
      if (collector.rows < EXPECT_AFTER_ROWS) return;
      sized = true;
      if (inputBytes > pushed * 2) seen.expect(inputBytes / pushed);
    },
    end() {
      if (result !== undefined) return result;
      if (!stopped) source.end();
      result = collector.result(stopped);
      return result;
    },
    endAtBoundary() {
      result ??= collector.result(stopped);
      return result;
    },
    get rows() {
      return collector.rows;
    },
    get stopped() {
      return stopped;
    },
    boundary() {
      return source.boundary?.();
    },
    cellRows() {
      return options.delimiter === ',' ? csv?.cells() : undefined;
    },
  };
}

/**
 * The reference lists the schema's `inList` fields name, each read once into a set (a ValueSet
 * unless the caller passed a Set or a ValueSet, which is used as it is). A name the
 * caller did not pass is a warning (the field's other checks still run).
 */
function loadLists(
  schema: SchemaModel,
  options: ValidateOptions,
): { sets: Map<string, ReadonlySet<string>>; warnings: string[] } {
  const sets = new Map<string, ReadonlySet<string>>();
  const warnings: string[] = [];
  const given = options.lists;
  const lookup = (name: string): Iterable<string> | undefined =>
    given === undefined
      ? undefined
      : given instanceof Map
        ? (given as ReadonlyMap<string, Iterable<string>>).get(name)
        : Object.hasOwn(given, name)
          ? (given as Record<string, Iterable<string>>)[name]
          : undefined;
  for (const field of schema.fields) {
    const name = field.rules.inList;
    if (name === undefined || sets.has(name)) continue;
    const values = lookup(name);
    if (values === undefined) warnings.push(ruleMessages.listNotGiven(name, field.name));
    else
      sets.set(
        name,
        values instanceof Set || values instanceof ValueSet
          ? (values as ReadonlySet<string>)
          : new ValueSet(values),
      );
  }
  return { sets, warnings };
}

/** Validates a whole stream; stops reading early once the row limit is passed. */
export async function validateStream(
  schema: SchemaModel,
  source: AsyncIterable<Uint8Array>,
  options: ValidateOptions,
): Promise<ValidationResult> {
  const validator = createValidator(schema, options);
  for await (const chunk of source) {
    validator.push(chunk);
    if (validator.stopped) break;
  }
  return validator.end();
}

export function validateBytes(
  schema: SchemaModel,
  bytes: Uint8Array,
  options: ValidateOptions,
): ValidationResult {
  const validator = createValidator(schema, options);
  validator.push(bytes);
  return validator.end();
}
