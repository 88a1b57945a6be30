// Clean JSON records taken on their bytes by the WebAssembly byte core (decision 252), as
// csv-bytes.ts takes CSV records: the core reads the records of an array or NDJSON file from a
// record boundary and stops at the first one it cannot call clean, which the reader then reads
// the usual way (with the text fast path, json-quick.ts, or JSON.parse). The core checks the
// schema's properties, at the top and in the nested objects it describes, with the same byte ops
// as CSV cells, only on values whose JSON reading is the text those ops read
// (bytecore/field-ops.ts): a string for the text types (with simple escapes only where the ops
// just count characters), a short plain number literal for integer and number fields, true or
// false for booleans. Any other property of the schema (unique, reference lists, a field whose
// value is an object) stops it wherever it holds a value. With cross-field rules, the core also
// says where each record's values of the rules' fields lie, and the rules it does not prove run
// here on them (decision 255): a record they do not pass is left to the reader, as the core leaves
// a record. uniqueTogether's keys are looked up in tables in the core's memory (decision 256).

import type { JsonByteRecords } from '../json/reader.ts';
import { shortestNumberEnd } from '../json/numbers.ts';
import {
  encodeProgram,
  JSON_KINDS,
  type CoreColumn,
  type CoreRule,
} from '../bytecore/csv-program.ts';
import { proveRules } from '../bytecore/core-rules.ts';
import type { RuleField } from '../bytecore/rule-ops.ts';
import type { KeyTableExports } from '../bytecore/key-tables.ts';
import { instantiateByteCore } from '../bytecore/load.ts';
import type { ByteOp } from '../bytecore/field-ops.ts';
import type { CompiledField } from './compile.ts';
import type { FieldSpec } from '../model.ts';
import type { JsonNode } from './json-fields.ts';
import type { QuickJsonRules } from './json-quick.ts';
import { ABSENT, RowView, type RuleFailure, type RuleSubset } from './cross-field.ts';
import type { Run } from './run.ts';

interface CoreExports extends KeyTableExports {
  reserve(bytes: number): number;
  jsonRecords(
    prog: number,
    input: number,
    len: number,
    maxRecords: number,
    ndjson: boolean,
    seen: number,
    out: number,
    slots: number,
    values: number,
    cellColumns: number,
    firstRow: number,
  ): number;
  scannedValueBytes(): number;
  jsonArrayScan(state: number, input: number, len: number, firstCut: boolean): number;
  scannedEnd(): number;
  scannedLineFeeds(): number;
  scannedColumns(): number;
}

/** The core is left off for the rest of a run that it keeps handing back records (see below). */
const GIVE_UP_AFTER_STOPS = 256;
/** With rules: records a take reads at most (each has a row of slots in the core's memory). */
const SLOT_ROWS = 4096;
/** A rule slot in a row (wasm/csv-core.ts jsonSlot): start, end, kind (SLOT_ kinds there). */
const SLOT_WORDS = 3;
const SLOT_ABSENT = 0;
const SLOT_NUMBER = 3;

/**
 * The byte core for the records under `root`; undefined where it cannot serve (no WebAssembly,
 * the core turned off, nothing it could check).
 */
export function createJsonByteRecords(
  run: Run,
  root: JsonNode,
  quickRules?: QuickJsonRules,
): JsonByteRecords | undefined {
  if (run.options.byteCore === false) return undefined;
  const nodeColumns = new Map<JsonNode, number>();
  const columns = coreColumns(run, root, nodeColumns);
  if (columns.length === 0 || columns.every((c) => c.js)) return undefined;
  const instance = instantiateByteCore();
  if (instance === undefined) return undefined;
  const core = instance.exports as CoreExports;
  const slots =
    quickRules === undefined
      ? undefined
      : coreSlots(run, root, columns, nodeColumns, quickRules, core);
  if (slots === null) return undefined;
  const coreRules = slots?.coreRules ?? [];
  const program = encodeProgram(columns, root.strict ? 1 : 0, 0, coreRules, root.children.length);
  const slotCount = slots?.ruleSlot.length ?? 0;
  // A record's row: its slots, three words each.
  const rowWords = slotCount * SLOT_WORDS;
  const cellColumns = coreRules.length > 0 ? columns.length : 0;

  let prog = -1;
  let seen = 0;
  let state = 0;
  let input = 0;
  let capacity = 0;
  let loaded = 0;
  /** Makes room for `bytes` of input; false when the memory cannot grow. */
  function reserve(bytes: number): boolean {
    if (bytes <= capacity) return true;
    capacity = Math.max(bytes, 64 * 1024);
    const programBytes = (program.length + 15) & ~15;
    // The columns' stamps, then the array scan's seven state words.
    const seenBytes = (columns.length * 4 + 15) & ~15;
    const inputBytes = (capacity + 16 + 15) & ~15;
    const slotBytes = SLOT_ROWS * rowWords * 4;
    // The values' bytes, a space after each number (wasm/csv-core.ts jsonSlot).
    const valueBytes = slotCount === 0 ? 0 : 2 * inputBytes;
    const base = core.reserve(programBytes + seenBytes + 32 + inputBytes + slotBytes + valueBytes);
    if (base < 0) return false;
    prog = base;
    seen = base + programBytes;
    state = seen + seenBytes;
    input = state + 32;
    out = input + inputBytes;
    values = out + slotBytes;
    const memory = new Uint8Array(core.memory.buffer);
    memory.set(program, prog);
    // Stamps of earlier records would be records' numbers the core has not reached yet.
    memory.fill(0, seen, seen + seenBytes);
    return true;
  }

  let stops = 0;
  let taken = 0;
  let out = 0;
  let values = 0;
  // The rules left here run on every record the core takes, even with no slot of their own to
  // read (their fields absent, as any value of them would have stopped the core).
  const passRules = slots?.left === undefined ? undefined : createRulePass(slots.left, slots, core);
  const records: JsonByteRecords = {
    active: true,
    records: 0,
    lineFeeds: 0,
    columns: 0,
    load(bytes) {
      if (!reserve(bytes.length)) {
        records.active = false;
        return;
      }
      new Uint8Array(core.memory.buffer).set(bytes, input);
      loaded = bytes.length;
    },
    take(start, row, ndjson) {
      records.records = 0;
      const room = run.roomForRows();
      // Past the row limit nothing is checked: the reader reads on as text.
      if (room === 0) records.active = false;
      if (room === 0 || start >= loaded) return start;
      // The room is Infinity without a row limit, which WebAssembly's i32 would read as 0.
      const most = Math.min(room, passRules === undefined ? 0x3fffffff : SLOT_ROWS);
      const length = loaded - start;
      const rows = rowWords > 0 ? out : 0;
      const scan = (most: number) =>
        core.jsonRecords(
          prog,
          input + start,
          length,
          most,
          ndjson,
          seen,
          rows,
          slotCount,
          values,
          cellColumns,
          row + 1,
        );
      let count = scan(most);
      if (count > 0 && passRules !== undefined) {
        const clean = passRules(out, values, count, row);
        // Taken again up to the record the rules stop at, for the counts of the bytes taken.
        if (clean < count) count = clean === 0 ? 0 : scan(clean);
      }
      if (count === 0) {
        if (++stops >= GIVE_UP_AFTER_STOPS && stops * 4 > taken) records.active = false;
        return start;
      }
      run.startCleanRows(row + count, count);
      taken += count;
      records.records = count;
      records.lineFeeds = core.scannedLineFeeds();
      records.columns = core.scannedColumns();
      return start + core.scannedEnd();
    },
    elementEnd(start, from) {
      const words = new Int32Array(core.memory.buffer, state, 7);
      words.set([0, from.inString ? 1 : 0, from.escaped ? 1 : 0, from.depth]);
      const found = core.jsonArrayScan(state, input + start, loaded - start, true);
      return found < 0 ? -1 : start + found;
    },
  };
  return records;
}

/**
 * The cross-field rules on the core: those it proves (as for CSV, bytecore/rule-ops.ts), the
 * rules left to JavaScript, and for each slot of a record's row the rule slot it fills (those the
 * left rules read).
 */
interface CoreSlots {
  /** The rule slots of the schema's rules (the view's size). */
  slots: number;
  coreRules: CoreRule[];
  left: RuleSubset | undefined;
  ruleSlot: number[];
}

/**
 * The rules split between the core and JavaScript; null where two rule slots are one property
 * (the core is then not used). A column the core does not check stops it wherever the property
 * has a value, so the rules, on the core and here, read it as absent, which it then is.
 */
function coreSlots(
  run: Run,
  root: JsonNode,
  columns: CoreColumn[],
  nodeColumns: ReadonlyMap<JsonNode, number>,
  quickRules: QuickJsonRules,
  core: KeyTableExports,
): CoreSlots | null {
  const { rules, slotKeys } = quickRules;
  const slotColumns: number[] = [];
  for (const keys of slotKeys) {
    let node: JsonNode | undefined = root;
    for (const key of keys) node = node?.children.find((c) => c.key === key);
    const at = node === undefined ? undefined : nodeColumns.get(node);
    if (at === undefined || slotColumns.includes(at)) return null;
    slotColumns.push(at);
  }
  const checked = (column: CoreColumn) =>
    !column.js && column.object === undefined && Boolean(column.jsonKinds);
  const fields = run.schema.fields;
  const fieldOf = (name: string): RuleField => {
    const index = fields.findIndex((f) => f.name === name);
    const column = slotColumns[rules.slotFields.indexOf(index)] as number;
    return {
      spec: fields[index] as FieldSpec,
      column,
      checked: checked(columns[column] as CoreColumn),
      // A required property may sit in an optional object: the rules' reading of it is left as is.
      filled: false,
    };
  };
  const { coreRules, left } = proveRules(rules, run.schema.rules ?? [], fieldOf, core);
  const ruleSlot: number[] = [];
  for (const s of left.slots) {
    const column = columns[slotColumns[s] as number] as CoreColumn;
    if (!checked(column)) continue;
    column.slot = ruleSlot.length;
    // An escaped string's value is not its bytes.
    column.jsonKinds = (column.jsonKinds as number) & ~JSON_KINDS.escapes;
    ruleSlot.push(s);
  }
  return {
    slots: rules.slotFields.length,
    coreRules,
    left: left.slots.size === 0 ? undefined : left,
    ruleSlot,
  };
}

/**
 * The rules left to JavaScript, on the `count` records the core took: their values' places in
 * the core's rows at `out`, the values' bytes at `values`. How many of the records in a row pass;
 * the first is row `row` + 1.
 */
function createRulePass(left: RuleSubset, slots: CoreSlots, core: CoreExports) {
  const { ruleSlot } = slots;
  const view = new RowView(slots.slots);
  const { texts, starts, ends } = view;
  const slotOf = Int32Array.from(ruleSlot);
  const failures: RuleFailure[] = [];
  const decoder = new TextDecoder();
  const stride = ruleSlot.length * SLOT_WORDS;
  return (out: number, values: number, count: number, row: number): number => {
    // The slots say where the values lie in this text, in UTF-16 units.
    const memory = core.memory.buffer;
    const text =
      stride === 0 ? '' : decoder.decode(new Uint8Array(memory, values, core.scannedValueBytes()));
    const words = new Int32Array(memory, out, count * stride);
    for (let r = 0, at = 0; r < count; r++, at += stride) {
      const rowNumber = row + r + 1;
      for (let s = 0; s < starts.length; s++) starts[s] = ABSENT;
      for (let k = 0, w = at; k < slotOf.length; k++, w += SLOT_WORDS) {
        const kind = words[w + 2] as number;
        if (kind === SLOT_ABSENT) continue;
        const slot = slotOf[k] as number;
        // A rule reads each kind the core takes as its text (json-fields.ts slotReading):
        // strings of text types and enums, numbers of number fields, true and false of
        // booleans (see jsonKinds). Never empty: the core leaves "" to JavaScript.
        const start = words[w] as number;
        const end = words[w + 1] as number;
        // A rule reads a number as String() writes it.
        if (kind !== SLOT_NUMBER || shortestNumberEnd(text, start) === end) {
          texts[slot] = text;
          starts[slot] = start;
          ends[slot] = end;
        } else {
          const value = String(Number(text.slice(start, end)));
          view.set(slot, value, 0, value.length);
        }
      }
      left.checkRow(view, rowNumber, failures);
      if (failures.length === 0 && left.stateful) left.checkKeys(view, rowNumber, failures);
      if (failures.length !== 0) {
        failures.length = 0;
        return r;
      }
    }
    return count;
  };
}

/**
 * The core's columns: the record's properties first, then each nested object's, its own
 * together (an object's column says where they are). `nodeColumns` gets each node's column.
 */
function coreColumns(run: Run, root: JsonNode, nodeColumns: Map<JsonNode, number>): CoreColumn[] {
  const columns: CoreColumn[] = [];
  const column = coreColumn(run);
  const objectOf = (node: JsonNode) => {
    const first = columns.length;
    // Its own columns first, placed before any of a nested object's.
    for (const child of node.children) {
      nodeColumns.set(child, columns.length);
      columns.push(column(child));
    }
    node.children.forEach((child, k) => {
      // A property with no field of its own is an object (json-fields.ts): the text fast path
      // walks it (json-quick.ts nodeValue), and so does the core.
      if (child.field === undefined) (columns[first + k] as CoreColumn).object = objectOf(child);
    });
    return { first, count: node.children.length, strict: node.strict };
  };
  objectOf(root);
  return columns;
}

/** How the core reads a property of the schema (a nested object's columns: coreColumns). */
function coreColumn(run: Run) {
  return (node: JsonNode): CoreColumn => {
    const required = node.requiredBelow.length > 0;
    const field = node.field;
    if (field === undefined) return { required, js: false, offsets: false, ops: [], key: node.key };
    const kinds =
      node.object || node.children.length > 0
        ? 0
        : jsonKinds(
            run.schema.fields.find((f) => f.name === field.name),
            field,
          );
    return {
      required,
      js: kinds === 0,
      offsets: false,
      ops: kinds === 0 ? [] : (field?.byteOps ?? []),
      key: node.key,
      jsonKinds: kinds,
    };
  };
}

/**
 * The kinds of JSON value whose reading is the text the field's byte ops read; 0 when the core
 * cannot check the field (then any value of it stops the scan, null aside).
 */
function jsonKinds(spec: FieldSpec | undefined, field: CompiledField): number {
  const ops = field.byteOps;
  if (spec === undefined || ops === null || field.stateful) return 0;
  if (spec.anyValue === true || spec.jsonTypes !== undefined) return 0;
  switch (spec.type) {
    case 'integer':
    case 'number':
      // Other rules read the number as String() writes it, not as its literal.
      return ops.length === 1 && isNumberOp(ops[0] as ByteOp) ? JSON_KINDS.numbers : 0;
    case 'boolean':
      return JSON_KINDS.booleans;
    default:
      // Enums also take numbers and booleans, read as String() writes them: those stop the scan.
      if (field.checkJsonString === undefined) return 0;
      // Past an escape the core counts characters but does not know them.
      return ops.every((op) => op.kind === 'length')
        ? JSON_KINDS.strings | JSON_KINDS.escapes
        : JSON_KINDS.strings;
  }
}

const isNumberOp = (op: ByteOp) => op.kind === 'integer' || op.kind === 'decimal';
