// Frictionless Table Schema: { fields: [{ name, type, format, constraints, trueValues, ... }],
// primaryKey, missingValues }. Its `pattern` must match the whole value, so it is anchored here;
// date formats are strftime patterns (%Y-%m-%d) and become our tokens.
import type { FieldType } from '../../model.ts';
import {
  compileDateFormat,
  DEFAULT_DATE_FORMAT,
  TABLE_DATE_TIME_FORMAT,
  TABLE_TIME_FORMAT,
} from '../../rules/date-format.ts';
import { compileSafeRegex } from '../../rules/safe-regex.ts';
import { patternShape } from '../../rules/regex-shape.ts';
import { type RawField, type RawSchema, readMissingValueList } from '../build.ts';
import { type Context, type Found, found, isObject, joinPath, own } from '../context.ts';
import { numericText } from '../context.ts';
import { EXTENSION_KEY } from './json-schema.ts';
import { readEach, readFieldList, readRuleObject } from './web.ts';

interface TypeMapping {
  type: FieldType;
  /** The date format of `format: default`. */
  defaultFormat?: string;
  /** Values of this type cannot be checked, so they are checked as text. */
  unchecked?: boolean;
}

const TYPES: Record<string, TypeMapping> = {
  string: { type: 'string' },
  integer: { type: 'integer' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  date: { type: 'date', defaultFormat: DEFAULT_DATE_FORMAT },
  // Frictionless reads these with an optional zone and fraction (`2024-01-01T10:00:00`, `10:00:00.5`).
  datetime: { type: 'date', defaultFormat: TABLE_DATE_TIME_FORMAT },
  time: { type: 'date', defaultFormat: TABLE_TIME_FORMAT },
  year: { type: 'date', defaultFormat: 'YYYY' },
  yearmonth: { type: 'date', defaultFormat: 'YYYY-MM' },
  any: { type: 'string' },
  object: { type: 'string', unchecked: true },
  array: { type: 'string', unchecked: true },
  list: { type: 'string', unchecked: true },
  duration: { type: 'string', unchecked: true },
  geopoint: { type: 'string', unchecked: true },
  geojson: { type: 'string', unchecked: true },
};

const STRING_FORMATS: Record<string, FieldType> = { email: 'email', uri: 'url' };

const FIELD_KEYS = new Set([
  'name',
  'title',
  'description',
  'example',
  'rdfType',
  'type',
  'format',
  'constraints',
  'trueValues',
  'falseValues',
  EXTENSION_KEY,
]);

/** Number spellings we cannot honour; their defaults are what we check. */
const NUMBER_OPTIONS: Record<string, unknown> = {
  decimalChar: '.',
  groupChar: '',
  bareNumber: true,
};

const ROOT_KEYS = new Set([
  'fields',
  'primaryKey',
  'uniqueKeys',
  'missingValues',
  'foreignKeys',
  '$schema',
  'name',
  'title',
  'description',
  EXTENSION_KEY,
]);

export function readTableSchema(input: Record<string, unknown>, ctx: Context): RawSchema {
  const extension = own(input, EXTENSION_KEY);
  const ext = isObject(extension) ? extension : {};
  const extPath = joinPath('', EXTENSION_KEY);
  for (const key of Object.keys(input)) {
    if (!ROOT_KEYS.has(key))
      ctx.warn(`Table Schema property '${key}' is not supported and was ignored at ${key}`);
  }
  const missing = readMissingValues(input, ctx);
  const lists = foreignKeyLists(input, ctx);
  const keys = primaryKey(input, ctx);
  const key = keys?.length === 1 ? keys[0] : undefined;
  // Our export writes every cross-field rule in the extension: then it is the whole truth.
  const ourRules = found(ext, 'rules', extPath);
  const rules: Record<string, unknown>[] = [];
  const uniqueFields = new Set<string>();
  if (keys !== undefined && keys.length > 1 && ourRules === undefined)
    rules.push({ kind: 'uniqueTogether', fields: keys });
  for (const names of uniqueKeys(input, ctx)) {
    if (names.length === 1) uniqueFields.add(names[0] as string);
    else if (ourRules === undefined) rules.push({ kind: 'uniqueTogether', fields: names });
  }
  const requiredFields = new Set(keys ?? []);

  const list = readFieldList(input, 'fields', '', ctx);
  const names = new Set(
    list?.items.map((item) => (isObject(item) ? own(item, 'name') : undefined)),
  );
  for (const [name, f] of lists) {
    if (!names.has(name))
      ctx.warn(
        `foreignKeys names the field '${name}', which the schema lacks; it was ignored at ${f.path.replace(/\.reference\.resource$/, '')}`,
      );
  }
  return {
    name: found(ext, 'name', extPath) ?? found(input, 'name', '') ?? found(input, 'title', ''),
    fileType: found(ext, 'fileType', extPath),
    orderMatters: found(ext, 'orderMatters', extPath),
    additionalColumns: found(ext, 'additionalColumns', extPath),
    additionalProperties: found(ext, 'additionalProperties', extPath),
    fields:
      list === undefined
        ? undefined
        : readEach(
            list,
            (item, path, ordinal) =>
              readTableField(item, path, ordinal, key, requiredFields, uniqueFields, lists, ctx),
            ctx,
          ),
    fieldsPath: 'fields',
    fieldCount: list?.count ?? 0,
    ...(ourRules !== undefined
      ? { rules: ourRules }
      : rules.length > 0
        ? { rules: { value: rules, path: 'primaryKey', label: 'uniqueKeys' } }
        : {}),
    ...(missing === undefined ? {} : { missingValues: missing }),
  };
}

/**
 * missingValues: the cells that mean "no value" (default `[""]`). An empty cell always does; the
 * others are kept for the validator (SchemaModel.missingValues).
 */
function readMissingValues(input: Record<string, unknown>, ctx: Context): string[] | undefined {
  const value = own(input, 'missingValues');
  if (value === undefined) return undefined;
  if (Array.isArray(value) && !value.includes('')) {
    ctx.warn('missingValues without "" still treats an empty cell as missing (at missingValues)');
  }
  return readMissingValueList(value, 'missingValues', ctx);
}

/**
 * foreignKeys from one field to another resource's one field: that resource is a reference list,
 * the field's `inList` (a list has one column, so the resource's field name is not kept). Keys of
 * several fields, or into this table itself (`resource: ""`), are no list: warned, not checked.
 */
function foreignKeyLists(input: Record<string, unknown>, ctx: Context): Map<string, Found> {
  const lists = new Map<string, Found>();
  const value = own(input, 'foreignKeys');
  if (value === undefined) return lists;
  if (!Array.isArray(value)) {
    ctx.warn('foreignKeys must be a list of foreign keys; it was ignored at foreignKeys');
    return lists;
  }
  const single = (v: unknown): string | undefined =>
    typeof v === 'string'
      ? v
      : Array.isArray(v) && v.length === 1 && typeof v[0] === 'string'
        ? v[0]
        : undefined;
  value.forEach((fk, i) => {
    const path = joinPath('foreignKeys', i);
    const reference = isObject(fk) ? own(fk, 'reference') : undefined;
    const resource = isObject(reference) ? own(reference, 'resource') : undefined;
    const field = isObject(fk) ? single(own(fk, 'fields')) : undefined;
    const target = isObject(reference) ? single(own(reference, 'fields')) : undefined;
    let why: string | undefined;
    if (!isObject(fk) || !isObject(reference) || typeof resource !== 'string')
      why = 'is not a foreign key ({fields, reference: {resource, fields}})';
    else if (resource === '') why = 'refers to this table itself, which is not a list';
    else if (field === undefined || target === undefined)
      why = 'has several fields, which a list cannot check';
    if (why !== undefined || field === undefined) {
      ctx.warn(`${path} ${why ?? 'is not a foreign key'}; it was ignored`);
      return;
    }
    lists.set(field, {
      value: resource,
      path: joinPath(joinPath(path, 'reference'), 'resource'),
      label: 'foreignKeys reference resource',
    });
  });
  return lists;
}

/** uniqueKeys: lists of field names unique together (one name: that field is unique). */
function uniqueKeys(input: Record<string, unknown>, ctx: Context): string[][] {
  const value = own(input, 'uniqueKeys');
  if (value === undefined) return [];
  const lists = Array.isArray(value) ? value : [];
  if (
    !Array.isArray(value) ||
    lists.some((l) => !Array.isArray(l) || l.length === 0 || l.some((n) => typeof n !== 'string'))
  ) {
    ctx.problem('uniqueKeys', 'uniqueKeys must be a list of lists of field names');
    return [];
  }
  return lists as string[][];
}

/**
 * A one-field primary key is a required, unique field; a primary key of several fields makes each
 * required and the combination unique (a uniqueTogether rule).
 */
function primaryKey(input: Record<string, unknown>, ctx: Context): string[] | undefined {
  const value = own(input, 'primaryKey');
  if (value === undefined) return undefined;
  const names = typeof value === 'string' ? [value] : value;
  if (Array.isArray(names) && names.length > 0 && names.every((n) => typeof n === 'string'))
    return names as string[];
  if (Array.isArray(names) && names.length === 0) return undefined;
  ctx.problem('primaryKey', 'primaryKey must be a field name or a list of field names');
  return undefined;
}

function readTableField(
  item: unknown,
  path: string,
  ordinal: number,
  key: string | undefined,
  requiredFields: ReadonlySet<string>,
  uniqueFields: ReadonlySet<string>,
  lists: ReadonlyMap<string, Found>,
  ctx: Context,
): RawField | undefined {
  if (!isObject(item)) {
    ctx.problem(path, 'Each field must be an object with a name and a type');
    return undefined;
  }
  for (const k of Object.keys(item)) {
    if (FIELD_KEYS.has(k)) continue;
    if (Object.prototype.hasOwnProperty.call(NUMBER_OPTIONS, k)) {
      if (own(item, k) !== NUMBER_OPTIONS[k])
        ctx.warn(
          `${k} is not supported; numbers are read in the plain form 1234.5 (at ${joinPath(path, k)})`,
        );
    } else
      ctx.warn(`Field property '${k}' is not supported and was ignored at ${joinPath(path, k)}`);
  }
  const extF = found(item, EXTENSION_KEY, path);
  const ext = extF !== undefined && isObject(extF.value) ? { ...extF.value } : {};
  const extType = found(ext, 'type', extF?.path ?? path);
  delete ext.type;
  const extended =
    extF === undefined
      ? {}
      : (readRuleObject(isObject(extF.value) ? ext : extF.value, extF.path, ctx) ?? {});

  const typeF = found(item, 'type', path);
  const typeName = typeF === undefined ? 'string' : typeF.value;
  const mapping = typeof typeName === 'string' ? TYPES[typeName] : undefined;
  const name = found(item, 'name', path);
  const rules: RawField['rules'] = {};
  let type: Found | undefined;
  if (mapping === undefined) {
    // The builder refuses it, naming Table Schema's types.
    type = typeF;
  } else {
    if (mapping.unchecked) {
      ctx.warn(
        `Type '${String(typeName)}' cannot be checked; its values are checked as text (at ${typeF?.path ?? path})`,
      );
    }
    const formatF = found(item, 'format', path);
    let fieldType = mapping.type;
    if (
      mapping.type === 'string' &&
      typeof formatF?.value === 'string' &&
      formatF.value !== 'default'
    ) {
      const mapped = STRING_FORMATS[formatF.value];
      if (mapped !== undefined) fieldType = mapped;
      else
        ctx.warn(`Format '${formatF.value}' is not supported and was ignored at ${formatF.path}`);
    }
    if (mapping.defaultFormat !== undefined) {
      const given = formatF ?? {
        value: 'default',
        path: joinPath(path, 'format'),
        label: 'format',
      };
      const format = dateFormat(given, mapping.defaultFormat, ctx);
      if (format !== undefined) rules.format = format;
    }
    if (extType?.value === 'enum') fieldType = 'enum';
    type = { value: fieldType, path: typeF?.path ?? joinPath(path, 'type'), label: 'type' };
  }
  // Frictionless reads true/True/TRUE/1 by default; ours compare case-insensitively.
  const isBoolean = type?.value === 'boolean';
  rules.truthy =
    found(item, 'trueValues', path) ??
    (isBoolean ? { value: ['true', '1'], path, label: 'trueValues' } : undefined);
  rules.falsy =
    found(item, 'falseValues', path) ??
    (isBoolean ? { value: ['false', '0'], path, label: 'falseValues' } : undefined);
  if (rules.truthy === undefined) delete rules.truthy;
  if (rules.falsy === undefined) delete rules.falsy;

  let required: Found | undefined;
  const constraintsF = found(item, 'constraints', path);
  if (constraintsF !== undefined) {
    if (isObject(constraintsF.value)) {
      required = readConstraints(
        constraintsF.value,
        constraintsF.path,
        type?.value as FieldType | undefined,
        rules,
        ctx,
      );
    } else ctx.problem(constraintsF.path, 'constraints must be an object');
  }
  if (typeof name?.value === 'string' && requiredFields.has(name.value))
    required = { value: true, path: 'primaryKey', label: 'required' };
  if (typeof name?.value === 'string' && uniqueFields.has(name.value))
    rules.unique ??= { value: true, path: 'uniqueKeys', label: 'unique' };
  const list = typeof name?.value === 'string' ? lists.get(name.value) : undefined;
  if (list !== undefined) rules.inList = list;
  if (key !== undefined && name?.value === key) {
    required = { value: true, path: 'primaryKey', label: 'required' };
    rules.unique ??= { value: true, path: 'primaryKey', label: 'unique' };
  }
  return {
    path,
    ordinal,
    name,
    namePath: joinPath(path, 'name'),
    type,
    required,
    // Our extension holds the exact text where a constraint could only hold a rounded number.
    rules: { ...rules, ...extended },
    rulesPath: constraintsF?.path ?? joinPath(path, 'constraints'),
    typeNames: Object.keys(TYPES),
  };
}

const CONSTRAINT_KEYS = new Set([
  'required',
  'unique',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'pattern',
  'enum',
]);

function readConstraints(
  constraints: Record<string, unknown>,
  path: string,
  type: FieldType | undefined,
  rules: RawField['rules'],
  ctx: Context,
): Found | undefined {
  for (const key of Object.keys(constraints)) {
    if (!CONSTRAINT_KEYS.has(key))
      ctx.warn(`Constraint '${key}' is not supported and was ignored at ${joinPath(path, key)}`);
  }
  const get = (key: string) => found(constraints, key, path);
  for (const key of [
    'unique',
    'minLength',
    'maxLength',
    'exclusiveMinimum',
    'exclusiveMaximum',
  ] as const) {
    const f = get(key);
    if (f !== undefined) rules[key] = f;
  }
  const isDate = type === 'date';
  const min = get('minimum');
  const max = get('maximum');
  if (min !== undefined)
    rules[isDate ? 'minDate' : 'minValue'] = isDate ? isoBound(min, rules.format, ctx) : min;
  if (max !== undefined)
    rules[isDate ? 'maxDate' : 'maxValue'] = isDate ? isoBound(max, rules.format, ctx) : max;
  const pattern = get('pattern');
  if (pattern !== undefined)
    rules.pattern =
      typeof pattern.value === 'string' ? { ...pattern, value: anchored(pattern.value) } : pattern;
  const values = get('enum');
  if (values !== undefined) {
    const list = Array.isArray(values.value) ? values.value.map(enumText) : values.value;
    rules.values = { ...values, value: list };
  }
  return get('required');
}

/** Table Schema enums hold typed values (1, true); we compare values as written. */
function enumText(v: unknown): unknown {
  if (typeof v === 'boolean') return String(v);
  const text =
    typeof v === 'number' || (typeof v === 'object' && v !== null) ? numericText(v) : null;
  return text ?? v;
}

/** A date bound written in the field's format, as the ISO date the model keeps. */
function isoBound(f: Found, format: Found | undefined, ctx: Context): Found {
  if (typeof f.value !== 'string') return f;
  const compiled = compileDateFormat(
    typeof format?.value === 'string' ? format.value : DEFAULT_DATE_FORMAT,
  );
  const parts = compiled.ok ? compiled.dateFormat.parse(f.value) : null;
  if (parts === null) {
    const iso = /^\d{4}-\d{2}-\d{2}/.exec(f.value);
    if (iso !== null) return { ...f, value: iso[0] };
    ctx.problem(f.path, `${f.label} must be a date written in the field's format`);
    return { ...f, value: undefined };
  }
  const pad = (n: number, w: number) => String(n).padStart(w, '0');
  return { ...f, value: `${pad(parts.year, 4)}-${pad(parts.month, 2)}-${pad(parts.day, 2)}` };
}

/**
 * Table Schema patterns match the whole value; ours search. `X` becomes `^X$` (or `^(?:X)$` when X
 * has a top-level `|`), except our own export of a search pattern, `[\s\S]*(?:Y)[\s\S]*`, which
 * becomes Y again. A pattern RE2 refuses is kept as written, so that the refusal names it.
 */
export function anchored(x: string): string {
  if (!compileSafeRegex(x).ok) return x;
  const head = '[\\s\\S]*(?:';
  const tail = ')[\\s\\S]*';
  if (x.startsWith(head) && x.endsWith(tail) && x.length >= head.length + tail.length) {
    const inner = x.slice(head.length, -tail.length);
    if (compileSafeRegex(inner).ok) return inner;
  }
  return patternShape(x).topLevelAlternation ? `^(?:${x})$` : `^${x}$`;
}

const STRFTIME: Record<string, string> = {
  Y: 'YYYY',
  m: 'MM',
  d: 'DD',
  H: 'HH',
  M: 'mm',
  S: 'ss',
  z: 'Z',
  '%': '%',
};

function dateFormat(f: Found, fallback: string, ctx: Context): Found | undefined {
  if (typeof f.value !== 'string') return f;
  let text = f.value.startsWith('fmt:') ? f.value.slice(4) : f.value;
  if (text === 'default' || text === '') return { ...f, value: fallback };
  if (text === 'any') {
    ctx.warn(`Date format 'any' is not supported; ${fallback} is checked instead (at ${f.path})`);
    return { ...f, value: fallback };
  }
  if (!text.includes('%')) return f;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c !== '%') {
      // Our formats have no literal Z: it is the zone token, which also takes an offset.
      if (c === 'Z' || c === 'z')
        ctx.warn(
          `The letter ${c} in '${f.value}' is read as a time zone: Z or an offset like +02:00 is accepted there, after an optional fraction of a second (at ${f.path})`,
        );
      out += c;
      continue;
    }
    const directive = text[i + 1] ?? '';
    const token = STRFTIME[directive];
    if (token === undefined) {
      ctx.problem(
        f.path,
        `The date directive %${directive} in '${f.value}' is not supported. Use %Y, %m, %d, %H, %M, %S or %z`,
      );
      return undefined;
    }
    out += token;
    i++;
  }
  text = out;
  return { ...f, value: text };
}
