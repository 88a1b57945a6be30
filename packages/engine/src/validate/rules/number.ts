import type { FieldRules } from '../../model.ts';
import {
  compareToBound,
  decimalPlaces,
  isIntegral,
  newScan,
  scanDecimal,
  toBound,
  toDecimal,
  type Bound,
} from '../decimal.ts';
import { messages } from '../messages.ts';
import { failure, type Failure } from './failure.ts';

/**
 * Type check and numeric rules of an integer or number field, in one pass over the text.
 * Returns false when the value is not a number of the type (the only failure then pushed).
 * `fromJson`: the text is a JSON number's literal, already a valid number; an integer field then
 * asks for an integral value (JSON Schema's reading, in which 1.0 and 1e3 are integers).
 */
export type NumericCheck = (text: string, fromJson: boolean, out: Failure[]) => boolean;

interface BoundRule {
  bound: Bound;
  /** Fails when compare(value, bound) is on this side: -1 for min, 1 for max. */
  failsWhen: (cmp: number) => boolean;
  failure: Failure;
}

export function numericCheck(type: 'integer' | 'number', rules: FieldRules): NumericCheck {
  const integer = type === 'integer';
  const typeFailure = failure('type', integer ? messages.integer : messages.number);
  const precision = integer ? undefined : rules.precision;
  const precisionFailure = failure('precision', messages.precision(precision ?? 0));
  const bounds = boundRules(rules);
  const scan = newScan();

  return (text, fromJson, out) => {
    if (!scanDecimal(text, integer && !fromJson, scan)) {
      out.push(typeFailure);
      return false;
    }
    if (integer && (scan.fracEnd > scan.fracStart || scan.hasExponent) && !isIntegral(toDecimal(text, scan))) {
      out.push(typeFailure);
      return false;
    }
    if (precision !== undefined && decimalPlaces(scan) > precision) out.push(precisionFailure);
    for (let i = 0; i < bounds.length; i++) {
      const rule = bounds[i] as BoundRule;
      if (rule.failsWhen(compareToBound(text, scan, rule.bound))) out.push(rule.failure);
    }
    return true;
  };
}

function boundRules(rules: FieldRules): BoundRule[] {
  const out: BoundRule[] = [];
  const add = (
    text: string | undefined,
    failsWhen: (cmp: number) => boolean,
    message: (bound: string) => string,
    code: 'minimum' | 'maximum',
  ) => {
    if (text === undefined) return;
    const bound = toBound(text);
    // The schema parser refuses bounds that are not decimals; a bound it let through is ignored.
    if (bound === undefined) return;
    out.push({ bound, failsWhen, failure: failure(code, message(text)) });
  };
  add(rules.minValue, (c) => c < 0, messages.minimum, 'minimum');
  add(rules.exclusiveMinimum, (c) => c <= 0, messages.exclusiveMinimum, 'minimum');
  add(rules.maxValue, (c) => c > 0, messages.maximum, 'maximum');
  add(rules.exclusiveMaximum, (c) => c >= 0, messages.exclusiveMaximum, 'maximum');
  return out;
}
