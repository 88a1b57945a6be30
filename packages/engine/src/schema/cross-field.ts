// Cross-field rules (`rules: [...]` of the web form, `x-schemacheck-rules` of JSON Schema): read
// from JSON data into CrossFieldRule, checked against the schema's fields. A rule is data the
// engine compiles itself (validate/cross-field.ts); nothing here is ever evaluated as code.
import {
  COMPARE_OPS,
  CONDITION_OPS,
  type CompareOp,
  type ConditionOp,
  type CrossFieldRule,
  type FieldSpec,
  type RuleCondition,
} from '../model.ts';
import { DEFAULT_FALSY, DEFAULT_TRUTHY } from '../rules/boolean-spellings.ts';
import { compileDateFormat, DEFAULT_DATE_FORMAT, parseIsoDate } from '../rules/date-format.ts';
import {
  type Context,
  type Found,
  describeValue,
  isObject,
  joinPath,
  numericText,
  own,
} from './context.ts';
import { MAX_VALUE_LENGTH, MAX_VALUES } from './limits.ts';

/** At most this many cross-field rules per schema, and fields per rule. */
export const MAX_RULES = 500;
const MAX_RULE_FIELDS = 50;

const KINDS = [
  'requiredWhen',
  'emptyWhen',
  'requireOneOf',
  'compare',
  'allowedValuesWhen',
  'sum',
  'uniqueTogether',
] as const;

const KEYS: Record<(typeof KINDS)[number], readonly string[]> = {
  requiredWhen: ['field', 'when'],
  emptyWhen: ['field', 'when'],
  requireOneOf: ['fields', 'min', 'max'],
  compare: ['left', 'op', 'right', 'value'],
  allowedValuesWhen: ['field', 'when', 'values'],
  sum: ['fields', 'equals', 'value', 'tolerance'],
  uniqueTogether: ['fields'],
};
const COMMON_KEYS = ['kind', 'severity', 'message', 'name', 'description'];

/** How a field's values compare: by number, calendar, reading (boolean) or text. */
export type ValueKind = 'number' | 'date' | 'boolean' | 'text';

export function valueKind(field: FieldSpec): ValueKind {
  switch (field.type) {
    case 'integer':
    case 'number':
      return field.jsonTypes === undefined ? 'number' : 'text';
    case 'date':
      return 'date';
    case 'boolean':
      return 'boolean';
    default:
      return 'text';
  }
}

const KIND_NAMES: Record<ValueKind, string> = {
  number: 'a number',
  date: 'a date',
  boolean: 'true/false',
  text: 'text',
};

/** `'c' is a text field`. */
const FIELD_KIND_NAMES: Record<ValueKind, string> = {
  number: 'a number',
  date: 'a date',
  boolean: 'a true/false',
  text: 'a text',
};

/**
 * Reads the rule list at `f` against the built fields. Every problem is named by its path
 * (`rules[2].left: Unknown field 'end_dat'`); undefined when there is none or a problem.
 */
export function readCrossFieldRules(
  f: Found | undefined,
  fields: readonly FieldSpec[],
  ctx: Context,
): CrossFieldRule[] | undefined {
  if (f === undefined || f.value === undefined || f.value === null) return undefined;
  if (!Array.isArray(f.value)) {
    ctx.problem(f.path, 'rules must be a list of rules, like [{"kind": "requiredWhen", ...}]');
    return undefined;
  }
  if (f.value.length > MAX_RULES) {
    ctx.problem(f.path, `A schema can have at most ${MAX_RULES} rules`);
    return undefined;
  }
  const byName = new Map<string, FieldSpec>();
  for (const field of fields) if (!byName.has(field.name)) byName.set(field.name, field);
  const before = ctx.problems.length;
  const rules: CrossFieldRule[] = [];
  f.value.forEach((item, i) => {
    const rule = readRule(item, joinPath(f.path, i), byName, ctx);
    if (rule !== undefined) rules.push(rule);
  });
  return ctx.problems.length > before || rules.length === 0 ? undefined : rules;
}

type Fields = Map<string, FieldSpec>;

function readRule(
  item: unknown,
  path: string,
  fields: Fields,
  ctx: Context,
): CrossFieldRule | undefined {
  if (!isObject(item)) {
    ctx.problem(
      path,
      'Each rule must be an object with a kind, like {"kind": "requiredWhen", ...}',
    );
    return undefined;
  }
  const kind = own(item, 'kind');
  if (typeof kind !== 'string' || !(KINDS as readonly string[]).includes(kind)) {
    ctx.problem(
      joinPath(path, 'kind'),
      `Unknown rule kind ${kind === undefined ? '(missing)' : JSON.stringify(kind)}. Use one of: ${KINDS.join(', ')}`,
    );
    return undefined;
  }
  const k = kind as (typeof KINDS)[number];
  for (const key of Object.keys(item)) {
    if (!COMMON_KEYS.includes(key) && !KEYS[k].includes(key))
      ctx.warn(
        `Rule option '${key}' is not known for ${k} and was ignored at ${joinPath(path, key)}`,
      );
  }
  const before = ctx.problems.length;
  const options = readOptions(item, path, ctx);
  const field = (key: string) => readField(item, key, path, fields, ctx);
  let rule: CrossFieldRule | undefined;
  switch (k) {
    case 'requiredWhen':
    case 'emptyWhen': {
      const name = field('field');
      const when = readCondition(item, path, fields, ctx);
      if (name !== undefined && when !== undefined) rule = { kind: k, field: name.name, when };
      break;
    }
    case 'allowedValuesWhen': {
      const target = field('field');
      const when = readCondition(item, path, fields, ctx);
      const values = readValueList(item, 'values', path, target, ctx);
      if (target !== undefined && when !== undefined && values !== undefined)
        rule = { kind: k, field: target.name, when, values };
      break;
    }
    case 'requireOneOf': {
      const list = readFieldList(item, 'fields', path, fields, ctx, 1);
      const min = readSmallCount(item, 'min', path, ctx);
      const max = readSmallCount(item, 'max', path, ctx);
      if (list !== undefined) {
        const n = list.length;
        if (min !== undefined && min > n)
          ctx.problem(joinPath(path, 'min'), `min (${min}) is more than the ${n} fields listed`);
        if (min !== undefined && max !== undefined && min > max)
          ctx.problem(joinPath(path, 'min'), `min (${min}) is greater than max (${max})`);
        if (max === 0 && min === undefined)
          ctx.problem(joinPath(path, 'max'), 'max 0 with no min means every field must be empty');
        rule = { kind: k, fields: list.map((f) => f.name) };
        if (min !== undefined) rule.min = min;
        if (max !== undefined) rule.max = max;
      }
      break;
    }
    case 'compare': {
      const left = field('left');
      const op = readOp(item, path, COMPARE_OPS, ctx) as CompareOp | undefined;
      const hasRight = own(item, 'right') !== undefined;
      const hasValue = own(item, 'value') !== undefined;
      if (hasRight === hasValue) {
        ctx.problem(path, 'A compare rule needs either right (a field) or value (a constant)');
        break;
      }
      if (hasRight) {
        const right = field('right');
        if (left === undefined || right === undefined || op === undefined) break;
        compatible(left, right, op, joinPath(path, 'right'), ctx);
        rule = { kind: k, left: left.name, op, right: right.name };
      } else {
        if (left === undefined || op === undefined) break;
        const value = readConstant(own(item, 'value'), joinPath(path, 'value'), left, ctx);
        if (value !== undefined) {
          if (op !== '=' && op !== '!=' && valueKind(left) === 'boolean')
            ctx.problem(
              joinPath(path, 'op'),
              `true/false values can only be compared with = or !=`,
            );
          rule = { kind: k, left: left.name, op, value };
        }
      }
      break;
    }
    case 'sum': {
      const list = readFieldList(item, 'fields', path, fields, ctx, 1);
      const hasEquals = own(item, 'equals') !== undefined;
      const hasValue = own(item, 'value') !== undefined;
      if (hasEquals === hasValue) {
        ctx.problem(path, 'A sum rule needs either equals (a field) or value (a constant)');
        break;
      }
      for (const [i, f] of (list ?? []).entries())
        numeric(f, joinPath(joinPath(path, 'fields'), i), ctx);
      const tolerance = readTolerance(item, path, ctx);
      if (hasEquals) {
        const equals = field('equals');
        if (equals !== undefined) numeric(equals, joinPath(path, 'equals'), ctx);
        if (list === undefined || equals === undefined) break;
        rule = { kind: k, fields: list.map((f) => f.name), equals: equals.name };
      } else {
        const value = numericText(own(item, 'value'));
        if (value === null) ctx.problem(joinPath(path, 'value'), 'value must be a number');
        if (list === undefined || value === null) break;
        rule = { kind: k, fields: list.map((f) => f.name), value };
      }
      if (tolerance !== undefined) rule.tolerance = tolerance;
      break;
    }
    case 'uniqueTogether': {
      const list = readFieldList(item, 'fields', path, fields, ctx, 2);
      if (list !== undefined) rule = { kind: k, fields: list.map((f) => f.name) };
      break;
    }
  }
  if (ctx.problems.length > before || rule === undefined) return undefined;
  return { ...rule, ...options };
}

function readOptions(
  item: Record<string, unknown>,
  path: string,
  ctx: Context,
): { severity?: 'warning'; message?: string } {
  const out: { severity?: 'warning'; message?: string } = {};
  const severity = own(item, 'severity');
  if (severity === 'warning') out.severity = 'warning';
  else if (severity !== undefined && severity !== 'error' && severity !== null && severity !== '')
    ctx.problem(joinPath(path, 'severity'), 'severity must be "error" or "warning"');
  const message = own(item, 'message');
  if (typeof message === 'string' && message !== '') {
    if (message.length > MAX_VALUE_LENGTH)
      ctx.problem(
        joinPath(path, 'message'),
        `message can be at most ${MAX_VALUE_LENGTH} characters`,
      );
    else out.message = message;
  } else if (message !== undefined && message !== null && message !== '')
    ctx.problem(joinPath(path, 'message'), 'message must be text');
  return out;
}

function readField(
  item: Record<string, unknown>,
  key: string,
  path: string,
  fields: Fields,
  ctx: Context,
): FieldSpec | undefined {
  return fieldNamed(own(item, key), joinPath(path, key), fields, ctx);
}

function fieldNamed(
  value: unknown,
  path: string,
  fields: Fields,
  ctx: Context,
): FieldSpec | undefined {
  if (typeof value !== 'string' || value === '') {
    ctx.problem(path, value === undefined ? 'A field name is missing' : 'Must be a field name');
    return undefined;
  }
  const field = fields.get(value);
  if (field === undefined) {
    ctx.problem(path, `Unknown field '${value}': the schema has no field of that name`);
    return undefined;
  }
  return field;
}

function readFieldList(
  item: Record<string, unknown>,
  key: string,
  path: string,
  fields: Fields,
  ctx: Context,
  min: number,
): FieldSpec[] | undefined {
  const value = own(item, key);
  const at = joinPath(path, key);
  if (!Array.isArray(value) || value.length < min || value.length > MAX_RULE_FIELDS) {
    ctx.problem(
      at,
      `${key} must be a list of ${min === 1 ? 'one or more' : `${min} or more`} field names (at most ${MAX_RULE_FIELDS})`,
    );
    return undefined;
  }
  const out: FieldSpec[] = [];
  value.forEach((name, i) => {
    const field = fieldNamed(name, joinPath(at, i), fields, ctx);
    if (field === undefined) return;
    if (out.includes(field)) ctx.problem(joinPath(at, i), `Field '${field.name}' is listed twice`);
    else out.push(field);
  });
  return out.length === value.length ? out : undefined;
}

function readOp(
  item: Record<string, unknown>,
  path: string,
  ops: readonly string[],
  ctx: Context,
): string | undefined {
  const op = own(item, 'op');
  if (typeof op === 'string' && ops.includes(op)) return op;
  ctx.problem(
    joinPath(path, 'op'),
    `Unknown operator ${op === undefined ? '(missing)' : JSON.stringify(op)}. Use one of: ${ops.join(' ')}`,
  );
  return undefined;
}

function readCondition(
  item: Record<string, unknown>,
  path: string,
  fields: Fields,
  ctx: Context,
): RuleCondition | undefined {
  const at = joinPath(path, 'when');
  const when = own(item, 'when');
  if (!isObject(when)) {
    ctx.problem(
      at,
      'when must be a condition, like {"field": "country", "op": "=", "value": "DE"}',
    );
    return undefined;
  }
  for (const key of Object.keys(when)) {
    if (key !== 'field' && key !== 'op' && key !== 'value')
      ctx.warn(`Condition option '${key}' is not known and was ignored at ${joinPath(at, key)}`);
  }
  const field = fieldNamed(own(when, 'field'), joinPath(at, 'field'), fields, ctx);
  const op = readOp(when, at, CONDITION_OPS, ctx) as ConditionOp | undefined;
  if (field === undefined || op === undefined) return undefined;
  const raw = own(when, 'value');
  const valueAt = joinPath(at, 'value');
  if (op === 'isEmpty' || op === 'isNotEmpty') {
    if (raw !== undefined) ctx.warn(`${op} takes no value; the value was ignored at ${valueAt}`);
    return { field: field.name, op };
  }
  if (op === 'in' || op === 'notIn') {
    const values = readValueList(when, 'value', at, field, ctx);
    return values === undefined ? undefined : { field: field.name, op, value: values };
  }
  if (op !== '=' && op !== '!=' && valueKind(field) === 'boolean') {
    ctx.problem(joinPath(at, 'op'), `true/false values can only be compared with = or !=`);
    return undefined;
  }
  const value = readConstant(raw, valueAt, field, ctx);
  // An empty value is no value (a CSV cell) or never compared (a JSON ""): `= ""` never holds.
  if (value === '' && op === '=')
    ctx.warn(
      `A condition with "op": "=" and "value": "" never holds (an empty value is read as no value); use "op": "isEmpty" at ${valueAt}`,
    );
  return value === undefined ? undefined : { field: field.name, op, value };
}

/** A constant compared with `field`'s values: it must be a value of the field's kind. */
function readConstant(
  raw: unknown,
  path: string,
  field: FieldSpec,
  ctx: Context,
): string | undefined {
  if (raw === undefined || raw === null || Array.isArray(raw) || isObject(raw)) {
    ctx.problem(
      path,
      `A value is needed (text, a number or true/false), not ${describeValue(raw)}`,
    );
    return undefined;
  }
  const text =
    typeof raw === 'string' ? raw : typeof raw === 'boolean' ? String(raw) : numericText(raw);
  if (text === null) {
    ctx.problem(path, 'Must be a number');
    return undefined;
  }
  if (text.length > MAX_VALUE_LENGTH) {
    ctx.problem(path, `A value can be at most ${MAX_VALUE_LENGTH} characters`);
    return undefined;
  }
  const problem = constantProblem(text, field);
  if (problem !== undefined) {
    ctx.problem(path, problem);
    return undefined;
  }
  return valueKind(field) === 'number' ? (numericText(text) ?? text) : text;
}

/** Why `text` is not a value of `field`'s kind, if it is not. */
export function constantProblem(text: string, field: FieldSpec): string | undefined {
  switch (valueKind(field)) {
    case 'number':
      return numericText(text) === null
        ? `'${text}' is not a number, but ${field.name} is a number field`
        : undefined;
    case 'date': {
      const format = field.rules.format ?? DEFAULT_DATE_FORMAT;
      const compiled = compileDateFormat(format);
      const fits = compiled.ok && compiled.dateFormat.parse(text) !== null;
      return fits || parseIsoDate(text) !== null
        ? undefined
        : `'${text}' is not a date in ${field.name}'s format ${format}${format === DEFAULT_DATE_FORMAT ? '' : ' (or YYYY-MM-DD)'}`;
    }
    case 'boolean': {
      // Read as the rules read a cell (validate/cross-field.ts): the field's spellings, any case,
      // and true/false, which is how JSON booleans arrive. Any other constant never matches.
      const truthy = field.rules.truthy ?? DEFAULT_TRUTHY;
      const falsy = field.rules.falsy ?? DEFAULT_FALSY;
      const lower = text.toLowerCase();
      const reads = [...truthy, ...falsy, 'true', 'false'].some((v) => v.toLowerCase() === lower);
      return reads
        ? undefined
        : `'${text}' is not true or false, but ${field.name} is a true/false field (${truthy.join(', ')} / ${falsy.join(', ')})`;
    }
    default:
      return undefined;
  }
}

function readValueList(
  item: Record<string, unknown>,
  key: string,
  path: string,
  field: FieldSpec | undefined,
  ctx: Context,
): string[] | undefined {
  const value = own(item, key);
  const at = joinPath(path, key);
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_VALUES) {
    ctx.problem(at, `${key} must be a list of one or more values (at most ${MAX_VALUES})`);
    return undefined;
  }
  if (field === undefined) return undefined;
  const out: string[] = [];
  const before = ctx.problems.length;
  value.forEach((v, i) => {
    const text = readConstant(v, joinPath(at, i), field, ctx);
    if (text !== undefined) out.push(text);
  });
  return ctx.problems.length > before ? undefined : out;
}

function readSmallCount(
  item: Record<string, unknown>,
  key: string,
  path: string,
  ctx: Context,
): number | undefined {
  const value = own(item, key);
  if (value === undefined || value === null) return undefined;
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < 0 ||
    value > MAX_RULE_FIELDS
  ) {
    ctx.problem(joinPath(path, key), `${key} must be a whole number from 0 to ${MAX_RULE_FIELDS}`);
    return undefined;
  }
  return value;
}

function readTolerance(
  item: Record<string, unknown>,
  path: string,
  ctx: Context,
): string | undefined {
  const raw = own(item, 'tolerance');
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = numericText(raw);
  if (text === null || text.startsWith('-')) {
    ctx.problem(joinPath(path, 'tolerance'), 'tolerance must be a number, 0 or more');
    return undefined;
  }
  return text;
}

function numeric(field: FieldSpec, path: string, ctx: Context): void {
  if (valueKind(field) !== 'number')
    ctx.problem(
      path,
      `'${field.name}' is ${FIELD_KIND_NAMES[valueKind(field)]} field; a sum needs number or integer fields`,
    );
}

/** Two fields compared with `op` must read values the same way. */
function compatible(
  left: FieldSpec,
  right: FieldSpec,
  op: CompareOp,
  path: string,
  ctx: Context,
): void {
  const a = valueKind(left);
  const b = valueKind(right);
  if (a !== b) {
    ctx.problem(
      path,
      `'${left.name}' (${KIND_NAMES[a]}) cannot be compared with '${right.name}' (${KIND_NAMES[b]})`,
    );
  } else if (a === 'boolean' && op !== '=' && op !== '!=') {
    ctx.problem(path, 'true/false values can only be compared with = or !=');
  }
}
