import { LosslessNumber, MAX_ISSUE_VALUE_CHARS } from '../model.ts';

const ELLIPSIS = '…';

/** At most MAX_ISSUE_VALUE_CHARS, ending in … when cut, never splitting a surrogate pair. */
export function truncateValue(s: string): string {
  if (s.length <= MAX_ISSUE_VALUE_CHARS) return s;
  let end = MAX_ISSUE_VALUE_CHARS - 1;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return s.slice(0, end) + ELLIPSIS;
}

/**
 * The same text in a string of its own. A slice of a longer string (a cell cut from a decoded
 * chunk) is, in V8, a view that keeps the whole chunk alive for as long as the slice lives; an
 * issue kept in the result or by the report sink must not pin its chunk. Strings shorter than 13
 * code units are always copied by V8 when sliced, so they are returned as they are.
 */
export function detachedText(s: string): string {
  // Slicing a concatenation flattens it into a new string first: the result shares nothing
  // with the string `s` came from.
  return s.length < 13 ? s : (' ' + s).slice(1);
}

/**
 * A JSON value as a user would recognise it in a report: strings as themselves, numbers as
 * written, objects and arrays as compact JSON — built only as far as the cap, so a huge object
 * costs no more than a small one.
 */
export function jsonValueText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return truncateValue(value);
  const parts: string[] = [];
  let budget = MAX_ISSUE_VALUE_CHARS + 1;
  const emit = (text: string) => {
    parts.push(text);
    budget -= text.length;
  };
  const walk = (v: unknown) => {
    if (budget <= 0) return;
    if (v === null || v === undefined) emit('null');
    else if (typeof v === 'string')
      emit(JSON.stringify(v.length > budget ? v.slice(0, budget) : v));
    else if (typeof v === 'number' || typeof v === 'boolean') emit(String(v));
    else if (v instanceof LosslessNumber) emit(v.raw);
    else if (Array.isArray(v)) {
      emit('[');
      for (let i = 0; i < v.length && budget > 0; i++) {
        if (i > 0) emit(',');
        walk(v[i]);
      }
      emit(']');
    } else if (typeof v === 'object') {
      emit('{');
      let first = true;
      for (const key of Object.keys(v)) {
        if (budget <= 0) break;
        if (!first) emit(',');
        first = false;
        emit(`${JSON.stringify(key)}:`);
        walk((v as Record<string, unknown>)[key]);
      }
      emit('}');
    } else emit(String(v));
  };
  walk(value);
  return truncateValue(parts.join(''));
}

/** How a record that is not an object is described: "an array", "a number", … */
export function describeJsonValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof LosslessNumber || typeof value === 'number') return 'a number';
  if (typeof value === 'string') return 'text';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return 'a value of another kind';
}
