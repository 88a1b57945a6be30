// Clean CSV records taken on their bytes by the WebAssembly byte core (decision 248): the core
// reads a stretch of whole lines and stops at the first record it cannot call clean; the reader
// then reads that record the usual way and offers the core the rest. Fields whose checks the
// core does not make (bytecore/field-ops.ts: unique, reference lists, other patterns) are checked
// here with their compiled closures. The cross-field rules the core proves (bytecore/rule-ops.ts)
// run there, uniqueTogether on its table of seen keys, which lives in the core's memory
// (bytecore/key-tables.ts). The other rules run here, on the offsets the core found, in the same
// order as the text fast path (csv-quick.ts) runs them.

import type { ByteRecords } from '../csv/reader.ts';
import { encodeProgram, type CoreColumn, type CoreRule } from '../bytecore/csv-program.ts';
import type { KeyTableExports } from '../bytecore/key-tables.ts';
import { instantiateByteCore } from '../bytecore/load.ts';
import { proveRules } from '../bytecore/core-rules.ts';
import type { FieldSpec } from '../model.ts';
import type { CompiledField, Failure } from './compile.ts';
import type { QuickRules } from './csv-quick.ts';
import { ABSENT, type RuleFailure, type RuleSubset } from './cross-field.ts';
import type { Run } from './run.ts';

interface CoreExports extends KeyTableExports {
  reserve(bytes: number): number;
  scan(
    prog: number,
    input: number,
    len: number,
    out: number,
    maxRecords: number,
    ascii: boolean,
    firstRow: number,
  ): number;
  scannedEnd(): number;
  scannedRows(): number;
  scannedLastRow(): number;
  scannedUnits(): number;
  scannedSplit(): boolean;
}

/** Records per call of the core: bounds the offsets it writes for JavaScript's columns. */
const RECORDS_PER_SCAN = 4096;
/** The core is left off for the rest of a run that it keeps handing back records (see below). */
const GIVE_UP_AFTER_STOPS = 256;

/**
 * The byte core for a header's columns; undefined where it cannot serve (no WebAssembly, a
 * delimiter or missing values it does not read): the text fast path then takes every record.
 */
export function createByteRecords(
  run: Run,
  columns: readonly (CompiledField | undefined)[],
  delimiter: string,
  maxFieldBytes: number,
  quickRules: QuickRules | undefined,
): ByteRecords | undefined {
  if (run.options.byteCore === false || run.schema.missingValues !== undefined) return undefined;
  // A header read as no cells at all (a broken one): every record has more cells than it.
  if (columns.length === 0) return undefined;
  const delimCode = delimiter.charCodeAt(0);
  if (delimiter.length !== 1 || delimCode >= 0x80) return undefined;
  const instance = instantiateByteCore();
  if (instance === undefined) return undefined;
  const core = instance.exports as CoreExports;

  const checked = (col: number) => {
    const field = columns[col];
    return field !== undefined && field.byteOps !== null && !field.stateful;
  };
  // The core stops at an empty cell of a required column.
  const filled = (col: number) => columns[col]?.required === true;
  const { coreRules, jsRules } = splitRules(run, quickRules, { checked, filled }, core);
  // The rules left here read their columns' cells on the core's offsets; a rule finds the value
  // not yet read by its field's check (LastValue.is) and reads it itself.
  const ruleColumns = new Set(
    [...(jsRules?.slots ?? [])].map((slot) => quickRules?.slotColumns[slot] as number),
  );
  const coreColumns: CoreColumn[] = columns.map((field, col) => {
    const js = field !== undefined && !checked(col);
    return {
      required: field?.required === true,
      js,
      offsets: !js && ruleColumns.has(col),
      ops: field?.byteOps ?? [],
    };
  });
  // The columns whose offsets the core writes, in column order, and their fields to run here
  // (undefined: the core checked it).
  const outColumns: number[] = [];
  coreColumns.forEach((c, col) => (c.js || c.offsets) && outColumns.push(col));
  const jsChecks = outColumns.map((col) =>
    coreColumns[col]?.js === true ? (columns[col] as CompiledField) : undefined,
  );
  const outCount = outColumns.length;
  // Per record: its start, its row, the units before it less its start, then two per column.
  const stride = 3 + 2 * outCount;
  const recordOut = outCount > 0;
  // The record parser's limit, as characters: an ASCII cell's bytes (csv-quick.ts safeChars).
  const program = encodeProgram(coreColumns, delimCode, Math.floor(maxFieldBytes / 3), coreRules);

  let prog = -1;
  let input = 0;
  let out = 0;
  let capacity = 0;
  /** Makes room for `bytes` of input; false when the memory cannot grow. */
  function reserve(bytes: number): boolean {
    if (bytes <= capacity) return true;
    capacity = Math.max(bytes, 64 * 1024);
    const programBytes = (program.length + 15) & ~15;
    const inputBytes = (capacity + 16 + 15) & ~15;
    const base = core.reserve(programBytes + inputBytes + RECORDS_PER_SCAN * stride * 4);
    if (base < 0) return false;
    prog = base;
    input = base + programBytes;
    out = input + inputBytes;
    new Uint8Array(core.memory.buffer).set(program, prog);
    return true;
  }

  // A U+FEFF that starts a scan is a character of its cell, not a byte order mark to drop.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const failures: Failure[] = [];
  const ruleFailures: RuleFailure[] = [];
  let stops = 0;
  let taken = 0;

  // Where each rule slot's cell is among the offsets (-1: no column).
  const slotOffsets = Int32Array.from(quickRules?.slotColumns ?? [], (col) =>
    outColumns.indexOf(col),
  );
  let viewText: string | undefined;

  /**
   * The checks the core left to JavaScript, and the rules, on record r of a scan (`text`: the
   * records it took, decoded). True when the record stays clean.
   */
  function jsClean(offsets: Int32Array, r: number, text: string, row: number) {
    const at = r * stride + 3;
    for (let pass = 0; pass < 2; pass++) {
      // Checks that remember values (unique) last, once the rest of the record is clean.
      const stateful = pass === 1;
      for (let k = 0; k < outCount; k++) {
        const field = jsChecks[k];
        if (field === undefined) continue;
        const start = offsets[at + 2 * k] as number;
        const end = offsets[at + 2 * k + 1] as number;
        if (start === end || field.stateful !== stateful) continue;
        field.checkSpan(text, start, end, row, failures);
        if (failures.length !== 0) return false;
      }
    }
    if (jsRules === undefined) return true;
    const view = (quickRules as QuickRules).view;
    if (text !== viewText) {
      viewText = text;
      view.texts.fill(text);
    }
    for (let s = 0; s < slotOffsets.length; s++) {
      const k = slotOffsets[s] as number;
      const start = k < 0 ? 0 : (offsets[at + 2 * k] as number);
      const end = k < 0 ? 0 : (offsets[at + 2 * k + 1] as number);
      view.starts[s] = start === end ? ABSENT : start;
      view.ends[s] = end;
    }
    jsRules.checkRow(view, row, ruleFailures);
    if (ruleFailures.length === 0 && jsRules.stateful) jsRules.checkKeys(view, row, ruleFailures);
    return ruleFailures.length === 0;
  }

  // What the core's input holds: bytes [copiedStart, copiedEnd) of `copiedFrom`. After each record
  // the core stops on, the reader reads it and offers the rest of the same lines again: those
  // bytes are already there (at 1% bad rows, copying them again moved each piece ~5 times).
  let copiedFrom: Uint8Array | undefined;
  let copiedStart = 0;
  let copiedEnd = 0;

  const records: ByteRecords = {
    active: true,
    rows: 0,
    chars: 0,
    take(bytes, start, end, row, ascii) {
      records.rows = 0;
      records.chars = 0;
      let base = input + (start - copiedStart);
      if (bytes !== copiedFrom || end !== copiedEnd || start < copiedStart) {
        if (!reserve(end - start)) {
          records.active = false;
          return start;
        }
        new Uint8Array(core.memory.buffer).set(bytes.subarray(start, end), input);
        copiedFrom = bytes;
        copiedStart = start;
        copiedEnd = end;
        base = input;
      }
      let at = 0;
      const length = end - start;
      while (at < length) {
        const room = Math.min(run.roomForRows(), RECORDS_PER_SCAN);
        if (room === 0) break;
        const firstRow = row + records.rows;
        let count = core.scan(prog, base + at, length - at, out, room, ascii, firstRow);
        let stop = core.scannedEnd();
        let rows = core.scannedRows();
        let lastRow = core.scannedLastRow();
        let units = core.scannedUnits();
        // A scan that ended early on purpose (scannedSplit) goes on with the next one.
        let split = core.scannedSplit();
        if (recordOut && count > 0) {
          // Only the records the core took: a stretch it stops in often is decoded once.
          const text =
            outCount > 0 ? decoder.decode(bytes.subarray(start + at, start + at + stop)) : '';
          // The scan may have grown the memory (a key table), which replaces its buffer.
          const offsets = new Int32Array(core.memory.buffer, out, count * stride);
          for (let r = 0; r < count; r++) {
            const rowAt = offsets[r * stride + 1] as number;
            if (!jsClean(offsets, r, text, firstRow + rowAt)) {
              failures.length = 0;
              ruleFailures.length = 0;
              stop = offsets[r * stride] as number;
              units = stop + (offsets[r * stride + 2] as number);
              split = false;
              rows = rowAt;
              count = r;
              if (r > 0) lastRow = offsets[(r - 1) * stride + 1] as number;
              break;
            }
          }
        }
        if (count > 0) run.startCleanRows(row + records.rows + lastRow, count);
        records.rows += rows;
        records.chars += units;
        taken += count;
        at += stop;
        // Nothing taken: the reader reads on (also a guard: a scan that moves nowhere ends it).
        if (stop === 0 || (count < room && !split)) break;
      }
      if (at < length && ++stops >= GIVE_UP_AFTER_STOPS && stops * 4 > taken)
        records.active = false;
      return start + at;
    },
  };
  return records;
}

/** The bound rules the core proves, and the rules left to JavaScript (undefined: none). */
function splitRules(
  run: Run,
  quickRules: QuickRules | undefined,
  { checked, filled }: Record<'checked' | 'filled', (column: number) => boolean>,
  core: KeyTableExports,
): { coreRules: CoreRule[]; jsRules: RuleSubset | undefined } {
  if (quickRules === undefined) return { coreRules: [], jsRules: undefined };
  const { rules, slotColumns } = quickRules;
  const fields = run.schema.fields;
  const fieldOf = (name: string) => {
    const index = fields.findIndex((f) => f.name === name);
    const slot = rules.slotFields.indexOf(index);
    const column = slotColumns[slot] as number;
    return {
      spec: fields[index] as FieldSpec,
      column,
      checked: checked(column),
      filled: filled(column),
    };
  };
  const { coreRules, left } = proveRules(rules, run.schema.rules ?? [], fieldOf, core);
  return { coreRules, jsRules: left.slots.size === 0 ? undefined : left };
}
