// A FieldSpec compiled once into closures that check one value each. The happy path of a cell
// allocates nothing: failures are prebuilt per field and pushed by reference.
//
// Order of checks: the type first — a value that is not of its type gets one `type` failure and
// nothing else; otherwise every rule runs and every distinct failure is reported (so a user fixes
// a cell once, not once per re-run). An empty value never reaches these closures: the validator
// turns it into `required` or skips it.

import { LosslessNumber, type FieldRules, type FieldSpec, type FieldType } from '../model.ts';
import { DEFAULT_DATE_FORMAT } from '../rules/date-format.ts';
import { compileSafeRegex } from '../rules/safe-regex.ts';
import { messages } from './messages.ts';
import { booleanCheck } from './rules/boolean.ts';
import { dateCheck, utcDayKey } from './rules/date.ts';
import { isValidEmail } from './rules/email.ts';
import { failure, type Failure, type RuleCheck } from './rules/failure.ts';
import { numericCheck } from './rules/number.ts';
import { allowedCharsRule, lengthRules } from './rules/string.ts';
import { uniqueRule } from './rules/unique.ts';
import { isValidHttpUrl } from './rules/url.ts';

export type { Failure } from './rules/failure.ts';

export interface CompiledField {
  readonly name: string;
  readonly type: FieldType;
  readonly required: boolean;
  /** A present, non-empty text value (a CSV cell). */
  checkText(value: string, row: number, out: Failure[]): void;
  /** A present, non-null JSON value: JSON typing applies (`"2"` is not an integer). */
  checkJson(value: unknown, row: number, out: Failure[]): void;
}

export interface CompileOptions {
  /** "Today" for allowFuture/allowPast; defaults to the current time. */
  now?: Date;
}

/** Text in, false when the value failed its type (the failure already pushed). */
type TypeCheck = (value: string, fromJson: boolean, out: Failure[]) => boolean;

/**
 * Compiles one field. The SchemaModel is assumed checked by the schema parser; a pattern or
 * date format that still does not compile is a programming error and throws.
 */
export function compileField(spec: FieldSpec, options: CompileOptions = {}): CompiledField {
  const typeCheck = compileTypeCheck(spec, options);
  const rules = compileRules(spec);
  const ruleCount = rules.length;

  const checkValue = (value: string, fromJson: boolean, row: number, out: Failure[]) => {
    if (!typeCheck(value, fromJson, out)) return;
    for (let i = 0; i < ruleCount; i++) (rules[i] as RuleCheck)(value, row, out);
  };
  const jsonFailures = jsonTypeFailures(spec);

  return {
    name: spec.name,
    type: spec.type,
    required: spec.required,
    checkText: (value, row, out) => checkValue(value, false, row, out),
    checkJson: (value, row, out) => {
      const kind = jsonKind(value);
      const text = kind === 'other' ? undefined : acceptedText(spec.type, kind, value);
      if (text === undefined) out.push(jsonFailures[kind]);
      else checkValue(text, kind !== 'string', row, out);
    },
  };
}

function compileTypeCheck(spec: FieldSpec, options: CompileOptions): TypeCheck {
  const rules = spec.rules;
  switch (spec.type) {
    case 'integer':
    case 'number':
      return numericCheck(spec.type, rules);
    case 'boolean': {
      const check = booleanCheck(rules);
      // A JSON boolean arrives as the text "true"/"false", already a boolean.
      return (value, fromJson, out) => fromJson || check(value, out);
    }
    case 'date': {
      const check = dateCheck(rules, utcDayKey(options.now ?? new Date()));
      return (value, _fromJson, out) => check(value, out);
    }
    case 'email':
      return typeIf(isValidEmail, failure('type', messages.email));
    case 'url':
      return typeIf(isValidHttpUrl, failure('type', messages.url));
    case 'enum':
      return valuesRuleAsType(rules.values ?? []);
    case 'string':
      return () => true;
  }
}

function typeIf(test: (value: string) => boolean, typeFailure: Failure): TypeCheck {
  return (value, _fromJson, out) => {
    if (test(value)) return true;
    out.push(typeFailure);
    return false;
  };
}

/** An enum's list is its type, but a value outside it is an `enum` failure and the rules still run. */
function valuesRuleAsType(values: string[]): TypeCheck {
  const check = valuesRule(values);
  return (value, _fromJson, out) => {
    check(value, 0, out);
    return true;
  };
}

function valuesRule(values: string[]): RuleCheck {
  const allowed = new Set(values);
  const notListed = failure('enum', messages.enum(values));
  return (value, _row, out) => {
    if (!allowed.has(value)) out.push(notListed);
  };
}

function compileRules(spec: FieldSpec): RuleCheck[] {
  const rules: FieldRules = spec.rules;
  const out: RuleCheck[] = [];
  const length = lengthRules(rules.minLength, rules.maxLength);
  if (length) out.push(length);
  if (rules.pattern !== undefined) {
    const compiled = compileSafeRegex(rules.pattern);
    if (!compiled.ok) throw new TypeError(`Field '${spec.name}': invalid pattern: ${compiled.message}`);
    const regex = compiled.regex;
    const mismatch = failure('pattern', messages.pattern(rules.pattern));
    out.push((value, _row, failures) => {
      if (!regex.test(value)) failures.push(mismatch);
    });
  }
  if (rules.allowedChars !== undefined) out.push(allowedCharsRule(rules.allowedChars));
  if (rules.values !== undefined && spec.type !== 'enum') out.push(valuesRule(rules.values));
  // Last, so that only values of the right type take part in uniqueness.
  if (rules.unique === true) out.push(uniqueRule());
  return out;
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
function acceptedText(type: FieldType, kind: Exclude<JsonKind, 'other'>, value: unknown): string | undefined {
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
const numberText = (value: unknown): string => (typeof value === 'number' ? String(value) : (value as LosslessNumber).raw);

function jsonTypeFailures(spec: FieldSpec): Record<JsonKind, Failure> {
  const plain = failure('type', csvTypeMessage(spec));
  const quoted: Record<FieldType, string> = {
    integer: messages.jsonInteger,
    number: messages.jsonNumber,
    boolean: messages.jsonBoolean,
    string: messages.text,
    date: plain.message,
    email: plain.message,
    url: plain.message,
    enum: plain.message,
  };
  const unquoted = spec.type === 'string' ? messages.jsonText : plain.message;
  const general = spec.type === 'boolean' ? messages.jsonTrueFalse : spec.type === 'string' ? messages.text : plain.message;
  return {
    string: failure('type', quoted[spec.type]),
    number: failure('type', spec.type === 'boolean' ? messages.jsonTrueFalse : unquoted),
    boolean: failure('type', spec.type === 'boolean' ? messages.jsonTrueFalse : unquoted),
    other: failure('type', general),
  };
}

function csvTypeMessage(spec: FieldSpec): string {
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
