// CSV: the header decides which column feeds each field; each record's cells then go through
// their field's compiled check. Clean records are taken by the fast path (csv-quick.ts) on their
// text; the record handler below sees the rest, and allocates nothing unless a cell fails.

import {
  createCsvReader,
  DEFAULT_MAX_FIELD_BYTES,
  EMPTY_FILE_WARNING,
  type CsvReaderOptions,
  type CsvSink,
} from '../csv/reader.ts';
import { createRecordParser, type RecordParser } from '../csv/record-parser.ts';
import type { Issue } from '../model.ts';
import type { CompiledField, Failure } from './compile.ts';
import { planHeader } from './csv-header.ts';
import { createByteRecords } from './csv-bytes.ts';
import { createQuickCellRow, createQuickCsvRecord, type QuickCellRow } from './csv-quick.ts';
import { truncateValue } from './issue-value.ts';
import { messages } from './messages.ts';
import { REQUIRED, fieldIssue, ruleIssue, type RecordSource, type Run } from './run.ts';
import { RowView, type RuleFailure } from './cross-field.ts';

/**
 * Rows that come as cells, not as CSV bytes to parse (a workbook's sheet, decision 244): they are
 * read as the sheet's comma-separated CSV would be, with the same results.
 */
export interface CellRows {
  /** The first row with a value. */
  header(cells: string[]): void;
  /**
   * Data row `row` (numbered as the CSV's rows would be): `n` cells, cell c being
   * texts[from + c].slice(starts[from + c], ends[from + c]), none longer than maxCellChars.
   */
  row(
    texts: readonly string[],
    starts: Int32Array,
    ends: Int32Array,
    from: number,
    n: number,
    row: number,
  ): void;
  /**
   * The longest cell, in UTF-16 units, that row() takes: CSV never reads one this short as over
   * the field size limit, however it is quoted.
   */
  readonly maxCellChars: number;
  /**
   * The rest comes as CSV through the validator's push() (from a row with a longer cell on):
   * `rows` rows were read so far, header and empty lines included.
   */
  continueAsCsv(rows: number): void;
  /** True once the row limit was passed. */
  readonly stopped: boolean;
}

interface CsvRecordSource extends RecordSource {
  /** Where rows come as cells instead of pushed CSV (see CellRows). */
  cells(): CellRows;
}

export function csvRecords(run: Run): CsvRecordSource {
  const { collector, fields, options } = run;
  if (options.jsonShape !== undefined) {
    collector.warn({
      code: 'ignored_option',
      message: messages.ignoredOption('JSON shape', 'CSV'),
    });
  }
  const maxFieldBytes = options.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES;
  const readerOptions: CsvReaderOptions = {};
  if (options.delimiter !== undefined) readerOptions.delimiter = options.delimiter;
  if (options.maxFieldBytes !== undefined) readerOptions.maxFieldBytes = options.maxFieldBytes;
  if (run.csvChunk !== undefined) readerOptions.chunk = run.csvChunk;

  // From the header: the checked fields in column order, so that a row's issues are in file order.
  let width = -1;
  let boundFields: CompiledField[] = [];
  let boundChecks: CompiledField['checkSpan'][] = [];
  let boundColumns: number[] = [];
  let quickCells: QuickCellRow | undefined;
  const out: Failure[] = [];

  const reportFailures = (row: number, field: CompiledField, value: string) => {
    const shown = truncateValue(value);
    for (let i = 0; i < out.length; i++) {
      collector.rowIssue(fieldIssue(row, field, out[i] as Failure, shown, value));
    }
    out.length = 0;
  };

  // Cross-field rules read the cells of their slots; a slot whose column is missing switches its
  // rules off (missing_column already says so).
  const rules = run.rules;
  // Table Schema's missingValues: cells that mean "no value" like an empty one.
  const missing =
    run.schema.missingValues === undefined ? undefined : new Set(run.schema.missingValues);
  const view = rules === undefined ? undefined : new RowView(rules.slotFields.length);
  let slotColumns = new Int32Array(0);
  const ruleFailures: RuleFailure[] = [];
  const reportRules = (row: number) => {
    for (let i = 0; i < ruleFailures.length; i++) {
      const f = ruleFailures[i] as RuleFailure;
      collector.rowIssue(ruleIssue(row, fields[f.fieldIndex] as CompiledField, f));
    }
    ruleFailures.length = 0;
  };

  const sink: CsvSink = {
    header(cells) {
      if (run.stopped) return;
      width = cells.length;
      const names = fields.map((f) => f.name);
      const plan = planHeader(cells, names, run.schema);
      for (const issue of plan.issues) collector.add({ row: 1, ...issue });
      const bound = fields
        .map((field, k) => ({ field, col: plan.columns[k] as number }))
        .filter((b) => b.col >= 0)
        .sort((a, b) => a.col - b.col);
      boundFields = bound.map((b) => b.field);
      boundChecks = bound.map((b) => b.field.checkSpan);
      boundColumns = bound.map((b) => b.col);
      const columns: (CompiledField | undefined)[] = new Array<undefined>(width).fill(undefined);
      for (const b of bound) columns[b.col] = b.field;
      if (rules !== undefined) {
        slotColumns = Int32Array.from(rules.slotFields, (k) => plan.columns[k] as number);
        rules.bind((slot) => (slotColumns[slot] as number) >= 0);
      }
      const startRow = (row: number) => run.startRow(row);
      // Views of their own: the fast path sets its text only when the text changes.
      const quickRules = () =>
        rules === undefined
          ? undefined
          : { rules, view: new RowView(rules.slotFields.length), slotColumns };
      sink.quickRecord = createQuickCsvRecord(
        columns,
        reader.delimiter ?? ',',
        maxFieldBytes,
        startRow,
        quickRules(),
        run.schema.missingValues,
      );
      quickCells = createQuickCellRow(columns, startRow, quickRules(), run.schema.missingValues);
      sink.byteRecords = createByteRecords(
        run,
        columns,
        reader.delimiter ?? ',',
        maxFieldBytes,
        quickRules(),
      );
    },

    record(cells, row) {
      if (!run.startRow(row)) return;
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
      // Cells past the end of a short row are not checked: missing_cells already says so.
      for (let k = 0; k < boundFields.length; k++) {
        const col = boundColumns[k] as number;
        if (col >= n) continue;
        const value = cells[col] as string;
        if (value.length === 0 || missing?.has(value) === true) {
          const field = boundFields[k] as CompiledField;
          if (field.required) collector.rowIssue(fieldIssue(row, field, REQUIRED, null, ''));
          continue;
        }
        (boundChecks[k] as CompiledField['checkSpan'])(value, 0, value.length, row, out);
        if (out.length !== 0) reportFailures(row, boundFields[k] as CompiledField, value);
      }
      if (rules !== undefined) {
        const v = view as RowView;
        for (let s = 0; s < slotColumns.length; s++) {
          const col = slotColumns[s] as number;
          const cell = col < 0 || col >= n ? '' : (cells[col] as string);
          if (cell === '' || missing?.has(cell) === true) v.absent(s);
          else v.set(s, cell, 0, cell.length);
        }
        rules.checkRow(v, row, ruleFailures);
        rules.checkKeys(v, row, ruleFailures);
        if (ruleFailures.length !== 0) reportRules(row);
      }
    },

    issue(row, code, message, value) {
      const shown = value === null ? null : truncateValue(value);
      const issue: Issue = { row, field: '', code, message, value: shown };
      // Row 1 is the header: its problems belong to the file, not to a data row.
      if (row <= 1) {
        if (!run.stopped) collector.add(issue);
      } else if (run.startRow(row)) {
        collector.rowIssue(issue);
      }
    },

    warning(warning) {
      collector.warn(warning);
    },
  };
  const reader = createCsvReader(sink, readerOptions);

  // How rows arrive: pushed CSV, cells (CellRows), or cells and then CSV read on from their rows.
  let mode: 'csv' | 'cells' | 'cells-then-csv' = 'csv';
  let headerSeen = false;
  let rest: RecordParser | undefined;
  const restDecoder = new TextDecoder();
  const cells: CellRows = {
    maxCellChars: Math.floor(Math.floor(maxFieldBytes / 3) / 2),
    header(names) {
      headerSeen = true;
      sink.header(names);
    },
    row(texts, starts, ends, from, n, row) {
      if (quickCells !== undefined && n === width && quickCells(texts, starts, ends, from, row))
        return;
      const values = new Array<string>(n);
      for (let c = 0; c < n; c++) {
        const k = from + c;
        values[c] = (texts[k] as string).slice(starts[k] as number, ends[k] as number);
      }
      sink.record(values, row);
    },
    continueAsCsv(rows) {
      // Before the header, the whole table comes as CSV, read as any CSV is.
      if (!headerSeen) {
        mode = 'csv';
        return;
      }
      mode = 'cells-then-csv';
      // As the CSV reader's own parser, past the header and `rows` rows; the bytes are UTF-8.
      rest = createRecordParser(',', maxFieldBytes, 0, {
        record: (values, row) => sink.record(values, row),
        error: (row, message, value) => sink.issue(row, 'parse_error', message, value),
        quick: (text, start, end, row) => sink.quickRecord?.(text, start, end, row) ?? -1,
      });
      rest.addRows(rows);
    },
    get stopped() {
      return run.stopped;
    },
  };

  return {
    push(chunk) {
      if (mode === 'csv') reader.push(chunk);
      else rest?.feed(restDecoder.decode(chunk, { stream: true }), false);
    },
    boundary: () => reader.boundary(),
    cells() {
      mode = 'cells';
      return cells;
    },
    end() {
      if (mode === 'csv') reader.end();
      else if (rest !== undefined) rest.feed(restDecoder.decode(), true);
      else if (!headerSeen) collector.warn(EMPTY_FILE_WARNING);
      // No header at all (an empty file): none of the schema's columns is there.
      if (width !== -1) return;
      for (const { name } of fields) {
        const message = messages.missingColumn(name);
        collector.add({ row: 1, field: name, code: 'missing_column', message, value: null });
      }
    },
  };
}
