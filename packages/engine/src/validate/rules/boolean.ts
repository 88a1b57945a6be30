import type { FieldRules } from '../../model.ts';
import { messages } from '../messages.ts';
import { failure, type Failure } from './failure.ts';

export const DEFAULT_TRUTHY = ['true', '1', 'yes', 'on'];
export const DEFAULT_FALSY = ['false', '0', 'no', 'off'];

/** A CSV boolean: one of the spellings, in any case. Returns false (and pushes) when it is not. */
export function booleanCheck(rules: FieldRules): (value: string, out: Failure[]) => boolean {
  const truthy = rules.truthy ?? DEFAULT_TRUTHY;
  const falsy = rules.falsy ?? DEFAULT_FALSY;
  const spellings = new Set([...truthy, ...falsy].map((s) => s.toLowerCase()));
  const longest = Math.max(0, ...[...spellings].map((s) => s.length));
  const typeFailure = failure('type', messages.boolean(truthy, falsy));
  return (value, out) => {
    // toLowerCase returns the same string when nothing changes, so the usual cell costs a lookup.
    if (value.length <= longest && spellings.has(value.toLowerCase())) return true;
    out.push(typeFailure);
    return false;
  };
}
