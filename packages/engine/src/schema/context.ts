// What every form reader shares: where a value was found, and the problems and warnings found so
// far. A schema is never refused at its first problem: readers carry on and report them all.
import { LosslessNumber, type SchemaProblem } from '../model.ts';
import { canonicalDecimal, numberToDecimal } from './decimal-text.ts';

/** A value as it appears in the input, with its path (for messages) and the name the user wrote. */
export interface Found {
  value: unknown;
  path: string;
  label: string;
}

export class Context {
  readonly problems: SchemaProblem[] = [];
  readonly warnings: string[] = [];
  /** The field being read (-1: the schema itself), so that problems list in reading order. */
  field = -1;
  /** The compiled size of the schema's patterns so far (see MAX_SCHEMA_PATTERN_COST). */
  patternCost = 0;
  private readonly ranks: number[] = [];

  problem(path: string, message: string): void {
    this.problems.push({ path, message });
    this.ranks.push(this.field);
  }

  /** Problems in the order a person reads the schema: the schema's own, then field by field. */
  orderedProblems(): SchemaProblem[] {
    return this.problems
      .map((problem, i) => ({ problem, rank: this.ranks[i] ?? -1, i }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map((x) => x.problem);
  }

  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

/** `fields[2].validation`, `properties["a b"]`: dotted where the key allows it. */
export function joinPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (IDENTIFIER.test(key)) return base === '' ? key : `${base}.${key}`;
  return `${base}[${JSON.stringify(key)}]`;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof LosslessNumber)
  );
}

/** An own property only: a key like "constructor" must not reach Object.prototype. */
export function own(obj: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

export function found(obj: Record<string, unknown>, key: string, base: string): Found | undefined {
  const value = own(obj, key);
  return value === undefined ? undefined : { value, path: joinPath(base, key), label: key };
}

/** null, '' and [] mean "not set" in every form (a cleared input of the web form sends them). */
export function isUnset(f: Found | undefined): boolean {
  return (
    f === undefined ||
    f.value === null ||
    f.value === '' ||
    (Array.isArray(f.value) && f.value.length === 0)
  );
}

export function readText(f: Found | undefined, ctx: Context): string | undefined {
  if (isUnset(f) || f === undefined) return undefined;
  if (typeof f.value === 'string') return f.value;
  ctx.problem(f.path, `${f.label} must be text`);
  return undefined;
}

export function readBoolean(f: Found | undefined, ctx: Context): boolean | undefined {
  if (isUnset(f) || f === undefined) return undefined;
  if (f.value === true || f.value === 'true') return true;
  if (f.value === false || f.value === 'false') return false;
  ctx.problem(f.path, `${f.label} must be true or false`);
  return undefined;
}

/** Numbers, big numbers and the text of a number input, as canonical decimal text. */
export function numericText(value: unknown): string | null {
  if (typeof value === 'number') return numberToDecimal(value);
  if (value instanceof LosslessNumber) return canonicalDecimal(value.raw);
  if (typeof value === 'string') return canonicalDecimal(value.trim());
  return null;
}

export function readDecimal(f: Found | undefined, ctx: Context): string | undefined {
  if (isUnset(f) || f === undefined) return undefined;
  const text = numericText(f.value);
  if (text === null) {
    ctx.problem(f.path, `${f.label} must be a number`);
    return undefined;
  }
  return text;
}

const MAX_WHOLE = 1_000_000_000;

/** A count such as a length or a number of decimal places: a whole number, 0 or more. */
export function readCount(f: Found | undefined, ctx: Context, max = MAX_WHOLE): number | undefined {
  if (isUnset(f) || f === undefined) return undefined;
  const text = numericText(f.value);
  if (text === null) {
    ctx.problem(f.path, `${f.label} must be a number`);
    return undefined;
  }
  if (text.includes('.')) {
    ctx.problem(f.path, `${f.label} must be a whole number`);
    return undefined;
  }
  if (text.startsWith('-')) {
    ctx.problem(f.path, `${f.label} cannot be negative`);
    return undefined;
  }
  if (text.length > 10 || Number(text) > max) {
    ctx.problem(f.path, `${f.label} must be at most ${withCommas(max)}`);
    return undefined;
  }
  return Number(text);
}

/** A list of text values; problems name the first item that is not text. */
export function readTextList(
  f: Found | undefined,
  ctx: Context,
  maxItems: number,
): string[] | undefined {
  if (isUnset(f) || f === undefined) return undefined;
  if (!Array.isArray(f.value)) {
    ctx.problem(f.path, `${f.label} must be a list of text values, like ["a", "b"]`);
    return undefined;
  }
  if (f.value.length > maxItems) {
    ctx.problem(
      f.path,
      `${f.label} can hold at most ${withCommas(maxItems)} values; it has ${withCommas(f.value.length)}`,
    );
    return undefined;
  }
  const bad = f.value.findIndex((v) => typeof v !== 'string');
  if (bad >= 0) {
    ctx.problem(
      joinPath(f.path, bad),
      `${f.label} must be a list of text values; item ${bad + 1} is ${describeValue(f.value[bad])}`,
    );
    return undefined;
  }
  return f.value as string[];
}

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof LosslessNumber || typeof value === 'number')
    return `the number ${String(value)}`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'boolean') return `${value}`;
  return typeof value;
}

/** 1,000,000: the same digits in every runtime, unlike toLocaleString. */
export function withCommas(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
