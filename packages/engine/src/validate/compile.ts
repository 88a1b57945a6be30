// A FieldSpec compiled once into closures that check one value each. The happy path of a cell
// allocates nothing: failures are prebuilt per field and pushed by reference, and a value is read
// where it lies (text[start, end) of a CSV line), so only checks that need a string of its own
// (a regular expression, a URL) cut one out.
//
// Order of checks: the type first — a value that is not of its type gets one `type` failure and
// nothing else; otherwise every rule runs and every distinct failure is reported (so a user fixes
// a cell once, not once per re-run). An empty value never reaches these closures: the validator
// turns it into `required` or skips it.

import {
  LosslessNumber,
  type FieldRules,
  type FieldSpec,
  type FieldType,
  type JsonScalarType,
} from '../model.ts';
import { fieldByteOps, type ByteOp } from '../bytecore/field-ops.ts';
import { isIntegral, parseDecimal } from './decimal.ts';
import { DEFAULT_FALSY, DEFAULT_TRUTHY } from '../rules/boolean-spellings.ts';
import { DEFAULT_DATE_FORMAT } from '../rules/date-format.ts';
import { canonicalDecimal } from '../schema/decimal-text.ts';
import { compileSafeRegex } from '../rules/safe-regex.ts';
import { messages, ruleMessages } from './messages.ts';
import { lazySuggester, type Suggester } from './suggest.ts';
import { booleanCheck } from './rules/boolean.ts';
import { dateCheck, utcDayKey } from './rules/date.ts';
import { isValidEmail } from './rules/email.ts';
import { LastValue } from './rules/last-value.ts';
import { failure, type Failure, type RuleCheck, type TypeCheck } from './rules/failure.ts';
import { spanIsOneOf, spanText } from './rules/span.ts';
import { numericCheck, type NumericChecks } from './rules/number.ts';
import { allowedCharsRule, lengthRules } from './rules/string.ts';
import { type SeenRegistry, uniqueRule } from './rules/unique.ts';
import { isValidHttpUrl } from './rules/url.ts';

export type { Failure } from './rules/failure.ts';

export interface CompiledField {
  readonly name: string;
  readonly type: FieldType;
  readonly required: boolean;
  /** Its checks remember values across rows (unique): run them once per record, never twice. */
  readonly stateful: boolean;
  /** 'warning': its failures are warnings (FieldRules.severity). */
  readonly severity: 'warning' | undefined;
  /** Its own message template (FieldRules.message), replacing every failure's message. */
  readonly template: string | undefined;
  /** A present, non-empty text value text[start, end) (a CSV cell, in its line or on its own). */
  checkSpan(text: string, start: number, end: number, row: number, out: Failure[]): void;
  /** A present, non-null JSON value: JSON typing applies (`"2"` is not an integer). */
  checkJson(value: unknown, row: number, out: Failure[]): void;
  /**
   * A JSON string value with no escapes, where it lies (text[start, end), between its quotes):
   * exactly what checkJson does with the string, without cutting it out. Undefined for fields
   * whose checkJson does more with a string than check its text (number, integer and boolean
   * types, JSON type lists, any value).
   */
  readonly checkJsonString: CompiledField['checkSpan'] | undefined;
  /**
   * Dates, numbers and enums: the value the type check last accepted, with what it read (a
   * date's key, a number's scan; an enum's value is listed), for the cross-field rules.
   */
  readonly last: LastValue | undefined;
  /** What the byte core checks of a cell instead of checkSpan; null: checkSpan only (bytecore/). */
  readonly byteOps: readonly ByteOp[] | null;
}

export interface CompileOptions {
  /** "Today" for allowFuture/allowPast; defaults to the current time. */
  now?: Date;
  /** Reference lists by name, for `inList` (a name not here is not checked: see validator.ts). */
  lists?: ReadonlyMap<string, ReadonlySet<string>>;
  /** Where `unique` gets its table of seen values (parallel validation); a new one when unset. */
  seen?: SeenRegistry;
}

/**
 * Compiles one field. The SchemaModel is assumed checked by the schema parser; a pattern or
 * date format that still does not compile is a programming error and throws.
 */
export function compileField(spec: FieldSpec, options: CompileOptions = {}): CompiledField {
  const last =
    spec.type === 'integer' ||
    spec.type === 'number' ||
    spec.type === 'date' ||
    spec.type === 'enum'
      ? new LastValue()
      : undefined;
  const numeric =
    spec.type === 'integer' || spec.type === 'number'
      ? numericCheck(spec.type, spec.rules, last)
      : undefined;
  // One "today" for the closures and the byte core, even across midnight.
  const today = utcDayKey(options.now ?? new Date());
  const typeCheck = compileTypeCheck(spec, today, numeric, last);
  const rules = compileRules(spec, options);
  const ruleCount = rules.length;
  const firstRule = rules[0];

  const checkValue = (
    text: string,
    start: number,
    end: number,
    row: number,
    out: Failure[],
    fromJson: boolean,
  ) => {
    if (!typeCheck(text, start, end, row, out, fromJson)) return;
    for (let i = 0; i < ruleCount; i++) (rules[i] as RuleCheck)(text, start, end, row, out);
  };
  // Fewer calls per cell for the usual fields: the type alone, or the type and one rule.
  const checkSpan: CompiledField['checkSpan'] =
    firstRule === undefined
      ? typeCheck
      : ruleCount === 1
        ? (text, start, end, row, out) => {
            if (typeCheck(text, start, end, row, out)) firstRule(text, start, end, row, out);
          }
        : (text, start, end, row, out) => checkValue(text, start, end, row, out, false);
  const jsonFailures = jsonTypeFailures(spec);

  return {
    name: spec.name,
    type: spec.type,
    // A CSV cell has no enclosing object to be present (FieldSpec.requiredWithin).
    required: spec.required && (spec.requiredWithin ?? 0) === 0,
    stateful: spec.rules.unique === true,
    severity: spec.rules.severity,
    template: spec.rules.message,
    last,
    byteOps: fieldByteOps(spec, today),
    checkSpan,
    // What checkJson below does with a string a field of these types accepts: checkValue on its
    // text, which checkSpan is (acceptedText gives the string itself).
    checkJsonString:
      spec.anyValue ||
      spec.jsonTypes !== undefined ||
      numeric !== undefined ||
      spec.type === 'boolean'
        ? undefined
        : checkSpan,
    // Any JSON value is accepted (see FieldSpec.anyValue); a CSV cell is text, checked as text.
    checkJson: spec.anyValue
      ? () => {}
      : spec.jsonTypes !== undefined
        ? severalTypes(spec.jsonTypes, (text, row, out) =>
            checkValue(text, 0, text.length, row, out, false),
          )
        : (value, row, out) => {
            if (numeric !== undefined && typeof value === 'number') {
              // A double is checked as a number; only further rules need its text.
              if (!numeric.double(value, out) || ruleCount === 0) return;
              const text = String(value);
              for (let i = 0; i < ruleCount; i++)
                (rules[i] as RuleCheck)(text, 0, text.length, row, out);
              return;
            }
            const kind = jsonKind(value);
            const text = kind === 'other' ? undefined : acceptedText(spec.type, kind, value);
            if (text === undefined) out.push(jsonFailures[kind]);
            else checkValue(text, 0, text.length, row, out, kind !== 'string');
          },
  };
}

function compileTypeCheck(
  spec: FieldSpec,
  today: number,
  numeric: NumericChecks | undefined,
  last: LastValue | undefined,
): TypeCheck {
  const rules = spec.rules;
  switch (spec.type) {
    case 'integer':
    case 'number':
      return (numeric as NumericChecks).text;
    case 'boolean':
      return booleanCheck(rules);
    case 'date':
      return dateCheck(rules, today, last);
    case 'email':
      return typeIf(isValidEmail, failure('type', messages.email));
    case 'url':
      return typeIf(isValidHttpUrl, failure('type', messages.url));
    case 'enum': {
      // The list is the enum's type, but a value outside it is an `enum` failure and the rules still run.
      const check = valuesRule(rules.values ?? [], last);
      return (text, start, end, row, out) => {
        check(text, start, end, row, out);
        return true;
      };
    }
    case 'string':
      return () => true;
  }
}

function typeIf(test: (value: string) => boolean, typeFailure: Failure): TypeCheck {
  return (text, start, end, _row, out) => {
    if (test(spanText(text, start, end))) return true;
    out.push(typeFailure);
    return false;
  };
}

const SHORT_LIST = 8;

/** `last`: holds each value found listed. */
function valuesRule(values: string[], last?: LastValue): RuleCheck {
  const notListed = failure('enum', messages.enum(values));
  const miss = missReporter(
    notListed,
    lazySuggester(() => values),
  );
  if (values.length <= SHORT_LIST) {
    // A few === comparisons (a length check each, mostly) beat hashing every cell.
    const list = [...values];
    return (text, start, end, _row, out) => {
      if (!spanIsOneOf(text, start, end, list)) miss(text, start, end, out);
      else if (last !== undefined) last.hold(text, start, end, 0);
    };
  }
  const allowed = new Set(values);
  return (text, start, end, _row, out) => {
    if (!allowed.has(spanText(text, start, end))) miss(text, start, end, out);
    else if (last !== undefined) last.hold(text, start, end, 0);
  };
}

/**
 * Pushes the failure of a value not in a list: with "did you mean" and a `suggestion` when the
 * list's index knows a near value (validate/suggest.ts), else the shared prebuilt failure.
 */
function missReporter(
  notListed: Failure,
  suggester: Suggester,
): (text: string, start: number, end: number, out: Failure[]) => void {
  return (text, start, end, out) => {
    const suggestion = suggester.suggest(spanText(text, start, end));
    if (suggestion === undefined) out.push(notListed);
    else
      out.push({
        code: notListed.code,
        message: ruleMessages.didYouMean(notListed.message, suggestion),
        suggestion,
      });
  };
}

/** `inList`: the value must be in the named reference list (a Set built once per validation). */
function listRule(name: string, list: ReadonlySet<string>): RuleCheck {
  const miss = missReporter(
    failure('in_list', ruleMessages.inList(name)),
    lazySuggester(() => list),
  );
  return (text, start, end, _row, out) => {
    if (!list.has(spanText(text, start, end))) miss(text, start, end, out);
  };
}

/**
 * Allowed values compared the way the field reads its values: a boolean by its reading (with
 * `values: ["true"]`, `TRUE`, `yes` and `1` are all allowed when they spell true), an integer or
 * number by its value (`1.0` and `1`, and integers beyond 2^53, compare exactly as decimals),
 * anything else as written. The type check runs first, so only values of the type get here.
 */
function typedValuesRule(spec: FieldSpec, values: string[]): RuleCheck {
  const notListed = failure('enum', messages.enum(values));
  if (spec.type === 'boolean') {
    const truthy = new Set((spec.rules.truthy ?? DEFAULT_TRUTHY).map((v) => v.toLowerCase()));
    const falsy = new Set((spec.rules.falsy ?? DEFAULT_FALSY).map((v) => v.toLowerCase()));
    // JSON booleans reach the rules as the text "true"/"false" whatever the spellings are.
    const reading = (v: string): boolean | undefined => {
      const lower = v.toLowerCase();
      return truthy.has(lower) || lower === 'true'
        ? true
        : falsy.has(lower) || lower === 'false'
          ? false
          : undefined;
    };
    const allowed = new Set(values.map(reading).filter((r) => r !== undefined));
    return (text, start, end, _row, out) => {
      if (!allowed.has(reading(spanText(text, start, end)) as boolean)) out.push(notListed);
    };
  }
  if (spec.type === 'integer' || spec.type === 'number') {
    const allowed = new Set(values.map((v) => canonicalDecimal(v) ?? v));
    return (text, start, end, _row, out) => {
      const cell = spanText(text, start, end);
      if (!allowed.has(canonicalDecimal(cell) ?? cell)) out.push(notListed);
    };
  }
  return valuesRule(values);
}

function compileRules(spec: FieldSpec, options: CompileOptions): RuleCheck[] {
  const rules: FieldRules = spec.rules;
  const out: RuleCheck[] = [];
  const length = lengthRules(rules.minLength, rules.maxLength);
  if (length) out.push(length);
  if (rules.pattern !== undefined) {
    const compiled = compileSafeRegex(rules.pattern);
    if (!compiled.ok)
      throw new TypeError(`Field '${spec.name}': invalid pattern: ${compiled.message}`);
    const regex = compiled.regex;
    const mismatch = failure('pattern', messages.pattern(rules.pattern));
    out.push((text, start, end, _row, failures) => {
      if (!regex.test(spanText(text, start, end))) failures.push(mismatch);
    });
  }
  if (rules.allowedChars !== undefined) out.push(allowedCharsRule(rules.allowedChars));
  if (rules.values !== undefined && spec.type !== 'enum')
    out.push(typedValuesRule(spec, rules.values));
  const list = rules.inList === undefined ? undefined : options.lists?.get(rules.inList);
  if (list !== undefined) out.push(listRule(rules.inList as string, list));
  // Last, so that only values of the right type take part in uniqueness. Numbers are unique by
  // value (`1`, `01`, `+1` and `1.0` are one value), in CSV as in JSON.
  if (rules.unique === true)
    out.push(uniqueRule(spec.type === 'integer' || spec.type === 'number', options.seen?.next()));
  return out;
}

/**
 * A JSON value of any of `types` passes (JSON Schema's type list); text values also go through
 * the field's text rules, as JSON Schema applies string keywords to strings only.
 */
function severalTypes(
  types: readonly JsonScalarType[],
  checkText: (text: string, row: number, out: Failure[]) => void,
): CompiledField['checkJson'] {
  const names: Record<JsonScalarType, string> = {
    string: 'text',
    integer: 'a whole number',
    number: 'a number',
    boolean: 'true or false',
  };
  const wrongType = failure('type', messages.oneOfTypes(types.map((t) => names[t])));
  const text = types.includes('string');
  const number = types.includes('number');
  const integer = types.includes('integer');
  const boolean = types.includes('boolean');
  return (value, row, out) => {
    const kind = jsonKind(value);
    if (kind === 'string' && text) checkText(value as string, row, out);
    else if (kind === 'boolean' && boolean) return;
    else if (kind === 'number' && (number || (integer && isWholeNumber(value)))) return;
    else out.push(wrongType);
  };
}

function isWholeNumber(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value);
  const decimal = parseDecimal((value as LosslessNumber).raw);
  return decimal !== undefined && isIntegral(decimal);
}

type JsonKind = 'string' | 'number' | 'boolean' | 'other';

function jsonKind(value: unknown): JsonKind {
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return value instanceof LosslessNumber ? 'number' : 'other';
  }
}

/**
 * JSON typing: integer and number take JSON numbers, boolean a JSON boolean, every other type a
 * JSON string — except enum, whose listed values may be written as numbers or booleans too
 * (`1` and `"1"` both match a listed "1"). The text handed on is the value as the rules see it.
 */
function acceptedText(
  type: FieldType,
  kind: Exclude<JsonKind, 'other'>,
  value: unknown,
): string | undefined {
  switch (type) {
    case 'integer':
    case 'number':
      return kind === 'number' ? numberText(value) : undefined;
    case 'boolean':
      return kind === 'boolean' ? String(value) : undefined;
    case 'enum':
      return kind === 'number' ? numberText(value) : String(value);
    default:
      return kind === 'string' ? (value as string) : undefined;
  }
}

/** A double's shortest round-trip text (`1.5`, `1e+21`), or a LosslessNumber's literal. */
const numberText = (value: unknown): string =>
  typeof value === 'number' ? String(value) : (value as LosslessNumber).raw;

/** The type failure of a JSON value of the wrong kind, worded for what was written. */
function jsonTypeFailures(spec: FieldSpec): Record<JsonKind, Failure> {
  const base = jsonTypeMessage(spec);
  const inQuotes: Partial<Record<FieldType, string>> = {
    integer: messages.jsonInteger,
    number: messages.jsonNumber,
    boolean: messages.jsonBoolean,
  };
  const scalar = spec.type === 'string' ? messages.jsonText : base;
  return {
    string: failure('type', inQuotes[spec.type] ?? base),
    number: failure('type', scalar),
    boolean: failure('type', scalar),
    other: failure('type', base),
  };
}

function jsonTypeMessage(spec: FieldSpec): string {
  switch (spec.type) {
    case 'integer':
      return messages.integer;
    case 'number':
      return messages.number;
    case 'boolean':
      return messages.jsonTrueFalse;
    case 'date':
      return messages.date(spec.rules.format ?? DEFAULT_DATE_FORMAT);
    case 'email':
      return messages.email;
    case 'url':
      return messages.url;
    case 'enum':
      return messages.enum(spec.rules.values ?? []);
    case 'string':
      return messages.text;
  }
}
