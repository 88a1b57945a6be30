// The one place where rules are checked. Every form reader turns its input into RawSchema (values
// still as written, each with its path), and this builds the SchemaModel or lists every problem.
import {
  FIELD_TYPES,
  type FieldRules,
  type FieldSpec,
  type FieldType,
  type FileType,
  type JsonScalarType,
  type ObjectSpec,
  type SchemaModel,
} from '../model.ts';
import { DEFAULT_FALSY, DEFAULT_TRUTHY } from '../rules/boolean-spellings.ts';
import { compileDateFormat, DEFAULT_DATE_FORMAT, parseIsoDate } from '../rules/date-format.ts';
import { compileSafeRegex } from '../rules/safe-regex.ts';
import {
  type Context,
  type Found,
  isUnset,
  joinPath,
  readBoolean,
  readCount,
  readDecimal,
  readText,
  readTextList,
  withCommas,
} from './context.ts';
import { readCrossFieldRules } from './cross-field.ts';
import { compareDecimal } from './decimal-text.ts';
import {
  MAX_ALLOWED_CHARS,
  MAX_BOOLEAN_SPELLINGS,
  MAX_FIELD_NAME_LENGTH,
  MAX_FIELDS,
  MAX_PRECISION,
  MAX_SCHEMA_NAME_LENGTH,
  MAX_SCHEMA_PATTERN_COST,
  MAX_VALUE_LENGTH,
  MAX_VALUES,
} from './limits.ts';
import type { WebFieldValidation } from './web-types.ts';

export type RuleKey = keyof WebFieldValidation;

/** Which types each rule applies to; `any` rules work on the text of every value. */
const RULE_TYPES: Record<RuleKey, readonly FieldType[] | 'any'> = {
  minLength: 'any',
  maxLength: 'any',
  pattern: 'any',
  allowedChars: 'any',
  values: 'any',
  unique: 'any',
  customRule: 'any',
  inList: 'any',
  severity: 'any',
  message: 'any',
  minValue: ['integer', 'number'],
  maxValue: ['integer', 'number'],
  exclusiveMinimum: ['integer', 'number'],
  exclusiveMaximum: ['integer', 'number'],
  precision: ['number'],
  truthy: ['boolean'],
  falsy: ['boolean'],
  format: ['date'],
  minDate: ['date'],
  maxDate: ['date'],
  allowFuture: ['date'],
  allowPast: ['date'],
};

export const RULE_KEYS = Object.keys(RULE_TYPES) as RuleKey[];

export function isRuleKey(key: string): key is RuleKey {
  return Object.prototype.hasOwnProperty.call(RULE_TYPES, key);
}

export interface RawField {
  /** Where the field is, e.g. `fields[2]` or `properties.address.properties.zip`. */
  path: string;
  /** Its position in the input, which orders problems (see Context.field). */
  ordinal: number;
  name: Found | undefined;
  /** Where a missing name would be written, for the message. */
  namePath: string;
  type: Found | undefined;
  required: Found | undefined;
  /** JSON Schema: any value is accepted (`{}`, an array, null only); only presence is checked. */
  anyValue?: boolean;
  /** JSON Schema: several scalar types (FieldSpec.jsonTypes). */
  jsonTypes?: string[];
  /** JSON Schema: `required` applies once this many leading objects are present (FieldSpec). */
  requiredWithin?: number;
  /** JSON Schema: the property names to the value, when a name has a dot (FieldSpec.path). */
  propertyPath?: string[];
  rules: Partial<Record<RuleKey, Found>>;
  /** Where rules are written, for problems about a rule that is missing. */
  rulesPath: string;
  /** The type names of the form, when they differ from ours (for the unknown-type message). */
  typeNames?: readonly string[];
}

export interface RawSchema {
  name?: Found;
  fileType?: Found;
  orderMatters?: Found;
  additionalColumns?: Found;
  additionalProperties?: Found;
  /** Undefined when the form reader has already reported why there is no field list. */
  fields: RawField[] | undefined;
  fieldsPath: string;
  /** How many fields the input had (only the first MAX_FIELDS are read). */
  fieldCount: number;
  /** The input has at least fieldCount fields (a reader stopped counting past MAX_FIELDS). */
  fieldCountIsLowerBound?: boolean;
  /** JSON Schema: nested objects that say more than their fields (SchemaModel.objects). */
  objects?: ObjectSpec[];
  /** Cross-field rules, read once the fields are built (schema/cross-field.ts). */
  rules?: Found;
  /** Table Schema: cells that mean "no value" besides the empty one. */
  missingValues?: string[];
}

/**
 * Cells that mean "no value" (Table Schema's missingValues, also kept by our JSON Schema export):
 * the list without "", which always means no value; undefined when nothing is left.
 */
export function readMissingValueList(
  value: unknown,
  path: string,
  ctx: Context,
): string[] | undefined {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    ctx.problem(path, 'missingValues must be a list of text values, like ["", "NA"]');
    return undefined;
  }
  const list = [...new Set((value as string[]).filter((v) => v !== ''))];
  return list.length > 0 ? list : undefined;
}

export function buildModel(raw: RawSchema, ctx: Context): SchemaModel | undefined {
  const name = readText(raw.name, ctx) ?? '';
  if (name.length > MAX_SCHEMA_NAME_LENGTH) {
    ctx.problem(
      raw.name?.path ?? 'name',
      `The schema name is longer than ${MAX_SCHEMA_NAME_LENGTH} characters`,
    );
  }
  const fileType = readFileType(raw.fileType, ctx);
  const orderMatters = readBoolean(raw.orderMatters, ctx) ?? false;
  const additionalColumns = readBoolean(raw.additionalColumns, ctx) ?? true;
  const additionalProperties = readBoolean(raw.additionalProperties, ctx) ?? true;

  const fields: FieldSpec[] = [];
  if (raw.fields !== undefined) {
    if (raw.fieldCount === 0) ctx.problem(raw.fieldsPath, 'The schema needs at least one field');
    if (raw.fieldCount > MAX_FIELDS) {
      ctx.problem(
        raw.fieldsPath,
        `A schema can have at most ${MAX_FIELDS} fields; this one has ${raw.fieldCountIsLowerBound ? 'at least ' : ''}${withCommas(raw.fieldCount)}`,
      );
    }
    const firstSeen = new Map<string, string>();
    for (const rawField of raw.fields.slice(0, MAX_FIELDS)) {
      ctx.field = rawField.ordinal;
      const field = buildField(rawField, ctx);
      const name = rawField.name?.value;
      if (typeof name === 'string' && name !== '') {
        // JSON `{"a.b": 1}` and `{"a": {"b": 1}}` are different properties with one dotted name:
        // both may be described (a CSV schema has no property paths, so there it is one column).
        const key =
          rawField.propertyPath === undefined ? name : JSON.stringify(rawField.propertyPath);
        const earlier = firstSeen.get(key);
        if (earlier !== undefined) {
          ctx.problem(
            rawField.name?.path ?? rawField.namePath,
            `The field name '${name}' is used twice (also at ${earlier})`,
          );
        } else firstSeen.set(key, rawField.path);
      }
      if (field !== undefined) fields.push(field);
    }
  }
  ctx.field = -1;
  const crossField = readCrossFieldRules(raw.rules, fields, ctx);
  if (
    raw.fields !== undefined &&
    raw.fieldCount > 0 &&
    fields.length === 0 &&
    ctx.problems.length === 0
  ) {
    ctx.problem(raw.fieldsPath, 'None of the fields can be checked (see the warnings)');
  }
  if (ctx.problems.length > 0) return undefined;
  const model: SchemaModel = {
    name,
    fields,
    orderMatters,
    additionalColumns,
    additionalProperties,
  };
  if (fileType !== undefined) model.fileType = fileType;
  if (raw.objects !== undefined && raw.objects.length > 0) model.objects = raw.objects;
  if (crossField !== undefined) model.rules = crossField;
  if (raw.missingValues !== undefined) model.missingValues = raw.missingValues;
  return model;
}

function readFileType(f: Found | undefined, ctx: Context): FileType | undefined {
  const text = readText(f, ctx);
  if (text === undefined) return undefined;
  if (text === 'csv' || text === 'json') return text;
  ctx.problem(
    f?.path ?? 'fileType',
    `${f?.label ?? 'fileType'} must be csv or json, not '${text}'`,
  );
  return undefined;
}

const TYPE_LIST = FIELD_TYPES.join(', ');

function buildField(raw: RawField, ctx: Context): FieldSpec | undefined {
  const before = ctx.problems.length;
  const name = readText(raw.name, ctx);
  if (raw.name === undefined || isUnset(raw.name) || name?.trim() === '') {
    ctx.problem(raw.name?.path ?? raw.namePath, 'Every field needs a name');
  } else if (name !== undefined && name.length > MAX_FIELD_NAME_LENGTH) {
    ctx.problem(raw.name.path, `The field name is longer than ${MAX_FIELD_NAME_LENGTH} characters`);
  }
  const type = readType(raw, ctx);
  const required = readBoolean(raw.required, ctx) ?? false;
  const rules = buildRules(raw, type, ctx);
  if (ctx.problems.length > before || name === undefined || type === undefined) return undefined;
  const spec: FieldSpec = { name, type, required, rules };
  if (raw.anyValue === true) spec.anyValue = true;
  if (raw.propertyPath !== undefined) spec.path = raw.propertyPath;
  if (raw.jsonTypes !== undefined) spec.jsonTypes = raw.jsonTypes as JsonScalarType[];
  if (required && raw.requiredWithin !== undefined && raw.requiredWithin > 0)
    spec.requiredWithin = raw.requiredWithin;
  return spec;
}

function readType(raw: RawField, ctx: Context): FieldType | undefined {
  const f = raw.type;
  if (f === undefined || isUnset(f)) {
    ctx.problem(
      f?.path ?? joinPath(raw.path, 'type'),
      `The field type is missing. Use one of: ${TYPE_LIST}`,
    );
    return undefined;
  }
  if (typeof f.value === 'string' && (FIELD_TYPES as readonly string[]).includes(f.value))
    return f.value as FieldType;
  const shown =
    typeof f.value === 'string' ? `'${f.value}'` : (JSON.stringify(f.value) ?? String(f.value));
  ctx.problem(
    f.path,
    `Unknown type ${shown}. Use one of: ${raw.typeNames?.join(', ') ?? TYPE_LIST}`,
  );
  return undefined;
}

function buildRules(raw: RawField, type: FieldType | undefined, ctx: Context): FieldRules {
  // With an unknown type every rule is still checked, so that all problems show at once.
  const usable: Partial<Record<RuleKey, Found>> = {};
  for (const key of RULE_KEYS) {
    const f = raw.rules[key];
    if (f === undefined) continue;
    const types = RULE_TYPES[key];
    if (type === undefined || types === 'any' || types.includes(type)) usable[key] = f;
    else if (!isUnset(f) && !isDefault(key, f.value))
      ctx.warn(
        `${f.label} applies to ${describeTypes(types)} fields only and was ignored at ${f.path}`,
      );
  }
  const applies = (key: RuleKey): Found | undefined => usable[key];
  const rules: FieldRules = {};
  lengthRules(applies, rules, ctx);
  textRules(applies, rules, ctx, type, raw.rulesPath);
  if (type === undefined || type === 'integer' || type === 'number')
    numericRules(applies, rules, ctx);
  if (type === undefined || type === 'boolean')
    booleanRules(applies, rules, ctx, type === 'boolean');
  if (type === undefined || type === 'date') dateRules(applies, rules, ctx, type === 'date');
  outcomeRules(applies, rules, ctx);
  const customRule = applies('customRule');
  if (!isUnset(customRule) && customRule !== undefined) {
    ctx.warn(`customRule is not supported and was ignored at ${customRule.path}`);
  }
  return rules;
}

type Applies = (key: RuleKey) => Found | undefined;

/** inList, severity and message: what a failure is checked against and how it is reported. */
function outcomeRules(applies: Applies, rules: FieldRules, ctx: Context): void {
  const listF = applies('inList');
  const list = readText(listF, ctx);
  if (list !== undefined && listF !== undefined) {
    if (list.trim() === '' || list.length > MAX_FIELD_NAME_LENGTH)
      ctx.problem(listF.path, `${listF.label} must be the name of a list`);
    else rules.inList = list;
  }
  const severityF = applies('severity');
  const severity = readText(severityF, ctx);
  if (severity === 'warning') rules.severity = 'warning';
  else if (severity !== undefined && severity !== 'error' && severityF !== undefined)
    ctx.problem(severityF.path, `${severityF.label} must be "error" or "warning"`);
  const messageF = applies('message');
  const message = readText(messageF, ctx);
  if (message !== undefined && messageF !== undefined) {
    if (message.length > MAX_VALUE_LENGTH)
      ctx.problem(messageF.path, `${messageF.label} can be at most ${MAX_VALUE_LENGTH} characters`);
    else if (message !== '') rules.message = message;
  }
}

/** A form may send every option with its default whatever the type: those need no warning. */
function isDefault(key: RuleKey, value: unknown): boolean {
  const same = (list: string[]) => JSON.stringify(value) === JSON.stringify(list);
  switch (key) {
    case 'allowFuture':
    case 'allowPast':
      return value === true || value === 'true';
    case 'unique':
      return value === false || value === 'false';
    case 'truthy':
      return same(DEFAULT_TRUTHY);
    case 'falsy':
      return same(DEFAULT_FALSY);
    case 'format':
      return value === DEFAULT_DATE_FORMAT;
    default:
      return false;
  }
}

function describeTypes(types: readonly FieldType[]): string {
  return types.length === 1
    ? (types[0] as string)
    : `${types.slice(0, -1).join(', ')} and ${types[types.length - 1]}`;
}

function lengthRules(applies: Applies, rules: FieldRules, ctx: Context): void {
  const minF = applies('minLength');
  const maxF = applies('maxLength');
  const min = readCount(minF, ctx);
  const max = readCount(maxF, ctx);
  if (min !== undefined) rules.minLength = min;
  if (max !== undefined) rules.maxLength = max;
  outOfOrder(minF, min, maxF, max, 'is greater than', ctx);
}

/** A lower bound above its upper bound is a problem at the lower one. */
function outOfOrder<T extends number | string>(
  minF: Found | undefined,
  min: T | undefined,
  maxF: Found | undefined,
  max: T | undefined,
  relation: string,
  ctx: Context,
): void {
  if (min === undefined || max === undefined || min <= max) return;
  if (minF === undefined || maxF === undefined) return;
  ctx.problem(minF.path, `${minF.label} (${min}) ${relation} ${maxF.label} (${max})`);
}

function textRules(
  applies: Applies,
  rules: FieldRules,
  ctx: Context,
  type: FieldType | undefined,
  rulesPath: string,
): void {
  const patternF = applies('pattern');
  const pattern = readText(patternF, ctx);
  if (
    pattern !== undefined &&
    patternF !== undefined &&
    ctx.patternCost <= MAX_SCHEMA_PATTERN_COST
  ) {
    const compiled = compileSafeRegex(pattern);
    if (!compiled.ok) ctx.problem(patternF.path, compiled.message);
    else {
      rules.pattern = pattern;
      ctx.patternCost += compiled.regex.cost;
      if (ctx.patternCost > MAX_SCHEMA_PATTERN_COST) {
        ctx.problem(
          patternF.path,
          'The patterns of this schema are too complex together. Simplify some of them or use fewer',
        );
      }
    }
  }
  const charsF = applies('allowedChars');
  const chars = readText(charsF, ctx);
  if (chars !== undefined && charsF !== undefined) {
    if (chars.length > MAX_ALLOWED_CHARS) {
      ctx.problem(
        charsF.path,
        `${charsF.label} is longer than ${withCommas(MAX_ALLOWED_CHARS)} characters`,
      );
    } else rules.allowedChars = chars;
  }
  const valuesF = applies('values');
  const before = ctx.problems.length;
  const values = readTextList(valuesF, ctx, MAX_VALUES);
  const long = values?.findIndex((v) => v.length > MAX_VALUE_LENGTH) ?? -1;
  if (long >= 0 && valuesF !== undefined) {
    ctx.problem(
      joinPath(valuesF.path, long),
      `Allowed values can be at most ${MAX_VALUE_LENGTH} characters long`,
    );
  } else if (values !== undefined && values.length > 0) {
    rules.values = [...new Set(values)];
  } else if (type === 'enum' && ctx.problems.length === before) {
    ctx.problem(
      valuesF?.path ?? joinPath(rulesPath, 'values'),
      'An enum field needs a list of allowed values',
    );
  }
  // Like allowFuture and allowPast, a rule that allows everything is the same as no rule.
  if (readBoolean(applies('unique'), ctx) === true) rules.unique = true;
}

function numericRules(applies: Applies, rules: FieldRules, ctx: Context): void {
  const bounds: {
    key: 'minValue' | 'maxValue' | 'exclusiveMinimum' | 'exclusiveMaximum';
    f: Found;
    value: string;
  }[] = [];
  for (const key of ['minValue', 'maxValue', 'exclusiveMinimum', 'exclusiveMaximum'] as const) {
    const f = applies(key);
    const value = readDecimal(f, ctx);
    if (value === undefined || f === undefined) continue;
    rules[key] = value;
    bounds.push({ key, f, value });
  }
  const lower = bounds.filter((b) => b.key === 'minValue' || b.key === 'exclusiveMinimum');
  const upper = bounds.filter((b) => b.key === 'maxValue' || b.key === 'exclusiveMaximum');
  for (const lo of lower) {
    for (const hi of upper) {
      const order = compareDecimal(lo.value, hi.value);
      const inclusive = lo.key === 'minValue' && hi.key === 'maxValue';
      if (order > 0 || (order === 0 && !inclusive)) {
        const relation = order > 0 ? 'greater than' : 'equal to';
        ctx.problem(
          lo.f.path,
          `${lo.f.label} (${lo.value}) is ${relation} ${hi.f.label} (${hi.value}), so no value could pass`,
        );
      }
    }
  }
  const precision = readCount(applies('precision'), ctx, MAX_PRECISION);
  if (precision !== undefined) rules.precision = precision;
}

function booleanRules(applies: Applies, rules: FieldRules, ctx: Context, isBoolean: boolean): void {
  const truthyF = applies('truthy');
  const falsyF = applies('falsy');
  const truthy = spellings(truthyF, ctx) ?? DEFAULT_TRUTHY;
  const falsy = spellings(falsyF, ctx) ?? DEFAULT_FALSY;
  const lowerTruthy = new Set(truthy.map((s) => s.toLowerCase()));
  const both = falsy.filter((s) => lowerTruthy.has(s.toLowerCase()));
  if (both.length > 0) {
    const where = falsyF ?? truthyF;
    const list = both.map((s) => `'${s}'`).join(', ');
    ctx.problem(
      where?.path ?? 'falsy',
      `${list} ${both.length === 1 ? 'is' : 'are'} in both the truthy and the falsy lists`,
    );
  }
  if (isBoolean) {
    rules.truthy = truthy;
    rules.falsy = falsy;
  }
}

/** A spelling list; an empty list means the default, as an emptied form input would send. */
function spellings(f: Found | undefined, ctx: Context): string[] | undefined {
  const list = readTextList(f, ctx, MAX_BOOLEAN_SPELLINGS);
  if (list === undefined) return undefined;
  const kept = [...new Set(list.filter((s) => s !== ''))];
  return kept.length > 0 ? kept : undefined;
}

function dateRules(applies: Applies, rules: FieldRules, ctx: Context, isDate: boolean): void {
  const formatF = applies('format');
  const format = readText(formatF, ctx);
  if (format !== undefined && formatF !== undefined) {
    const compiled = compileDateFormat(format);
    if (!compiled.ok) ctx.problem(formatF.path, compiled.message);
  }
  if (isDate) rules.format = format ?? DEFAULT_DATE_FORMAT;
  const minF = applies('minDate');
  const maxF = applies('maxDate');
  const min = isoDate(minF, ctx);
  const max = isoDate(maxF, ctx);
  if (min !== undefined) rules.minDate = min;
  if (max !== undefined) rules.maxDate = max;
  outOfOrder(minF, min, maxF, max, 'is after', ctx);
  const futureF = applies('allowFuture');
  const pastF = applies('allowPast');
  const allowFuture = readBoolean(futureF, ctx);
  const allowPast = readBoolean(pastF, ctx);
  if (allowFuture === false) rules.allowFuture = false;
  if (allowPast === false) rules.allowPast = false;
  if (allowFuture === false && allowPast === false) {
    ctx.problem(
      pastF?.path ?? 'allowPast',
      'allowFuture and allowPast cannot both be false: only today would be accepted',
    );
  }
}

function isoDate(f: Found | undefined, ctx: Context): string | undefined {
  const text = readText(f, ctx);
  if (text === undefined || f === undefined) return undefined;
  if (parseIsoDate(text) !== null) return text;
  ctx.problem(f.path, `${f.label} must be a real date written as YYYY-MM-DD, like 2024-01-31`);
  return undefined;
}
