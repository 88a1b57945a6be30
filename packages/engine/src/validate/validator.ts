// Wires the streaming readers to the compiled field checks and gathers the result. Bytes go in by
// push(); every issue leaves through onIssue as soon as it is found; end() returns the summary.

import type { FileType, Issue, SchemaModel, ValidationResult } from '../model.ts';
import { createCsvReader, type CsvReaderOptions } from '../csv/reader.ts';
import { createJsonReader, type JsonReaderOptions } from '../json/reader.ts';
import { Collector, DEFAULT_MAX_ERRORS } from './collector.ts';
import { compileField, type CompiledField, type Failure } from './compile.ts';
import { planHeader } from './csv-header.ts';
import { jsonValueText, describeJsonValue, truncateValue } from './issue-value.ts';
import { buildJsonTree, isJsonObject, pathSegment, type JsonNode } from './json-fields.ts';
import { messages } from './messages.ts';

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
}

export interface Validator {
  push(chunk: Uint8Array): void;
  end(): ValidationResult;
  /** Data rows read so far. */
  readonly rows: number;
  /** True once the row limit was passed: further input is ignored, so a caller may stop reading. */
  readonly stopped: boolean;
}

const REQUIRED: Failure = { code: 'required', message: messages.required };

/**
 * Compiles the schema (once per validation: `unique` keeps state) and returns a push-based
 * validator. The schema is assumed checked by the schema parser.
 */
export function createValidator(schema: SchemaModel, options: ValidateOptions): Validator {
  const compileOptions = options.now ? { now: options.now } : {};
  const fields = schema.fields.map((f) => compileField(f, compileOptions));
  const collector = new Collector(options.maxErrors ?? DEFAULT_MAX_ERRORS, options.onIssue);
  const maxRows = options.maxRows ?? Infinity;
  const state = { stopped: false, limitExceeded: false, ended: false, result: undefined as ValidationResult | undefined };

  /** Starts the event's row; false when the event must be ignored (row limit passed). */
  const startRow = (row: number): boolean => {
    if (state.stopped) return false;
    if (collector.startRow(row, maxRows)) return true;
    state.stopped = true;
    state.limitExceeded = true;
    return false;
  };

  const reader =
    options.fileType === 'csv'
      ? csvReader(schema, fields, options, collector, startRow, state)
      : jsonReader(schema, fields, options, collector, startRow, state);

  return {
    push(chunk) {
      if (!state.stopped && !state.ended) reader.push(chunk);
    },
    end() {
      if (state.result) return state.result;
      state.ended = true;
      if (!state.stopped) reader.end();
      state.result = collector.result(state.limitExceeded);
      return state.result;
    },
    get rows() {
      return collector.rows;
    },
    get stopped() {
      return state.stopped;
    },
  };
}

interface Reader {
  push(chunk: Uint8Array): void;
  end(): void;
}

interface State {
  stopped: boolean;
}

function csvReader(
  schema: SchemaModel,
  fields: CompiledField[],
  options: ValidateOptions,
  collector: Collector,
  startRow: (row: number) => boolean,
  state: State,
): Reader {
  if (options.jsonShape !== undefined) {
    collector.warn({ code: 'ignored_option', message: messages.ignoredOption('JSON shape', 'CSV') });
  }
  const readerOptions: CsvReaderOptions = {};
  if (options.delimiter !== undefined) readerOptions.delimiter = options.delimiter;
  if (options.maxFieldBytes !== undefined) readerOptions.maxFieldBytes = options.maxFieldBytes;

  // Filled from the header: the checked fields in column order, so a row's issues are in file order.
  let width = -1;
  let boundFields: CompiledField[] = [];
  let boundColumns: number[] = [];
  const out: Failure[] = [];

  const reportFailures = (row: number, field: CompiledField, value: string) => {
    const shown = truncateValue(value);
    for (let i = 0; i < out.length; i++) {
      const f = out[i] as Failure;
      collector.rowIssue({ row, field: field.name, code: f.code, message: f.message, value: shown });
    }
    out.length = 0;
  };

  const reader = createCsvReader(
    {
      header(cells) {
        if (state.stopped) return;
        width = cells.length;
        const plan = planHeader(cells, fields.map((f) => f.name), schema);
        for (const issue of plan.issues) collector.add({ row: 1, ...issue });
        const bound = fields
          .map((field, k) => ({ field, col: plan.columns[k] as number }))
          .filter((b) => b.col >= 0)
          .sort((a, b) => a.col - b.col);
        boundFields = bound.map((b) => b.field);
        boundColumns = bound.map((b) => b.col);
      },
      record(cells, row) {
        if (!startRow(row)) return;
        const n = cells.length;
        if (n !== width) {
          collector.rowIssue({
            row,
            field: '',
            code: n > width ? 'extra_cells' : 'missing_cells',
            message: messages.cellCount(n, width),
            value: null,
          });
        }
        // Cells beyond a short row are not checked: missing_cells has already said they are absent.
        for (let k = 0; k < boundFields.length; k++) {
          const col = boundColumns[k] as number;
          if (col >= n) continue;
          const value = cells[col] as string;
          const field = boundFields[k] as CompiledField;
          if (value.length === 0) {
            if (field.required) {
              collector.rowIssue({ row, field: field.name, code: 'required', message: REQUIRED.message, value: null });
            }
            continue;
          }
          field.checkText(value, row, out);
          if (out.length !== 0) reportFailures(row, field, value);
        }
      },
      issue(row, code, message, value) {
        const issue: Issue = { row, field: '', code, message, value: value === null ? null : truncateValue(value) };
        if (row <= 1) {
          if (!state.stopped) collector.add(issue);
        } else if (startRow(row)) {
          collector.rowIssue(issue);
        }
      },
      warning(warning) {
        collector.warn(warning);
      },
    },
    readerOptions,
  );

  return {
    push: (chunk) => reader.push(chunk),
    end() {
      reader.end();
      // No header at all (an empty file): none of the schema's columns is there.
      if (width === -1) {
        for (const f of fields) {
          collector.add({ row: 1, field: f.name, code: 'missing_column', message: messages.missingColumn(f.name), value: null });
        }
      }
    },
  };
}

function jsonReader(
  schema: SchemaModel,
  fields: CompiledField[],
  options: ValidateOptions,
  collector: Collector,
  startRow: (row: number) => boolean,
  state: State,
): Reader {
  if (options.delimiter !== undefined) {
    collector.warn({ code: 'ignored_option', message: messages.ignoredOption('delimiter', 'JSON') });
  }
  const readerOptions: JsonReaderOptions = {};
  if (options.jsonShape !== undefined) readerOptions.shape = options.jsonShape;
  const root = buildJsonTree(fields);
  const strict = !schema.additionalProperties;
  const out: Failure[] = [];

  const valueIssue = (row: number, recordPath: string, node: JsonNode, f: Failure, value: string | null) => {
    collector.rowIssue({ row, field: node.name, code: f.code, message: f.message, value, path: recordPath + node.relPath });
  };

  const checkObject = (obj: Record<string, unknown>, parent: JsonNode, row: number, recordPath: string) => {
    const children = parent.children;
    for (let i = 0; i < children.length; i++) {
      const child = children[i] as JsonNode;
      const value = child.inherited && !Object.hasOwn(obj, child.key) ? undefined : obj[child.key];
      if (value === undefined || value === null) {
        for (const required of child.requiredBelow) valueIssue(row, recordPath, required, REQUIRED, null);
        continue;
      }
      const field = child.field;
      if (field !== undefined) {
        field.checkJson(value, row, out);
        if (out.length !== 0) {
          const shown = jsonValueText(value);
          for (let j = 0; j < out.length; j++) valueIssue(row, recordPath, child, out[j] as Failure, shown);
          out.length = 0;
        }
      }
      if (child.children.length > 0) {
        if (isJsonObject(value)) checkObject(value, child, row, recordPath);
        else if (field === undefined) {
          const notObject: Failure = { code: 'type', message: messages.jsonObject(child.children.map((c) => c.key)) };
          valueIssue(row, recordPath, child, notObject, jsonValueText(value));
        }
      }
    }
    if (strict) {
      for (const key of Object.keys(obj)) {
        if (parent.childKeys.has(key)) continue;
        const name = parent.name === '' ? key : `${parent.name}.${key}`;
        collector.rowIssue({
          row,
          field: name,
          code: 'additional_property',
          message: messages.additionalProperty(name),
          value: jsonValueText(obj[key]),
          path: recordPath + parent.relPath + pathSegment(key),
        });
      }
    }
  };

  const reader = createJsonReader(
    {
      record(value, row, path) {
        if (!startRow(row)) return;
        if (isJsonObject(value)) {
          checkObject(value, root, row, path);
        } else {
          collector.rowIssue({
            row,
            field: '',
            code: 'not_an_object',
            message: messages.notAnObject(describeJsonValue(value)),
            value: jsonValueText(value),
            path,
          });
        }
      },
      issue(row, code, message, path) {
        const issue: Issue = { row, field: '', code, message, value: null, path };
        if (row < 1) {
          if (!state.stopped) collector.add(issue);
        } else if (startRow(row)) {
          collector.rowIssue(issue);
        }
      },
      warning(warning) {
        collector.warn(warning);
      },
    },
    readerOptions,
  );
  return reader;
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

export function validateBytes(schema: SchemaModel, bytes: Uint8Array, options: ValidateOptions): ValidationResult {
  const validator = createValidator(schema, options);
  validator.push(bytes);
  return validator.end();
}
