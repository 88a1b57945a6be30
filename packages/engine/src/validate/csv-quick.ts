// The CSV fast path: most rows of a real file are well-formed and clean, and cutting each of
// them into an array of cell strings only to check the cells was most of the engine's CSV time.
// This walks a record's text once, finds each cell's extent the way the record parser does, and
// hands the cell to its field's compiled check where it lies (text[start, end)), so a clean cell
// never becomes a string of its own unless its check needs one (a regular expression).
//
// It answers only "this record is clean, the next one starts here". At the first thing it would
// have to report, or does not handle (an escaped quote, text after a closing quote, a cell count
// other than the header's, a record not wholly in the text, an oversized cell), it gives up and
// the record is read the normal way, which then says everything there is to say. So the two paths
// cannot disagree about a record with issues: only one of them ever reports.

import type { QuickCsvRecord } from '../csv/reader.ts';
import { spanIsOneOf as isOneOf } from './rules/span.ts';
import type { CompiledField, Failure } from './compile.ts';
import { ABSENT, type CompiledRules, type RowView, type RuleFailure } from './cross-field.ts';

/** The schema's cross-field rules and where their slots' cells are (column per slot, or -1). */
export interface QuickRules {
  rules: CompiledRules;
  view: RowView;
  slotColumns: Int32Array;
}

const GIVE_UP = -1;
const LF = 10;
const CR = 13;
const QUOTE = 34;

/**
 * `columns[i]` is the field checked in column i of the header, if any. `startRow` is the run's: a
 * record past the row limit is left to the normal path, which ignores it.
 */
export function createQuickCsvRecord(
  columns: readonly (CompiledField | undefined)[],
  delimiter: string,
  maxFieldBytes: number,
  startRow: (row: number) => boolean,
  quickRules?: QuickRules,
  missingValues?: readonly string[],
): QuickCsvRecord {
  const last = columns.length - 1;
  const delimCode = delimiter.charCodeAt(0);
  // The record parser counts UTF-8 bytes only past this many characters; so does this path, by
  // giving up.
  const safeChars = Math.floor(maxFieldBytes / 3);
  const checks = columns.map((field) => field?.checkSpan);
  const required = columns.map((field) => field?.required === true);
  const stateful = columns.map((field) => field?.stateful === true);
  const out: Failure[] = [];
  // Checks that remember values across rows (unique) run only once the record is otherwise clean:
  // column, start and end of each such cell.
  const deferred: number[] = [];
  // With cross-field rules: each cell's extent, by column, for the rules to read once the record
  // is otherwise clean (a record any rule fails is left to the normal path, which reports it).
  const cellStarts = new Int32Array(columns.length);
  const cellEnds = new Int32Array(columns.length);
  const ruleFailures: RuleFailure[] = [];

  // The text being read and the next delimiter, line feed and carriage return at or after where
  // each was last searched: found with indexOf, each character looked at about once per text.
  // They hold for searches from any position at or past `reached`, the furthest one searched from.
  let text = '';
  let reached = 0;
  let nextDelim = -1;
  let nextLF = -1;
  let nextCR = -1;

  function useText(piece: string, start: number): void {
    // An equal text has the same positions, so only going back before `reached` needs new searches.
    if (piece === text && start >= reached) return;
    text = piece;
    nextDelim = nextLF = nextCR = -1;
    reached = 0;
  }

  function at(found: number): number {
    return found < 0 ? text.length : found;
  }

  /** Where record `row` at text[start] ends (after its line break), or GIVE_UP. */
  function walk(start: number, end: number, row: number): number {
    let i = start;
    for (let col = 0; ; col++) {
      let cellStart = i;
      let cellEnd: number;
      if (i < end && text.charCodeAt(i) === QUOTE) {
        // A quoted cell: plain when its closing quote is followed by what ends a cell. `""` inside
        // is left to the normal path, which unescapes it.
        cellEnd = text.indexOf('"', i + 1);
        if (cellEnd < 0 || cellEnd + 1 >= end) return GIVE_UP;
        cellStart = i + 1;
        i = cellEnd + 1;
      } else {
        reached = i;
        if (nextDelim < i) nextDelim = at(text.indexOf(delimiter, i));
        if (nextLF < i) nextLF = at(text.indexOf('\n', i));
        if (nextCR < i) nextCR = at(text.indexOf('\r', i));
        cellEnd = nextDelim < nextLF ? nextDelim : nextLF;
        if (nextCR < cellEnd) cellEnd = nextCR;
        if (cellEnd >= end) return GIVE_UP;
        i = cellEnd;
      }
      if (cellEnd - cellStart > safeChars) return GIVE_UP;
      // A cell written as a missing value (Table Schema's `NA`) reads as an empty one.
      if (missingValues !== undefined && isOneOf(text, cellStart, cellEnd, missingValues))
        cellEnd = cellStart;
      cellStarts[col] = cellStart;
      cellEnds[col] = cellEnd;

      const check = checks[col];
      if (check !== undefined) {
        if (cellEnd === cellStart) {
          if (required[col] === true) return GIVE_UP;
        } else if (stateful[col] === true) {
          deferred.push(col, cellStart, cellEnd);
        } else {
          check(text, cellStart, cellEnd, row, out);
          if (out.length !== 0) return GIVE_UP;
        }
      }

      const c = text.charCodeAt(i);
      if (c === delimCode) {
        // More cells than the header: the normal path reports extra_cells.
        if (col === last) return GIVE_UP;
        i++;
        continue;
      }
      if (c === LF) return col === last ? i + 1 : GIVE_UP;
      if (c !== CR || col !== last || i + 1 >= end) return GIVE_UP;
      return text.charCodeAt(i + 1) === LF ? i + 2 : i + 1;
    }
  }

  function deferredPass(row: number): boolean {
    for (let k = 0; k < deferred.length; k += 3) {
      const check = checks[deferred[k] as number] as CompiledField['checkSpan'];
      check(text, deferred[k + 1] as number, deferred[k + 2] as number, row, out);
      if (out.length !== 0) return false;
    }
    return true;
  }

  /** The rules on the record's cells: true when none fails (uniqueTogether last, as unique). */
  const ruleSet = quickRules?.rules;
  const ruleView = quickRules?.view;
  const slotColumns = quickRules?.slotColumns ?? new Int32Array(0);
  const slotCount = slotColumns.length;
  const viewStarts = ruleView?.starts ?? new Int32Array(0);
  const viewEnds = ruleView?.ends ?? new Int32Array(0);
  // Every slot reads the same text, which changes only with the decoded piece: set when it does.
  let viewText: string | undefined;
  function rulesPass(row: number): boolean {
    const rules = ruleSet as CompiledRules;
    const view = ruleView as RowView;
    if (text !== viewText) {
      viewText = text;
      view.texts.fill(text);
    }
    for (let s = 0; s < slotCount; s++) {
      const col = slotColumns[s] as number;
      if (col < 0) {
        viewStarts[s] = ABSENT;
        continue;
      }
      const start = cellStarts[col] as number;
      const end = cellEnds[col] as number;
      // An empty value is no value, as for `required` (RowView.set).
      viewStarts[s] = start === end ? ABSENT : start;
      viewEnds[s] = end;
    }
    rules.checkRow(view, row, ruleFailures);
    if (ruleFailures.length === 0 && rules.stateful) rules.checkKeys(view, row, ruleFailures);
    if (ruleFailures.length === 0) return true;
    ruleFailures.length = 0;
    return false;
  }

  return (piece, start, end, row) => {
    if (!startRow(row)) return GIVE_UP;
    useText(piece, start);
    let after = walk(start, end, row);
    if (after >= 0 && deferred.length !== 0 && !deferredPass(row)) after = GIVE_UP;
    if (after >= 0 && quickRules !== undefined && !rulesPass(row)) after = GIVE_UP;
    // Setting an array's length is a runtime call: only when there is something to drop.
    if (out.length !== 0) out.length = 0;
    if (deferred.length !== 0) deferred.length = 0;
    return after;
  };
}

/**
 * A row handed over as cells (CellRows.row), as wide as the header: cell c is
 * texts[from + c][starts[from + c], ends[from + c]). True when the row is clean, read as the fast path above reads a
 * record (its checks in the same order, stateful ones and the rules last); false leaves the row
 * to the normal path, which then says everything there is to say.
 */
export type QuickCellRow = (
  texts: readonly string[],
  starts: Int32Array,
  ends: Int32Array,
  from: number,
  row: number,
) => boolean;

export function createQuickCellRow(
  columns: readonly (CompiledField | undefined)[],
  startRow: (row: number) => boolean,
  quickRules?: QuickRules,
  missingValues?: readonly string[],
): QuickCellRow {
  const checks = columns.map((field) => field?.checkSpan);
  const required = columns.map((field) => field?.required === true);
  const stateful = columns.map((field) => field?.stateful === true);
  const out: Failure[] = [];
  const deferred: number[] = [];
  const ruleFailures: RuleFailure[] = [];
  const slotColumns = quickRules?.slotColumns ?? new Int32Array(0);

  function clean(
    texts: readonly string[],
    starts: Int32Array,
    ends: Int32Array,
    from: number,
    row: number,
  ) {
    for (let col = 0; col < checks.length; col++) {
      const check = checks[col];
      if (check === undefined) continue;
      const text = texts[from + col] as string;
      const start = starts[from + col] as number;
      const end = ends[from + col] as number;
      if (
        start === end ||
        (missingValues !== undefined && isOneOf(text, start, end, missingValues))
      ) {
        if (required[col] === true) return false;
      } else if (stateful[col] === true) {
        deferred.push(col);
      } else {
        check(text, start, end, row, out);
        if (out.length !== 0) return false;
      }
    }
    for (let k = 0; k < deferred.length; k++) {
      const col = deferred[k] as number;
      (checks[col] as CompiledField['checkSpan'])(
        texts[from + col] as string,
        starts[from + col] as number,
        ends[from + col] as number,
        row,
        out,
      );
      if (out.length !== 0) return false;
    }
    if (quickRules === undefined) return true;
    const { rules, view } = quickRules;
    for (let s = 0; s < slotColumns.length; s++) {
      const col = slotColumns[s] as number;
      const text = col < 0 ? '' : (texts[from + col] as string);
      const start = col < 0 ? 0 : (starts[from + col] as number);
      const end = col < 0 ? 0 : (ends[from + col] as number);
      // A missing value, like an empty one, is no value (RowView.set).
      if (
        start === end ||
        (missingValues !== undefined && isOneOf(text, start, end, missingValues))
      )
        view.absent(s);
      else view.set(s, text, start, end);
    }
    rules.checkRow(view, row, ruleFailures);
    if (ruleFailures.length === 0 && rules.stateful) rules.checkKeys(view, row, ruleFailures);
    if (ruleFailures.length === 0) return true;
    ruleFailures.length = 0;
    return false;
  }

  return (texts, starts, ends, from, row) => {
    if (!startRow(row)) return false;
    const ok = clean(texts, starts, ends, from, row);
    if (out.length !== 0) out.length = 0;
    if (deferred.length !== 0) deferred.length = 0;
    return ok;
  };
}
