// Helpers the three exporters share.
import type { FieldRules, FieldSpec } from '../../model.ts';
import { DEFAULT_FALSY, DEFAULT_TRUTHY } from '../../rules/boolean-spellings.ts';
import { dateFormatTokens } from '../../rules/date-format.ts';
import { decimalToNumberIfExact } from '../decimal-text.ts';

/** A JSON number when it holds the decimal exactly, otherwise undefined (keep the text). */
export const exactNumber = decimalToNumberIfExact;

/** The nearest JSON number, for keywords that can only hold a number. */
export function nearestNumber(decimal: string): number {
  return Number(decimal);
}

export function sameList(a: string[] | undefined, b: string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((v, i) => v === b[i]);
}

export function hasDefaultTruthy(field: FieldSpec): boolean {
  return field.rules.truthy === undefined || sameList(field.rules.truthy, DEFAULT_TRUTHY);
}

export function hasDefaultFalsy(field: FieldSpec): boolean {
  return field.rules.falsy === undefined || sameList(field.rules.falsy, DEFAULT_FALSY);
}

/** An allowed value as a typed JSON value where the field's type reads it so, else as text. */
export function typedValue(field: FieldSpec, value: string): unknown {
  if (field.type === 'integer' || field.type === 'number') {
    const n = exactNumber(value);
    if (n !== undefined && String(n) === value) return n;
  }
  if (field.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

const STRFTIME: Record<string, string> = {
  YYYY: '%Y',
  MM: '%m',
  DD: '%d',
  HH: '%H',
  mm: '%M',
  ss: '%S',
  Z: '%z',
  '%': '%%',
};

/** Our date tokens as a strftime pattern (YYYY-MM-DD → %Y-%m-%d). */
export function toStrftime(format: string): string {
  return (dateFormatTokens(format) ?? []).map((t) => STRFTIME[t] ?? t).join('');
}

export function hasTimeTokens(format: string): boolean {
  return (dateFormatTokens(format) ?? []).some(
    (t) => t === 'HH' || t === 'mm' || t === 'ss' || t === 'Z',
  );
}

export function hasDateTokens(format: string): boolean {
  return (dateFormatTokens(format) ?? []).some((t) => t === 'YYYY' || t === 'MM' || t === 'DD');
}

const BOUND_KEYWORDS = [
  ['minValue', 'minimum'],
  ['maxValue', 'maximum'],
  ['exclusiveMinimum', 'exclusiveMinimum'],
  ['exclusiveMaximum', 'exclusiveMaximum'],
] as const;

/**
 * Numeric bounds as JSON Schema / Table Schema keywords. A bound a double cannot hold exactly is
 * written as the nearest number, and its exact text goes to `ext` so a round trip keeps it.
 */
export function exportBounds(
  rules: FieldRules,
  out: Record<string, unknown>,
  ext: Record<string, unknown>,
): void {
  for (const [key, keyword] of BOUND_KEYWORDS) {
    const text = rules[key];
    if (text === undefined) continue;
    const exact = exactNumber(text);
    out[keyword] = exact ?? nearestNumber(text);
    if (exact === undefined) ext[key] = text;
  }
}
