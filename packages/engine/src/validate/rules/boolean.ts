import type { FieldRules } from '../../model.ts';
import { DEFAULT_FALSY, DEFAULT_TRUTHY } from '../../rules/boolean-spellings.ts';
import { messages } from '../messages.ts';
import { failure, type TypeCheck } from './failure.ts';
import { spanIsOneOf } from './span.ts';

/**
 * A CSV boolean: one of the spellings, in any case. Returns false (and pushes) when it is not.
 * A JSON boolean arrives as the text "true"/"false" with `fromJson`, already a boolean.
 */
export function booleanCheck(rules: FieldRules): TypeCheck {
  const truthy = rules.truthy ?? DEFAULT_TRUTHY;
  const falsy = rules.falsy ?? DEFAULT_FALSY;
  const lower = [...truthy, ...falsy].map((s) => s.toLowerCase());
  const anyCase = new Set(lower);
  // Files write booleans in one of a few casings; comparing those exactly is several times
  // faster than lower-casing every cell, which stays as the fallback for mixed case.
  const usual = [
    ...new Set(lower.flatMap((s) => [s, s.toUpperCase(), s.charAt(0).toUpperCase() + s.slice(1)])),
  ];
  const longest = Math.max(0, ...lower.map((s) => s.length));
  const typeFailure = failure('type', messages.boolean(truthy, falsy));
  return (text, start, end, _row, out, fromJson) => {
    if (fromJson === true) return true;
    if (spanIsOneOf(text, start, end, usual)) return true;
    if (end - start <= longest && anyCase.has(text.slice(start, end).toLowerCase())) return true;
    out.push(typeFailure);
    return false;
  };
}
