import type { FieldRules } from '../../model.ts';
import {
  compareToBound,
  decimalPlaces,
  isIntegral,
  newScan,
  POW10,
  scanDecimal,
  toBound,
  toDecimal,
  type Bound,
} from '../decimal.ts';
import { messages } from '../messages.ts';
import { failure, type Failure, type TypeCheck } from './failure.ts';
import type { LastValue } from './last-value.ts';

const MIN = 0;
const EXCLUSIVE_MIN = 1;
const MAX = 2;
const EXCLUSIVE_MAX = 3;

interface BoundRule {
  kind: number;
  bound: Bound;
  failure: Failure;
}

/** Whether a value that compares to the bound as `cmp` (negative, zero, positive) breaks it. */
function breaks(kind: number, cmp: number): boolean {
  switch (kind) {
    case MIN:
      return cmp < 0;
    case EXCLUSIVE_MIN:
      return cmp <= 0;
    case MAX:
      return cmp > 0;
    default:
      return cmp >= 0;
  }
}

/** A JSON number held as a double, checked without turning it into text on the usual path. */
export type DoubleCheck = (value: number, out: Failure[]) => boolean;

export interface NumericChecks {
  /**
   * Type check and numeric rules of an integer or number field, in one pass over text[start, end).
   * Returns false when the value is not a number of the type (the only failure then pushed).
   * `fromJson`: the text is a JSON number's literal, already a valid number; an integer field then
   * asks for an integral value (JSON Schema's reading, in which 1.0 and 1e3 are integers).
   */
  text: TypeCheck;
  double: DoubleCheck;
}

/** `last`: holds each CSV value it accepts, with its scan (cross-field rules read it there). */
export function numericCheck(
  type: 'integer' | 'number',
  rules: FieldRules,
  last?: LastValue,
): NumericChecks {
  const integer = type === 'integer';
  const typeFailure = failure('type', integer ? messages.integer : messages.number);
  const precision = integer ? undefined : rules.precision;
  const precisionFailure = failure('precision', messages.precision(precision ?? 0));
  const bounds = boundRules(rules);
  const allFast = bounds.every((b) => b.bound.fast !== undefined);
  const scale = precision !== undefined ? POW10[precision] : undefined;
  const scan = newScan();
  if (last !== undefined) last.scan = scan;

  const text: TypeCheck = (value, start, end, _row, out, fromJson) => {
    // The scan is about to change: what `last` held no longer matches it.
    if (last !== undefined) last.start = -1;
    if (!scanDecimal(value, start, end, integer && fromJson !== true, scan)) {
      out.push(typeFailure);
      return false;
    }
    if (
      integer &&
      (scan.fracEnd > scan.fracStart || scan.hasExponent) &&
      !isIntegral(toDecimal(value, scan))
    ) {
      out.push(typeFailure);
      return false;
    }
    if (precision !== undefined && decimalPlaces(scan) > precision) out.push(precisionFailure);
    for (let i = 0; i < bounds.length; i++) {
      const rule = bounds[i] as BoundRule;
      const fast = rule.bound.fast;
      const cmp =
        scan.fast && fast !== undefined
          ? scan.approx < fast
            ? -1
            : scan.approx > fast
              ? 1
              : 0
          : compareToBound(value, scan, rule.bound);
      if (breaks(rule.kind, cmp)) out.push(rule.failure);
    }
    // A JSON number was scanned in another mode than a rule reads a value in (integer fields).
    if (last !== undefined && fromJson !== true) last.hold(value, start, end, 0);
    return true;
  };

  /**
   * A double stands for its shortest round-trip decimal (what String() prints). Comparing it
   * with a bound's double orders those decimals exactly: rounding to doubles is monotonic, and
   * two decimals of at most 15 significant digits never share a double. Precision holds when
   * scaling by 10^p and back gives the same double; a shorter decimal would have no more places.
   * Anything the shortcuts cannot decide goes through the text.
   */
  const checkDoubleText = (value: number, out: Failure[]) => {
    const written = String(value);
    return text(written, 0, written.length, 0, out, true);
  };

  const double: DoubleCheck = (value, out) => {
    if (!Number.isFinite(value)) return checkDoubleText(value, out);
    if (integer && !Number.isInteger(value)) {
      out.push(typeFailure);
      return false;
    }
    if (
      precision !== undefined &&
      (scale === undefined || Math.round(value * scale) / scale !== value)
    ) {
      return checkDoubleText(value, out);
    }
    if (!allFast) return checkDoubleText(value, out);
    for (let i = 0; i < bounds.length; i++) {
      const rule = bounds[i] as BoundRule;
      const fast = rule.bound.fast as number;
      if (breaks(rule.kind, value < fast ? -1 : value > fast ? 1 : 0)) out.push(rule.failure);
    }
    return true;
  };

  return { text, double };
}

function boundRules(rules: FieldRules): BoundRule[] {
  const out: BoundRule[] = [];
  const add = (text: string | undefined, kind: number, message: (bound: string) => string) => {
    if (text === undefined) return;
    const bound = toBound(text);
    // The schema parser refuses bounds that are not decimals; a bound it let through is ignored.
    if (bound === undefined) return;
    out.push({ kind, bound, failure: failure(kind < MAX ? 'minimum' : 'maximum', message(text)) });
  };
  add(rules.minValue, MIN, messages.minimum);
  add(rules.exclusiveMinimum, EXCLUSIVE_MIN, messages.exclusiveMinimum);
  add(rules.maxValue, MAX, messages.maximum);
  add(rules.exclusiveMaximum, EXCLUSIVE_MAX, messages.exclusiveMaximum);
  return out;
}
