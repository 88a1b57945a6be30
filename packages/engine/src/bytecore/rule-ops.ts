// Cross-field rules as the byte core proves them (decision 249): each rule becomes a condition on
// the record's cells that implies the rule holds as validate/cross-field.ts reads it. The core
// takes a record only where it proves every such condition; anything else (the condition is
// false, or a value is one it cannot read) stops it, and the JavaScript reads that record. So a
// condition may be narrower than the rule, never wider. A rule with no such condition (sum,
// conditions on text order, booleans compared) stays in JavaScript, on the core's offsets.
//
// A rule that depends on a condition holds when its target is as required or the condition is
// false: the condition's negation is written as cells that certainly fail it (an empty cell never
// meets a condition but isEmpty; a value of another type meets none).

import type { CrossFieldRule, FieldSpec, RuleCondition } from '../model.ts';
import { DEFAULT_FALSY, DEFAULT_TRUTHY } from '../rules/boolean-spellings.ts';
import {
  compileDateFormat,
  dateKey,
  DEFAULT_DATE_FORMAT,
  parseIsoDate,
  plainDateSegments,
} from '../rules/date-format.ts';
import { valueKind } from '../schema/cross-field.ts';
import type { CoreAlternative, CoreKeyPart, CoreRule, CoreValue } from './csv-program.ts';
import { boundsOp, type ByteOp } from './field-ops.ts';

/**
 * A field the rules name, the column of the header that holds it, whether the core checks it,
 * and whether every record the core takes has its cell non-empty (a required CSV column).
 */
export interface RuleField {
  spec: FieldSpec;
  column: number;
  checked: boolean;
  filled: boolean;
}

const HOUR_SEGMENT = 4;
/** The largest day key yyyymmdd: a date op up to it bounds nothing. */
const LAST_DAY = 99_999_999;

/** The op that reads any date in the field's format (its key is what a rule wants); null: none. */
function anyDate(spec: FieldSpec): ByteOp | null {
  const segments = plainDateSegments(spec.rules.format ?? DEFAULT_DATE_FORMAT);
  return segments === null ? null : { kind: 'date', segments, min: 0, max: LAST_DAY };
}

/**
 * The rule as the core proves it; 'holds' when every record the core takes meets it already;
 * null when it stays in JavaScript.
 */
export function coreRule(
  rule: CrossFieldRule,
  fieldOf: (name: string) => RuleField,
): CoreRule | 'holds' | null {
  switch (rule.kind) {
    case 'requiredWhen':
    case 'emptyWhen': {
      const target = fieldOf(rule.field);
      if (rule.kind === 'requiredWhen' && target.filled) return 'holds';
      const unmet = conditionFails(rule.when, fieldOf(rule.when.field));
      if (unmet === null) return null;
      const mode = rule.kind === 'requiredWhen' ? 'notEmpty' : 'empty';
      return { kind: 'any', alternatives: [{ mode, column: target.column }, ...unmet] };
    }
    case 'allowedValuesWhen': {
      const target = fieldOf(rule.field);
      if (valueKind(target.spec) !== 'text') return null;
      // An enum the core checks, all of whose values are allowed: its cells are.
      const enumValues = target.spec.type === 'enum' ? (target.spec.rules.values ?? []) : null;
      if (target.checked && enumValues?.every((v) => rule.values.includes(v)) === true)
        return 'holds';
      const unmet = conditionFails(rule.when, fieldOf(rule.when.field));
      if (unmet === null) return null;
      return {
        kind: 'any',
        alternatives: [
          { mode: 'empty', column: target.column },
          { mode: 'pass', column: target.column, ops: [exactSet(rule.values)] },
          ...unmet,
        ],
      };
    }
    case 'requireOneOf': {
      const fields = rule.fields.map(fieldOf);
      const min = rule.min ?? (rule.max === undefined ? 1 : 0);
      const max = rule.max ?? Number.MAX_SAFE_INTEGER;
      // Filled cells count always, so at least that many and at most all of them do.
      if (fields.filter((f) => f.filled).length >= min && fields.length <= max) return 'holds';
      return { kind: 'count', columns: fields.map((f) => f.column), min, max };
    }
    case 'compare': {
      if (rule.right !== undefined)
        return orderRule(fieldOf(rule.left), rule.op, fieldOf(rule.right));
      if (rule.value === undefined) return null;
      const left = fieldOf(rule.left);
      const met = valueMeets(left, rule.op, rule.value);
      return met === null
        ? null
        : { kind: 'any', alternatives: [{ mode: 'empty', column: left.column }, ...met] };
    }
    case 'uniqueTogether': {
      const parts: CoreKeyPart[] = [];
      for (const name of rule.fields) {
        const part = keyPart(fieldOf(name));
        if (part === null) return null;
        parts.push(part);
      }
      return { kind: 'key', parts, table: -1 };
    }
    case 'sum':
      return null;
  }
}

const ORDERS: Record<Op, ('<' | '=' | '>')[]> = {
  '=': ['='],
  '!=': ['<', '>'],
  '>': ['>'],
  '>=': ['>', '='],
  '<': ['<'],
  '<=': ['<', '='],
};

/**
 * Compare of two fields of one kind (cross-field.ts compare reads the left's kind): numbers
 * exactly, dates by their keys (each in its own format), text by bytes; booleans stay in JS.
 */
function orderRule(left: RuleField, op: Op, right: RuleField): CoreRule | null {
  const kind = valueKind(left.spec);
  if (kind !== valueKind(right.spec) || kind === 'boolean') return null;
  const value = (field: RuleField): CoreValue | null => {
    if (kind !== 'date') return { column: field.column, kind, ops: [] };
    const op = anyDate(field.spec);
    return op === null ? null : { column: field.column, kind, ops: [op] };
  };
  const l = value(left);
  const r = value(right);
  return l === null || r === null ? null : { kind: 'order', left: l, right: r, orders: ORDERS[op] };
}

/** Cells that certainly fail the condition; null when the core cannot tell. */
function conditionFails(when: RuleCondition, field: RuleField): CoreAlternative[] | null {
  const column = field.column;
  if (when.op === 'isEmpty') return [{ mode: 'notEmpty', column }];
  if (when.op === 'isNotEmpty') return [{ mode: 'empty', column }];
  const empty: CoreAlternative = { mode: 'empty', column };
  if (when.op === 'in' || when.op === 'notIn') {
    if (valueKind(field.spec) !== 'text' || !Array.isArray(when.value)) return null;
    const set = exactSet(when.value);
    return when.op === 'in'
      ? [empty, { mode: 'notIn', column, set }]
      : [empty, { mode: 'pass', column, ops: [set] }];
  }
  if (typeof when.value !== 'string') return null;
  const met = valueMeets(field, NEGATION[when.op as Op], when.value);
  return met === null ? null : [empty, ...met];
}

const NEGATION = { '=': '!=', '!=': '=', '>': '<=', '>=': '<', '<': '>=', '<=': '>' } as const;
type Op = keyof typeof NEGATION;

/** Non-empty cells whose value certainly compares with `text` as `op` says; null: cannot tell. */
function valueMeets(field: RuleField, op: Op, text: string): CoreAlternative[] | null {
  const { spec, column } = field;
  const pass = (ops: ByteOp[] | null): CoreAlternative[] | null =>
    ops === null ? null : [{ mode: 'pass', column, ops }];
  switch (valueKind(spec)) {
    case 'text':
      // Code-unit order is left to JavaScript; equality is the same bytes.
      if (op === '=') return pass([exactSet([text])]);
      if (op === '!=') return [{ mode: 'notIn', column, set: exactSet([text]) }];
      return null;
    case 'boolean': {
      const { truthy, falsy } = booleanReadings(spec);
      const reading = truthy.includes(text.toLowerCase())
        ? true
        : falsy.includes(text.toLowerCase())
          ? false
          : undefined;
      if (reading === undefined || (op !== '=' && op !== '!=')) return null;
      // Equal: read as the constant; not equal: read as the other.
      const wanted = (op === '=') === reading ? truthy : falsy;
      return pass([{ kind: 'set', values: wanted, fold: true }]);
    }
    case 'number': {
      const range = (bounds: Parameters<typeof boundsOp>[1]) => {
        const op = boundsOp(spec, bounds);
        return op === null ? null : [op];
      };
      switch (op) {
        case '=':
          return pass(range({ minValue: text, maxValue: text }));
        case '>':
          return pass(range({ exclusiveMinimum: text }));
        case '>=':
          return pass(range({ minValue: text }));
        case '<':
          return pass(range({ exclusiveMaximum: text }));
        case '<=':
          return pass(range({ maxValue: text }));
        case '!=': {
          const below = pass(range({ exclusiveMaximum: text }));
          const above = pass(range({ exclusiveMinimum: text }));
          return below === null || above === null ? null : [...below, ...above];
        }
      }
      return null;
    }
    case 'date': {
      const day = constantDay(spec, text);
      const segments = plainDateSegments(spec.rules.format ?? DEFAULT_DATE_FORMAT);
      // Days only: the core compares day keys, so a format with a time of day stays in JS.
      if (day === null || segments === null || segments.some((s) => s.kind >= HOUR_SEGMENT))
        return null;
      const days = (min: number, max: number): CoreAlternative[] =>
        min > max ? [] : [{ mode: 'pass', column, ops: [{ kind: 'date', segments, min, max }] }];
      switch (op) {
        case '=':
          return days(day, day);
        case '>':
          return days(day + 1, LAST_DAY);
        case '>=':
          return days(day, LAST_DAY);
        case '<':
          return days(0, day - 1);
        case '<=':
          return days(0, day);
        case '!=':
          return [...days(0, day - 1), ...days(day + 1, LAST_DAY)];
      }
    }
  }
}

/** The constant as the field's rules read it (cross-field.ts constant), as yyyymmdd; else null. */
function constantDay(spec: FieldSpec, text: string): number | null {
  const format = compileDateFormat(spec.rules.format ?? DEFAULT_DATE_FORMAT);
  if (!format.ok) return null;
  const parts = format.dateFormat.parse(text) ?? parseIsoDate(text);
  if (parts === null) return null;
  const key = dateKey(parts);
  return key % 1_000_000 === 0 ? key / 1_000_000 : null;
}

/**
 * The spellings read as true and as false, lower case, as cross-field.ts `reading` reads them:
 * "true" and "false" count too unless the field spells the other way with them.
 */
function booleanReadings(spec: FieldSpec): { truthy: string[]; falsy: string[] } {
  const truthy = new Set((spec.rules.truthy ?? DEFAULT_TRUTHY).map((s) => s.toLowerCase()));
  const falsy = new Set((spec.rules.falsy ?? DEFAULT_FALSY).map((s) => s.toLowerCase()));
  if (!falsy.has('true')) truthy.add('true');
  falsy.add('false');
  for (const t of truthy) falsy.delete(t);
  return { truthy: [...truthy], falsy: [...falsy] };
}

function exactSet(values: readonly string[]): Extract<ByteOp, { kind: 'set' }> {
  return { kind: 'set', values, fold: false };
}

function keyPart(field: RuleField): CoreKeyPart | null {
  const { spec, column } = field;
  switch (valueKind(spec)) {
    case 'text':
      return { column, part: 'text', ops: [] };
    case 'number':
      return { column, part: 'integer', ops: [] };
    case 'boolean': {
      const { truthy, falsy } = booleanReadings(spec);
      return {
        column,
        part: 'boolean',
        ops: [
          { kind: 'set', values: truthy, fold: true },
          { kind: 'set', values: falsy, fold: true },
        ],
      };
    }
    case 'date': {
      const format = spec.rules.format ?? DEFAULT_DATE_FORMAT;
      const op = anyDate(spec);
      if (op === null) return null;
      return { column, part: format === DEFAULT_DATE_FORMAT ? 'day' : 'dateKey', ops: [op] };
    }
  }
}
