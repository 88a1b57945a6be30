// What the byte core (wasm/csv-core.ts) checks of a field, read from the same FieldSpec that
// validate/compile.ts turns into closures: a list of byte-level ops that together accept only
// values the closures accept. A field with anything the core does not decide gets no ops (null)
// and its cells are checked by the closures, on the core's cell offsets.

import type { FieldSpec } from '../model.ts';
import { DEFAULT_FALSY, DEFAULT_TRUTHY } from '../rules/boolean-spellings.ts';
import { DEFAULT_DATE_FORMAT, plainDateSegments } from '../rules/date-format.ts';
import { patternItems } from '../rules/safe-regex.ts';

export type ByteOp =
  | { kind: 'integer'; min: bigint; max: bigint }
  /** Bounds in billionths; `places`: the most decimal places taken (≤ 9). */
  | { kind: 'decimal'; places: number; min: bigint; max: bigint }
  /** Byte strings; `fold`: ASCII letters compared in lower case (the values are lower case). */
  | { kind: 'set'; values: readonly string[]; fold: boolean }
  | { kind: 'length'; min: number; max: number }
  /** Literals (kind 0, with its code) and digit fields (1-6); day keys yyyymmdd, inclusive. */
  | { kind: 'date'; segments: readonly { kind: number; code: number }[]; min: number; max: number }
  | { kind: 'email' }
  | { kind: 'url' }
  /** A whole-value pattern's items: the ASCII characters each takes, its least and most repeats. */
  | { kind: 'pattern'; items: readonly { ascii: Uint8Array; min: number; max: number }[] }
  | { kind: 'chars'; ascii: Uint8Array };

export const I64_MIN = -(2n ** 63n);
export const I64_MAX = 2n ** 63n - 1n;
const BILLION = 1_000_000_000n;
const MAX_PLACES = 9;

/** `today`: the day key (yyyymmdd) the field's allowFuture/allowPast compare with. */
export function fieldByteOps(spec: FieldSpec, today: number): ByteOp[] | null {
  const rules = spec.rules;
  if (rules.unique === true || rules.inList !== undefined || spec.anyValue === true) return null;
  const ops: ByteOp[] = [];
  const type = typeOp(spec, today);
  if (type === null) return null;
  if (type !== undefined) ops.push(type);
  if (rules.minLength !== undefined || rules.maxLength !== undefined)
    ops.push({ kind: 'length', min: rules.minLength ?? 0, max: rules.maxLength ?? 0x7fffffff });
  if (rules.pattern !== undefined) {
    const parsed = patternItems(rules.pattern);
    if (parsed === null || !parsed.startAnchor || !parsed.endAnchor) return null;
    ops.push({
      kind: 'pattern',
      items: parsed.items.map((item) => ({
        ascii: asciiBitmap(item.set),
        min: item.min,
        max: item.max === Infinity ? -1 : item.max,
      })),
    });
  }
  if (rules.allowedChars !== undefined) {
    const ranges: number[] = [];
    for (const ch of rules.allowedChars) {
      const cp = ch.codePointAt(0) as number;
      ranges.push(cp, cp);
    }
    ops.push({ kind: 'chars', ascii: asciiBitmap(ranges) });
  }
  if (rules.values !== undefined && spec.type !== 'enum') {
    // Numbers compare by value and booleans by reading (compile.ts typedValuesRule).
    if (spec.type === 'integer' || spec.type === 'number' || spec.type === 'boolean') return null;
    ops.push({ kind: 'set', values: rules.values, fold: false });
  }
  return ops;
}

/** The type's op; undefined for text (no check); null when the core cannot decide it. */
function typeOp(spec: FieldSpec, today: number): ByteOp | undefined | null {
  const rules = spec.rules;
  switch (spec.type) {
    case 'integer': {
      // Integers: the least (or most) one a bound lets through, in billionths then whole.
      const range = valueRange(rules, (scaled, exclusive, lower) => {
        const whole = scaled % BILLION === 0n;
        return lower
          ? ceilDiv(scaled, BILLION) + (exclusive && whole ? 1n : 0n)
          : floorDiv(scaled, BILLION) - (exclusive && whole ? 1n : 0n);
      });
      return range === null ? null : { kind: 'integer', ...range };
    }
    case 'number': {
      // Values the core takes are whole billionths, so `> b` is `≥ b + 1` in billionths.
      const range = valueRange(rules, (scaled, exclusive, lower) =>
        exclusive ? scaled + (lower ? 1n : -1n) : scaled,
      );
      const places = Math.min(rules.precision ?? MAX_PLACES, MAX_PLACES);
      return range === null ? null : { kind: 'decimal', places, ...range };
    }
    case 'boolean': {
      const spellings = [...(rules.truthy ?? DEFAULT_TRUTHY), ...(rules.falsy ?? DEFAULT_FALSY)];
      return { kind: 'set', values: spellings.map((s) => s.toLowerCase()), fold: true };
    }
    case 'date': {
      const segments = plainDateSegments(rules.format ?? DEFAULT_DATE_FORMAT);
      if (segments === null) return null;
      let min = 0;
      let max = 99_999_999;
      const minDate = rules.minDate === undefined ? undefined : isoDayKey(rules.minDate);
      const maxDate = rules.maxDate === undefined ? undefined : isoDayKey(rules.maxDate);
      if (minDate === null || maxDate === null) return null;
      if (minDate !== undefined) min = Math.max(min, minDate);
      if (maxDate !== undefined) max = Math.min(max, maxDate);
      if (rules.allowPast === false) min = Math.max(min, today);
      if (rules.allowFuture === false) max = Math.min(max, today);
      return { kind: 'date', segments, min, max };
    }
    case 'email':
      return { kind: 'email' };
    case 'url':
      return { kind: 'url' };
    case 'enum':
      return { kind: 'set', values: rules.values ?? [], fold: false };
    case 'string':
      return undefined;
  }
}

type Bounds = Pick<
  FieldSpec['rules'],
  'minValue' | 'maxValue' | 'exclusiveMinimum' | 'exclusiveMaximum'
>;

/**
 * The op of a number or integer field that takes the values within `bounds` (the field's own
 * bounds aside), at any precision; null when a bound is not one the core can hold.
 */
export function boundsOp(spec: FieldSpec, bounds: Bounds): ByteOp | null {
  if (spec.type !== 'integer' && spec.type !== 'number') return null;
  const op = typeOp({ ...spec, rules: bounds }, 0);
  return op ?? null;
}

/**
 * The inclusive range the field's four bounds leave, each turned by `inclusive` from its value in
 * billionths; null when a bound is not one the core can hold.
 */
function valueRange(
  rules: FieldSpec['rules'],
  inclusive: (scaled: bigint, exclusive: boolean, lower: boolean) => bigint,
): { min: bigint; max: bigint } | null {
  let min = I64_MIN;
  let max = I64_MAX;
  for (const [text, exclusive, lower] of [
    [rules.minValue, false, true],
    [rules.exclusiveMinimum, true, true],
    [rules.maxValue, false, false],
    [rules.exclusiveMaximum, true, false],
  ] as const) {
    if (text === undefined) continue;
    const scaled = scaledDecimal(text);
    if (scaled === null) return null;
    const bound = inclusive(scaled, exclusive, lower);
    if (lower) min = bound > min ? bound : min;
    else max = bound < max ? bound : max;
  }
  return { min, max };
}

/** A bound written `[+-]?digits[.digits]` with at most 9 of each, in billionths; else null. */
function scaledDecimal(text: string): bigint | null {
  const m = /^([+-]?)(\d{1,9})(?:\.(\d{1,9}))?$/.exec(text);
  if (m === null) return null;
  const value = BigInt(m[2] as string) * BILLION + BigInt((m[3] ?? '').padEnd(9, '0'));
  return m[1] === '-' ? -value : value;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a > 0n ? q + 1n : q;
}

/** A real calendar day written YYYY-MM-DD as yyyymmdd; null otherwise (then the JS decides). */
function isoDayKey(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return m === null ? null : Number(m[1]) * 10_000 + Number(m[2]) * 100 + Number(m[3]);
}

/** The ASCII code points of [lo, hi] pairs as a 128-bit map. */
function asciiBitmap(ranges: readonly number[]): Uint8Array {
  const bits = new Uint8Array(16);
  for (let k = 0; k < ranges.length; k += 2) {
    const lo = ranges[k] as number;
    const hi = Math.min(ranges[k + 1] as number, 127);
    for (let c = lo; c <= hi; c++) bits[c >> 3] = (bits[c >> 3] as number) | (1 << (c & 7));
  }
  return bits;
}
