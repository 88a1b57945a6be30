// Cross-field rules compiled into per-row checks. A rule is JSON data (model.ts CrossFieldRule);
// this turns each into a closure over the few values of the row it reads, so no text is ever
// evaluated. The values of a row arrive as spans (RowView), exactly as the field checks read them:
// the CSV fast path hands its cells where they lie in the decoded text, the normal path its cell
// strings, the JSON side the scalar values of the record.
//
// Values compare as their fields read them (schema/cross-field.ts valueKind): number and integer
// as exact decimals, dates by calendar in their declared format, booleans by reading, other types
// as text. A value that is empty never fails compare or sum, and one that is not of its field's
// type (already a `type` error) makes a rule that needs it skip the row.

import type { CrossFieldRule, FieldSpec, RuleCondition, SchemaModel } from '../model.ts';
import { DEFAULT_FALSY, DEFAULT_TRUTHY } from '../rules/boolean-spellings.ts';
import {
  compileDateFormat,
  dateKey,
  daysInMonth,
  DEFAULT_DATE_FORMAT,
  parseIsoDate,
  type DateFormat,
} from '../rules/date-format.ts';
import { valueKind, type ValueKind } from '../schema/cross-field.ts';
import { canonicalDecimal } from '../schema/decimal-text.ts';
import {
  compareDecimals,
  compareToBound,
  newScan,
  POW10,
  scanDecimal,
  toBound,
  toDecimal,
  type Bound,
  type Decimal,
  type DecimalScan,
} from './decimal.ts';
import { truncateValue } from './issue-value.ts';
import { ruleMessages, renderTemplate } from './messages.ts';
import type { LastValue } from './rules/last-value.ts';
import { isCanonicalInteger, KeyHash, type SeenRegistry, SeenValues } from './rules/unique.ts';
import { spanIsOneOf } from './rules/span.ts';
import type { ErrorCode } from '../model.ts';

// Hot functions held locally: a call through an import binding can cost a getter per call where
// modules are compiled to CommonJS (tsx runs the CLI, the server and the bench that way).
const scanSpan = scanDecimal;
const compareBound = compareToBound;
const isOneOf = spanIsOneOf;

/** A slot with no value (an empty cell, a missing or null property, a cell past a short row). */
export const ABSENT = -1;
/** JSON: a value that is there but not a scalar of the field's JSON type: present, never compared. */
export const OPAQUE = -2;

/** The values the rules read from one row, by slot: texts[k][starts[k], ends[k]). */
export class RowView {
  readonly texts: string[];
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  constructor(size: number) {
    this.texts = new Array<string>(size).fill('');
    this.starts = new Int32Array(size).fill(ABSENT);
    this.ends = new Int32Array(size);
  }
  set(k: number, text: string, start: number, end: number): void {
    this.texts[k] = text;
    // An empty value is no value, as for `required`.
    this.starts[k] = start === end ? ABSENT : start;
    this.ends[k] = end;
  }
  absent(k: number): void {
    this.starts[k] = ABSENT;
  }
  opaque(k: number): void {
    this.starts[k] = OPAQUE;
  }
}

/** One failed rule of one row, on its dependent field (an index into the schema's fields). */
export interface RuleFailure {
  fieldIndex: number;
  code: ErrorCode;
  message: string;
  /** The dependent field's value as written, or null when it is empty. */
  value: string | null;
  severity?: 'warning';
}

type Check = (view: RowView, row: number, out: RuleFailure[]) => void;

export interface CompiledRules {
  /** The schema field index of each slot the rules read. */
  readonly slotFields: readonly number[];
  /** Whether the rules remember values across rows (uniqueTogether). */
  readonly stateful: boolean;
  /** Rules that depend only on the row. */
  checkRow(view: RowView, row: number, out: RuleFailure[]): void;
  /** uniqueTogether: run after checkRow (the fast path only once the row is otherwise clean). */
  checkKeys(view: RowView, row: number, out: RuleFailure[]): void;
  /** CSV: only rules whose fields all have a column run (a missing column is reported already). */
  bind(hasSlot: (slot: number) => boolean): void;
  /** The schema's rules (by index) that run since bind(). */
  bound(): number[];
  /** The table of uniqueTogether rule `index`, which a caller that hashes keys itself fills. */
  seenOf(index: number): SeenValues | undefined;
  /** The bound rules but those `taken` elsewhere (the byte core), and the slots they read. */
  without(taken: ReadonlySet<number>): RuleSubset;
}

export interface RuleSubset {
  readonly slots: ReadonlySet<number>;
  readonly stateful: boolean;
  checkRow(view: RowView, row: number, out: RuleFailure[]): void;
  checkKeys(view: RowView, row: number, out: RuleFailure[]): void;
}

/**
 * undefined when the schema has no rules. `lastValues`: by field index, what each field's type
 * check holds of the value it last accepted (CompiledField.last); the field checks run before the
 * rules on every path, so a rule finds its row's date, number or enum value already read there.
 */
export function compileCrossFieldRules(
  schema: SchemaModel,
  seen?: SeenRegistry,
  lastValues: readonly (LastValue | undefined)[] = [],
): CompiledRules | undefined {
  const rules = schema.rules;
  if (rules === undefined || rules.length === 0) return undefined;
  const indexByName = new Map<string, number>();
  schema.fields.forEach((f, i) => {
    if (!indexByName.has(f.name)) indexByName.set(f.name, i);
  });
  const slotFields: number[] = [];
  const slotOf = (name: string): number => {
    const index = indexByName.get(name);
    if (index === undefined) throw new TypeError(`Rule names an unknown field '${name}'`);
    let slot = slotFields.indexOf(index);
    if (slot < 0) slot = slotFields.push(index) - 1;
    return slot;
  };
  const readers: SlotReader[] = [];
  const reader = (name: string): SlotReader => {
    const slot = slotOf(name);
    const index = slotFields[slot] as number;
    readers[slot] ??= slotReader(schema.fields[index] as FieldSpec, slot, index, lastValues[index]);
    return readers[slot] as SlotReader;
  };

  const compiled = rules.map((rule) => compileRule(rule, reader, seen));
  let usable = (_: CompiledRule) => true;
  let active = subset(compiled);
  return {
    slotFields,
    stateful: compiled.some((c) => c.stateful),
    checkRow: (view, row, out) => active.checkRow(view, row, out),
    checkKeys: (view, row, out) => active.checkKeys(view, row, out),
    bind(hasSlot) {
      usable = (c: CompiledRule) => c.slots.every(hasSlot);
      active = subset(compiled.filter(usable));
    },
    bound: () => compiled.flatMap((c, index) => (usable(c) ? [index] : [])),
    seenOf: (index) => compiled[index]?.seen,
    without: (taken) => subset(compiled.filter((c, index) => usable(c) && !taken.has(index))),
  };
}

/** The rules of `list` run together: those of the row, then those that remember keys. */
function subset(list: readonly CompiledRule[]): RuleSubset {
  const rowChecks = list.filter((c) => !c.stateful).map((c) => c.check);
  const keyChecks = list.filter((c) => c.stateful).map((c) => c.check);
  return {
    slots: new Set(list.flatMap((c) => c.slots)),
    stateful: keyChecks.length > 0,
    checkRow(view, row, out) {
      for (let i = 0; i < rowChecks.length; i++) (rowChecks[i] as Check)(view, row, out);
    },
    checkKeys(view, row, out) {
      for (let i = 0; i < keyChecks.length; i++) (keyChecks[i] as Check)(view, row, out);
    },
  };
}

interface CompiledRule {
  check: Check;
  slots: number[];
  stateful: boolean;
  /** uniqueTogether: the combinations seen. */
  seen?: SeenValues;
}

/** How the rules read one slot's value. */
interface SlotReader {
  slot: number;
  fieldIndex: number;
  name: string;
  kind: ValueKind;
  /** negative, zero or positive; undefined when either is absent or not of the kind. */
  compare(view: RowView, other: SlotReader): number | undefined;
  /** The value against a constant prepared by `constant`. */
  compareConstant(view: RowView, c: Constant): number | undefined;
  constant(text: string): Constant;
  /** The value's number, for sums (scan filled); false when absent or not a number. */
  present(view: RowView): boolean;
  /** Text of the value as written ('' when absent). */
  text(view: RowView): string;
  /**
   * Takes the value into `hash` as a part equal for values equal by reading (uniqueTogether);
   * false when it is absent or not of its field's type, so not compared.
   */
  hashInto(view: RowView, hash: KeyHash): boolean;
  dateKeyOf(view: RowView): number | undefined;
  /** A date field in YYYY-MM-DD: its values are read as isoDay numbers. */
  isoDays: boolean;
  booleanOf(view: RowView): boolean | undefined;
  /** Scans the value into `scan`; false when absent or not a number of the field's type. */
  numberOf(view: RowView, scan: DecimalScan): boolean;
  /** What the field's type check holds of the value it last accepted (CompiledField.last). */
  last: LastValue | undefined;
  /** An enum field: its values (a value its check accepted is one of them). */
  listed: readonly string[] | undefined;
}

/** `day`: the date's key / 1,000,000, so that isoDay numbers compare with it directly. */
type Constant = { bound?: Bound; date?: number; day?: number; bool?: boolean; text: string };

function slotReader(
  field: FieldSpec,
  slot: number,
  fieldIndex: number,
  last: LastValue | undefined,
): SlotReader {
  const kind = valueKind(field);
  const scanA = newScan();
  const scanB = newScan();
  const integerOnly = field.type === 'integer';
  let dateFormat: DateFormat | undefined;
  if (kind === 'date') {
    const compiled = compileDateFormat(field.rules.format ?? DEFAULT_DATE_FORMAT);
    if (!compiled.ok) throw new TypeError(compiled.message);
    dateFormat = compiled.dateFormat;
  }
  const truthy = new Set((field.rules.truthy ?? DEFAULT_TRUTHY).map((s) => s.toLowerCase()));
  const falsy = new Set((field.rules.falsy ?? DEFAULT_FALSY).map((s) => s.toLowerCase()));
  const reading = (s: string): boolean | undefined => {
    const lower = s.toLowerCase();
    // JSON booleans arrive as "true"/"false" whatever the spellings are.
    if (truthy.has(lower) || (lower === 'true' && !falsy.has(lower))) return true;
    if (falsy.has(lower) || lower === 'false') return false;
    return undefined;
  };
  // Files write booleans in one of a few casings: those compare in place, with no string cut.
  const casings = (list: Set<string>) => [
    ...new Set(
      [...list].flatMap((v) => [v, v.toUpperCase(), v.charAt(0).toUpperCase() + v.slice(1)]),
    ),
  ];
  const truthyUsual = casings(truthy);
  const falsyUsual = casings(falsy);
  const readingSpan = (text: string, start: number, end: number): boolean | undefined => {
    if (isOneOf(text, start, end, truthyUsual)) return true;
    if (isOneOf(text, start, end, falsyUsual)) return false;
    return reading(text.slice(start, end));
  };
  const isoDays =
    kind === 'date' && (field.rules.format ?? DEFAULT_DATE_FORMAT) === DEFAULT_DATE_FORMAT;
  // The last YYYY-MM-DD value read: two rules on one date field (compare, uniqueTogether) read
  // it once per row (where the field's check did not read it already).
  let lastText = '';
  let lastStart = -1;
  let lastEnd = -1;
  let lastDay = -1;
  // A date field's check holds the dateKey of the value it accepted (YYYYMMDD × 10^6 here).
  const held = isoDays ? last : undefined;
  const isoDayOf = (text: string, start: number, end: number): number => {
    if (held !== undefined && held.is(text, start, end)) return held.key / 1_000_000;
    if (start === lastStart && end === lastEnd && text === lastText) return lastDay;
    lastText = text;
    lastStart = start;
    lastEnd = end;
    lastDay = isoDay(text, start, end);
    return lastDay;
  };
  const dateOf = (text: string, start: number, end: number): number | undefined => {
    // YYYY-MM-DD, the usual layout, read directly: a rule on dates then costs a few comparisons.
    if (isoDays) {
      const day = isoDayOf(text, start, end);
      return day < 0 ? undefined : day * 1_000_000;
    }
    const key = (dateFormat as DateFormat).keySpan(text, start, end);
    return key < 0 ? undefined : key;
  };

  // A number field's check holds its scan of the value it accepted, read as a rule reads it.
  const heldNumber = kind === 'number' ? last : undefined;
  const self: SlotReader = {
    slot,
    fieldIndex,
    name: field.name,
    kind,
    isoDays,
    last,
    listed: field.type === 'enum' ? (field.rules.values ?? []) : undefined,
    present: (view) => view.starts[slot] !== ABSENT,
    text: (view) => {
      const start = view.starts[slot] as number;
      return start < 0 ? '' : (view.texts[slot] as string).slice(start, view.ends[slot]);
    },
    compare(view, other) {
      const a = view.starts[slot] as number;
      const b = view.starts[other.slot] as number;
      if (a < 0 || b < 0) return undefined;
      const ta = view.texts[slot] as string;
      const tb = view.texts[other.slot] as string;
      const ea = view.ends[slot] as number;
      const eb = view.ends[other.slot] as number;
      switch (kind) {
        case 'number': {
          if (!self.numberOf(view, scanA) || !other.numberOf(view, scanB)) return undefined;
          if (scanA.fast && scanB.fast) return Math.sign(scanA.approx - scanB.approx);
          return compareDecimals(toDecimal(ta, scanA), toDecimal(tb, scanB));
        }
        case 'date': {
          if (isoDays && other.isoDays) {
            const x = isoDay(ta, a, ea);
            const y = isoDay(tb, b, eb);
            return x < 0 || y < 0 ? undefined : Math.sign(x - y);
          }
          const x = dateOf(ta, a, ea);
          const y = other.kind === 'date' ? other.dateKeyOf(view) : undefined;
          return x === undefined || y === undefined ? undefined : Math.sign(x - y);
        }
        case 'boolean': {
          const x = readingSpan(ta, a, ea);
          const y = other.kind === 'boolean' ? other.booleanOf(view) : undefined;
          return x === undefined || y === undefined ? undefined : x === y ? 0 : x ? 1 : -1;
        }
        default:
          return compareSpans(ta, a, ea, tb, b, eb);
      }
    },
    compareConstant(view, c) {
      const a = view.starts[slot] as number;
      if (a < 0) return undefined;
      const t = view.texts[slot] as string;
      const e = view.ends[slot] as number;
      switch (kind) {
        case 'number':
          if (heldNumber !== undefined && heldNumber.is(t, a, e))
            return compareBound(t, heldNumber.scan as DecimalScan, c.bound as Bound);
          if (!scanSpan(t, a, e, integerOnly, scanA)) return undefined;
          return compareBound(t, scanA, c.bound as Bound);
        case 'date': {
          if (isoDays) {
            // Whole numbers of days in the small-integer range: no number is boxed per row.
            const day = isoDayOf(t, a, e);
            return day < 0 ? undefined : Math.sign(day - (c.day as number));
          }
          const x = dateOf(t, a, e);
          return x === undefined ? undefined : Math.sign(x - (c.date as number));
        }
        case 'boolean': {
          const x = readingSpan(t, a, e);
          return x === undefined ? undefined : x === c.bool ? 0 : x ? 1 : -1;
        }
        default:
          return compareSpans(t, a, e, c.text, 0, c.text.length);
      }
    },
    constant(text) {
      switch (kind) {
        case 'number':
          return { text, bound: toBound(canonicalDecimal(text) ?? text) as Bound };
        case 'date': {
          const parts = (dateFormat as DateFormat).parse(text) ?? parseIsoDate(text);
          const date = parts === null ? 0 : dateKey(parts);
          return { text, date, day: date / 1_000_000 };
        }
        case 'boolean': {
          const r = reading(text);
          return { text, ...(r === undefined ? {} : { bool: r }) };
        }
        default:
          return { text };
      }
    },
    hashInto(view, hash) {
      const a = view.starts[slot] as number;
      if (a < 0) return false;
      const t = view.texts[slot] as string;
      const e = view.ends[slot] as number;
      switch (kind) {
        case 'number': {
          // Only values of the field's type take part (`1.5` in an integer field does not).
          if (!scanSpan(t, a, e, integerOnly, scanA)) return false;
          // By value: `01` and `1` are one. Most cells are spelled canonically already.
          if (isCanonicalInteger(t, a, e)) hash.span(t, a, e);
          else {
            const c = canonicalDecimal(t.slice(a, e));
            if (c === null) return false;
            hash.span(c, 0, c.length);
          }
          return true;
        }
        case 'boolean': {
          const r = readingSpan(t, a, e);
          if (r === undefined) return false;
          hash.number(r ? 1 : 0);
          return true;
        }
        case 'date': {
          if (isoDays) {
            const day = isoDayOf(t, a, e);
            if (day < 0) return false;
            hash.number(day);
            return true;
          }
          const d = dateOf(t, a, e);
          if (d === undefined) return false;
          hash.number(d);
          return true;
        }
        default:
          hash.span(t, a, e);
          return true;
      }
    },
    dateKeyOf(view) {
      const a = view.starts[slot] as number;
      return a < 0 ? undefined : dateOf(view.texts[slot] as string, a, view.ends[slot] as number);
    },
    booleanOf(view) {
      const a = view.starts[slot] as number;
      return a < 0
        ? undefined
        : readingSpan(view.texts[slot] as string, a, view.ends[slot] as number);
    },
    numberOf(view, scan) {
      const a = view.starts[slot] as number;
      return (
        kind === 'number' &&
        a >= 0 &&
        scanSpan(view.texts[slot] as string, a, view.ends[slot] as number, integerOnly, scan)
      );
    },
  };
  return self;
}

/** Code-unit order of two spans, as text compares. */
function compareSpans(
  a: string,
  as: number,
  ae: number,
  b: string,
  bs: number,
  be: number,
): number {
  const n = Math.min(ae - as, be - bs);
  for (let i = 0; i < n; i++) {
    const d = a.charCodeAt(as + i) - b.charCodeAt(bs + i);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return Math.sign(ae - as - (be - bs));
}

function holds(op: string, order: number): boolean {
  switch (op) {
    case '=':
      return order === 0;
    case '!=':
      return order !== 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
    case '<':
      return order < 0;
    default:
      return order <= 0;
  }
}

/** Whether the value is one of `values` (compared by the field's reading). */
function memberOf(
  reader: SlotReader,
  values: readonly string[],
): (view: RowView) => boolean | undefined {
  if (reader.kind === 'text') {
    const slot = reader.slot;
    // An enum whose values are all among these: a value its check accepted is a member.
    const listed = reader.listed;
    const held =
      listed !== undefined && listed.every((v) => values.includes(v)) ? reader.last : undefined;
    if (values.length <= 8) {
      // A few comparisons in place beat cutting the value out to hash it.
      const list = [...values];
      return (view) => {
        const start = view.starts[slot] as number;
        // Absent, or a JSON value of another type (a type error already): not compared.
        if (start < 0) return undefined;
        const text = view.texts[slot] as string;
        const end = view.ends[slot] as number;
        if (held !== undefined && held.is(text, start, end)) return true;
        return isOneOf(text, start, end, list);
      };
    }
    const set = new Set(values);
    return (view) => {
      const start = view.starts[slot] as number;
      if (start < 0) return undefined;
      if (
        held !== undefined &&
        held.is(view.texts[slot] as string, start, view.ends[slot] as number)
      )
        return true;
      return set.has(reader.text(view));
    };
  }
  const constants = values.map((v) => reader.constant(v));
  return (view) => {
    if (!reader.present(view)) return undefined;
    let comparable = false;
    for (const c of constants) {
      const order = reader.compareConstant(view, c);
      if (order === 0) return true;
      if (order !== undefined) comparable = true;
    }
    return comparable ? false : undefined;
  };
}

interface Condition {
  /** True when the condition holds for the row. */
  test(view: RowView): boolean;
  /** The condition as it held, for messages: `country is "DE"`. */
  describe(view: RowView): string;
  reader: SlotReader;
}

function compileCondition(when: RuleCondition, reader: SlotReader): Condition {
  const { op } = when;
  let test: (view: RowView) => boolean;
  if (op === 'isEmpty') test = (view) => view.starts[reader.slot] === ABSENT;
  else if (op === 'isNotEmpty') test = (view) => view.starts[reader.slot] !== ABSENT;
  else if (op === 'in' || op === 'notIn') {
    const member = memberOf(reader, when.value as string[]);
    const wanted = op === 'in';
    test = (view) => {
      const m = member(view);
      return m !== undefined && m === wanted;
    };
  } else {
    const c = reader.constant(when.value as string);
    test = (view) => {
      const order = reader.compareConstant(view, c);
      return order !== undefined && holds(op, order);
    };
  }
  return {
    test,
    reader,
    describe: (view) => ruleMessages.condition(when, reader.kind, truncateValue(reader.text(view))),
  };
}

function compileRule(
  rule: CrossFieldRule,
  reader: (name: string) => SlotReader,
  registry: SeenRegistry | undefined,
): CompiledRule {
  const severity = rule.severity;
  const template = rule.message;
  const fail = (
    out: RuleFailure[],
    target: SlotReader,
    view: RowView,
    code: ErrorCode,
    message: string,
    other: string,
  ) => {
    const value = target.present(view) ? target.text(view) : null;
    // A message quotes cells as an issue's value does, cut at its length: a huge cell must not
    // make every message that names it huge too.
    const failure: RuleFailure = {
      fieldIndex: target.fieldIndex,
      code,
      message:
        template === undefined
          ? message
          : renderTemplate(template, target.name, truncateValue(value ?? ''), truncateValue(other)),
      value,
    };
    if (severity !== undefined) failure.severity = severity;
    out.push(failure);
  };

  switch (rule.kind) {
    case 'requiredWhen':
    case 'emptyWhen': {
      const target = reader(rule.field);
      const when = compileCondition(rule.when, reader(rule.when.field));
      const required = rule.kind === 'requiredWhen';
      const code = required ? 'required_when' : 'empty_when';
      return {
        slots: [target.slot, when.reader.slot],
        stateful: false,
        check(view, _row, out) {
          if (target.present(view) === required || !when.test(view)) return;
          const condition = when.describe(view);
          const message = required
            ? ruleMessages.requiredWhen(condition)
            : ruleMessages.emptyWhen(condition);
          fail(out, target, view, code, message, when.reader.text(view));
        },
      };
    }
    case 'allowedValuesWhen': {
      const target = reader(rule.field);
      const when = compileCondition(rule.when, reader(rule.when.field));
      const member = memberOf(target, rule.values);
      return {
        slots: [target.slot, when.reader.slot],
        stateful: false,
        check(view, _row, out) {
          if (member(view) !== false || !when.test(view)) return;
          const message = ruleMessages.allowedValuesWhen(rule.values, when.describe(view));
          fail(out, target, view, 'allowed_values_when', message, when.reader.text(view));
        },
      };
    }
    case 'requireOneOf': {
      const readers = rule.fields.map(reader);
      const min = rule.min ?? (rule.max === undefined ? 1 : 0);
      const max = rule.max ?? Infinity;
      const names = rule.fields;
      const message = ruleMessages.requireOneOf(names, min, max);
      const target = readers[0] as SlotReader;
      return {
        slots: readers.map((r) => r.slot),
        stateful: false,
        check(view, _row, out) {
          let filled = 0;
          for (let i = 0; i < readers.length; i++)
            if (view.starts[(readers[i] as SlotReader).slot] !== ABSENT) filled++;
          if (filled >= min && filled <= max) return;
          fail(out, target, view, 'require_one_of', message, names.join(', '));
        },
      };
    }
    case 'compare': {
      const left = reader(rule.left);
      const { op } = rule;
      if (rule.right !== undefined) {
        const right = reader(rule.right);
        return {
          slots: [left.slot, right.slot],
          stateful: false,
          check(view, _row, out) {
            const order = left.compare(view, right);
            if (order === undefined || holds(op, order)) return;
            const other = truncateValue(right.text(view));
            const message = ruleMessages.compareField(op, left.kind, right.name, other);
            fail(out, left, view, 'compare', message, other);
          },
        };
      }
      const c = left.constant(rule.value as string);
      const message = ruleMessages.compareValue(op, left.kind, c.text);
      return {
        slots: [left.slot],
        stateful: false,
        check(view, _row, out) {
          const order = left.compareConstant(view, c);
          if (order === undefined || holds(op, order)) return;
          fail(out, left, view, 'compare', message, c.text);
        },
      };
    }
    case 'sum':
      return compileSum(rule, reader, fail);
    case 'uniqueTogether': {
      const readers = rule.fields.map(reader);
      const target = readers[readers.length - 1] as SlotReader;
      const seen = registry?.next() ?? new SeenValues();
      const names = rule.fields;
      const hash = new KeyHash();
      return {
        slots: readers.map((r) => r.slot),
        stateful: true,
        seen,
        check(view, row, out) {
          hash.start();
          for (let i = 0; i < readers.length; i++) {
            // A combination with an empty part (or a value not of its type) is not compared.
            if (!(readers[i] as SlotReader).hashInto(view, hash)) return;
          }
          const first = seen.firstRowOfKey(hash, row);
          if (first === 0 || first === row) return;
          fail(
            out,
            target,
            view,
            'unique_together',
            ruleMessages.uniqueTogether(names, first),
            String(first),
          );
        },
      };
    }
  }
}

type Fail = (
  out: RuleFailure[],
  target: SlotReader,
  view: RowView,
  code: ErrorCode,
  message: string,
  other: string,
) => void;

/** Larger scales than this are not summed (a value like 1e-5000 is skipped, not computed). */
const MAX_SUM_SCALE = 1000;

function compileSum(
  rule: Extract<CrossFieldRule, { kind: 'sum' }>,
  reader: (name: string) => SlotReader,
  fail: Fail,
): CompiledRule {
  const parts = rule.fields.map(reader);
  const equals = rule.equals === undefined ? undefined : reader(rule.equals);
  const target = equals ?? (parts[parts.length - 1] as SlotReader);
  const constant = rule.value === undefined ? undefined : parseExact(rule.value);
  const tolerance = parseExact(rule.tolerance ?? '0') as Exact;
  const toleranceText = rule.tolerance ?? '0';
  const toleranceScan = newScan();
  scanSpan(toleranceText, 0, toleranceText.length, false, toleranceScan);
  const constantScan = newScan();
  if (rule.value !== undefined) scanSpan(rule.value, 0, rule.value.length, false, constantScan);
  const label = rule.fields.join(' + ');
  const scans = parts.map(() => newScan());
  const totalScan = newScan();
  const decimals: Decimal[] = [];
  return {
    slots: [...parts.map((p) => p.slot), ...(equals === undefined ? [] : [equals.slot])],
    stateful: false,
    check(view, _row, out) {
      for (let i = 0; i < parts.length; i++)
        if (!(parts[i] as SlotReader).numberOf(view, scans[i] as DecimalScan)) return;
      if (equals !== undefined && !equals.numberOf(view, totalScan)) return;
      if (quickSumHolds(scans, equals === undefined ? constantScan : totalScan, toleranceScan))
        return;
      // Exact: every value as a decimal, added as big integers at the finest scale.
      decimals.length = 0;
      for (let i = 0; i < parts.length; i++) {
        decimals.push(
          toDecimal(view.texts[(parts[i] as SlotReader).slot] as string, scans[i] as DecimalScan),
        );
      }
      const expected =
        equals === undefined
          ? (constant as Exact)
          : exactOf(toDecimal(view.texts[equals.slot] as string, totalScan));
      const addends = decimals.map(exactOf);
      if (expected === undefined || addends.some((a) => a === undefined)) return;
      const all = [...(addends as Exact[]), expected, tolerance];
      const scale = Math.max(...all.map((a) => a.scale));
      if (scale > MAX_SUM_SCALE) return;
      let total = 0n;
      for (const a of addends as Exact[]) total += scaled(a, scale);
      let diff = total - scaled(expected, scale);
      if (diff < 0n) diff = -diff;
      if (diff <= scaled(tolerance, scale)) return;
      const totalText = exactText(total, scale);
      const message =
        equals === undefined
          ? ruleMessages.sumValue(label, rule.value as string, totalText, rule.tolerance)
          : ruleMessages.sumField(label, totalText, rule.tolerance);
      fail(out, target, view, 'sum', message, totalText);
    },
  };
}

/** value = units × 10^-scale. */
interface Exact {
  units: bigint;
  scale: number;
}

function exactOf(d: Decimal): Exact | undefined {
  const scale = d.digits.length - d.point;
  if (Math.abs(scale) > MAX_SUM_SCALE || Math.abs(d.point) > MAX_SUM_SCALE) return undefined;
  let units = d.digits === '' ? 0n : BigInt(d.digits);
  if (d.negative) units = -units;
  if (scale < 0) return { units: units * 10n ** BigInt(-scale), scale: 0 };
  return { units, scale };
}

function parseExact(text: string): Exact | undefined {
  const scan = newScan();
  return scanSpan(text, 0, text.length, false, scan) ? exactOf(toDecimal(text, scan)) : undefined;
}

function scaled(a: Exact, scale: number): bigint {
  return a.units * 10n ** BigInt(scale - a.scale);
}

/** units × 10^-scale as plain decimal text, trailing zeros of the fraction kept to the scale. */
function exactText(units: bigint, scale: number): string {
  const negative = units < 0n;
  let digits = (negative ? -units : units).toString();
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0');
    digits = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  }
  return negative ? `-${digits}` : digits;
}

/** 2^50: scaled values below it survive a double's rounding to the nearest integer exactly. */
const QUICK_LIMIT = 2 ** 50;

/**
 * The common case without big integers: every value has at most 15 digits and no exponent
 * (DecimalScan.fast), so value × 10^scale rounds back to its exact integer while below 2^50, and
 * a few such integers add exactly. True only when the sum certainly holds; false when it fails or
 * cannot be decided this way (the exact path then decides).
 */
function quickSumHolds(
  parts: DecimalScan[],
  expected: DecimalScan,
  tolerance: DecimalScan,
): boolean {
  if (!expected.fast || !tolerance.fast || parts.length > 7) return false;
  let scale = Math.max(
    expected.fracEnd - expected.fracStart,
    tolerance.fracEnd - tolerance.fracStart,
  );
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] as DecimalScan;
    if (!p.fast) return false;
    const places = p.fracEnd - p.fracStart;
    if (places > scale) scale = places;
  }
  if (scale > 15) return false;
  const factor = POW10[scale] as number;
  const whole = (x: number): number | undefined => {
    const v = x * factor;
    return Math.abs(v) < QUICK_LIMIT ? Math.round(v) : undefined;
  };
  let total = 0;
  for (let i = 0; i < parts.length; i++) {
    const v = whole((parts[i] as DecimalScan).approx);
    if (v === undefined) return false;
    total += v;
  }
  const e = whole(expected.approx);
  const t = whole(tolerance.approx);
  if (e === undefined || t === undefined) return false;
  return Math.abs(total - e) <= t;
}

const digit = (text: string, i: number): number => {
  const d = text.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : -100_000;
};

/** A real YYYY-MM-DD date in text[start, end) as the number YYYYMMDD (its dateKey / 10^6), or -1. */
function isoDay(text: string, start: number, end: number): number {
  if (end - start !== 10 || text.charCodeAt(start + 4) !== 45 || text.charCodeAt(start + 7) !== 45)
    return -1;
  const year =
    digit(text, start) * 1000 +
    digit(text, start + 1) * 100 +
    digit(text, start + 2) * 10 +
    digit(text, start + 3);
  const month = digit(text, start + 5) * 10 + digit(text, start + 6);
  const day = digit(text, start + 8) * 10 + digit(text, start + 9);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return -1;
  return (year * 100 + month) * 100 + day;
}
