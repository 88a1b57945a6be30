// JSON Schema 2020-12 (and the common draft-07 spellings) describing one record, or an array of
// records. Nested objects become dotted field names (`address.zip`), with the property names kept
// apart where a name has a dot of its own. What the model cannot hold is
// a warning, not a refusal; what would change the meaning of the data is a problem.
import type { FieldType, ObjectSpec } from '../../model.ts';
import { LosslessNumber } from '../../model.ts';
import { DEFAULT_DATE_FORMAT, ISO_DATE_TIME_FORMAT } from '../../rules/date-format.ts';
import { type RawField, type RawSchema, type RuleKey, readMissingValueList } from '../build.ts';
import {
  type Context,
  type Found,
  describeValue,
  found,
  isObject,
  joinPath,
  own,
} from '../context.ts';
import { canonicalDecimal, numberToDecimal } from '../decimal-text.ts';
import { MAX_FIELDS, MAX_NESTING } from '../limits.ts';
import { readRuleObject } from './web.ts';

/** Our own keyword for rules JSON Schema cannot express; other tools ignore unknown keywords. */
export const EXTENSION_KEY = 'x-schemacheck';
/** Cross-field rules as the web form writes them (export writes every rule here). */
export const RULES_KEY = 'x-schemacheck-rules';

/** Keywords that describe or document; they never change what is valid. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  '$anchor',
  '$defs',
  'definitions',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  'contentMediaType',
  'contentEncoding',
]);

const PROPERTY_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'format',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'nullable',
  'properties',
  'required',
  'additionalProperties',
  '$ref',
  EXTENSION_KEY,
]);

const FORMATS: Record<string, { type: FieldType; format?: string }> = {
  email: { type: 'email' },
  'idn-email': { type: 'email' },
  uri: { type: 'url' },
  iri: { type: 'url' },
  date: { type: 'date', format: DEFAULT_DATE_FORMAT },
  'date-time': { type: 'date', format: ISO_DATE_TIME_FORMAT },
  time: { type: 'date', format: 'HH:mm:ssZ' },
};

const JSON_TYPES = ['string', 'integer', 'number', 'boolean', 'object', 'array', 'null'];
/** Types a list of several can hold exactly (FieldSpec.jsonTypes), in this order. */
const SCALAR_TYPES = ['string', 'integer', 'number', 'boolean'];

/** Keywords that only apply to numbers, or only to strings (they give an untyped property a type). */
const NUMBER_KEYWORDS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
];
const TEXT_KEYWORDS = ['minLength', 'maxLength', 'pattern'];

interface Walk {
  root: Record<string, unknown>;
  ctx: Context;
  fields: RawField[];
  /** The top-level additionalProperties (the model's, for the record itself). */
  additionalProperties: unknown;
  /** Nested objects that are required themselves or set their own additionalProperties. */
  objects: ObjectSpec[];
  /** $ref targets being expanded, to stop recursive schemas. */
  expanding: Set<string>;
  /** Properties met, checkable or not. */
  seen: number;
  /** Past MAX_FIELDS, objects and $refs are not walked: `seen` then undercounts. */
  countIsLowerBound: boolean;
  /** The file type the schema declares (x-schemacheck), if any. */
  fileType: unknown;
  /**
   * Our export wrote the model's dotted names as flat keys (x-schemacheck.dotsNest): there a dot
   * means nesting, as in the model, not a dot in one property's name.
   */
  dotsNest: boolean;
  /**
   * How many leading property names reach the object whose presence makes `required` apply
   * (FieldSpec.requiredWithin): 0 while every enclosing object is required, else the nearest
   * optional one's depth.
   */
  within: number;
}

export function readJsonSchema(input: Record<string, unknown>, ctx: Context): RawSchema {
  const extension = own(input, EXTENSION_KEY);
  const ext = isObject(extension) ? extension : {};
  const extPath = joinPath('', EXTENSION_KEY);
  const schema: RawSchema = {
    name: found(ext, 'name', extPath) ?? found(input, 'title', ''),
    fileType: found(ext, 'fileType', extPath),
    orderMatters: found(ext, 'orderMatters', extPath),
    additionalColumns: found(ext, 'additionalColumns', extPath),
    fields: undefined,
    fieldsPath: 'properties',
    fieldCount: 0,
  };
  const walk: Walk = {
    root: input,
    ctx,
    fields: [],
    additionalProperties: undefined,
    objects: [],
    expanding: new Set(),
    seen: 0,
    countIsLowerBound: false,
    fileType: schema.fileType?.value,
    dotsNest: own(ext, 'dotsNest') === true,
    within: 0,
  };
  const missing = own(ext, 'missingValues');
  if (missing !== undefined) {
    const list = readMissingValueList(missing, joinPath(extPath, 'missingValues'), ctx);
    if (list !== undefined) schema.missingValues = list;
  }
  const record = recordSchema(input, walk);
  if (record === undefined) return schema;
  schema.fieldsPath = joinPath(record.path, 'properties');
  const additional = found(record.node, 'additionalProperties', record.path);
  if (additional !== undefined) {
    walk.additionalProperties = additional.value;
    if (typeof additional.value === 'boolean') schema.additionalProperties = additional;
    else if (isObject(additional.value)) {
      ctx.warn(
        `additionalProperties with a schema is not supported; extra properties are allowed (at ${additional.path})`,
      );
    }
  }
  const recordKeywords = new Set([
    'type',
    'properties',
    'required',
    'additionalProperties',
    '$ref',
  ]);
  if (record.path === '') recordKeywords.add(EXTENSION_KEY);
  if (record.path === '') recordKeywords.add(RULES_KEY);
  // Cross-field rules: ours (x-schemacheck-rules) as the whole truth, else JSON Schema's own forms.
  const ours = found(input, RULES_KEY, '');
  const conditional = ['dependentRequired', 'if', 'then', 'else', 'allOf'];
  for (const key of conditional) recordKeywords.add(key);
  warnUnknownKeywords(record.node, record.path, ctx, recordKeywords);
  readObject(record.node, record.path, [], true, 0, walk);
  if (ours !== undefined) schema.rules = { ...ours, label: RULES_KEY };
  else {
    const converted = readConditionalRules(record.node, record.path, walk);
    if (converted.length > 0)
      schema.rules = { value: converted, path: record.path, label: 'rules' };
  }
  ctx.field = -1;
  schema.objects = walk.objects;
  schema.fields = walk.fields.slice(0, MAX_FIELDS);
  schema.fieldCount = Math.max(walk.fields.length, walk.seen);
  if (walk.countIsLowerBound) schema.fieldCountIsLowerBound = true;
  return schema;
}

function recordSchema(
  input: Record<string, unknown>,
  walk: Walk,
): { node: Record<string, unknown>; path: string } | undefined {
  const root = resolve(input, '', walk);
  if (root === undefined) return undefined;
  const type = own(root, 'type');
  if (
    type === 'array' ||
    (type === undefined &&
      own(root, 'items') !== undefined &&
      own(root, 'properties') === undefined)
  ) {
    for (const key of Object.keys(root)) {
      if (key === 'type' || key === 'items' || key === EXTENSION_KEY || ANNOTATIONS.has(key))
        continue;
      walk.ctx.warn(`Keyword '${key}' is not supported and was ignored at ${joinPath('', key)}`);
    }
    const items = own(root, 'items');
    const node = isObject(items) ? resolve(items, 'items', walk) : undefined;
    if (
      node === undefined ||
      !(own(node, 'type') === 'object' || isObject(own(node, 'properties')))
    ) {
      if (!isObject(items) || node !== undefined) {
        walk.ctx.problem(
          'items',
          'items must describe one record: an object schema with properties',
        );
      }
      return undefined;
    }
    return { node, path: 'items' };
  }
  if (type === 'object' || (type === undefined && isObject(own(root, 'properties'))))
    return { node: root, path: '' };
  walk.ctx.problem(
    '',
    'This JSON Schema must describe a record (type "object" with properties) or a list of records (type "array" with items)',
  );
  return undefined;
}

/** The dotted name of a property (`address.zip`), as errors name it. */
function dotted(keys: readonly string[]): string {
  return keys.join('.');
}

/** Adds a field; its property names travel with it when the dotted name cannot say them. */
function pushField(walk: Walk, keys: readonly string[], field: RawField): void {
  // A CSV column is found by its name alone.
  if (walk.fileType !== 'csv' && !walk.dotsNest && keys.some((k) => k.includes('.'))) {
    field.propertyPath = [...keys];
  }
  if (walk.within > 0 && field.required?.value === true) field.requiredWithin = walk.within;
  walk.fields.push(field);
}

function readObject(
  node: Record<string, unknown>,
  path: string,
  keys: readonly string[],
  requiredChain: boolean,
  depth: number,
  walk: Walk,
): void {
  const { ctx } = walk;
  const required = readRequired(node, path, ctx);
  // Inside an optional object, `required` applies whenever that object is present (2020-12).
  const outerWithin = walk.within;
  if (!requiredChain) walk.within = keys.length;
  try {
    readMembers(node, path, keys, required, depth, walk);
  } finally {
    walk.within = outerWithin;
  }
}

function readMembers(
  node: Record<string, unknown>,
  path: string,
  keys: readonly string[],
  required: Set<string>,
  depth: number,
  walk: Walk,
): void {
  const { ctx } = walk;
  const propertiesF = found(node, 'properties', path);
  const properties =
    propertiesF !== undefined && isObject(propertiesF.value) ? propertiesF.value : {};
  if (propertiesF !== undefined && !isObject(propertiesF.value))
    ctx.problem(propertiesF.path, 'properties must be an object');
  const propertiesPath = joinPath(path, 'properties');
  for (const key of Object.keys(properties)) {
    readProperty(
      own(properties, key),
      joinPath(propertiesPath, key),
      [...keys, key],
      required.has(key),
      depth,
      walk,
    );
  }
  for (const key of required) {
    if (Object.prototype.hasOwnProperty.call(properties, key)) continue;
    const fieldPath = joinPath(propertiesPath, key);
    const name = dotted([...keys, key]);
    ctx.warn(
      `Property '${name}' is required but not described; its presence is checked and any value is accepted (at ${joinPath(path, 'required')})`,
    );
    pushField(walk, [...keys, key], anyValueField(fieldPath, walk.fields.length, name, true));
  }
}

/**
 * A nested object's own additionalProperties: JSON Schema allows extra properties unless the
 * object itself says false (the top-level setting does not reach inside).
 */
function nestedAdditional(node: Record<string, unknown>, path: string, ctx: Context): boolean {
  const f = found(node, 'additionalProperties', path);
  if (f === undefined) return true;
  if (typeof f.value === 'boolean') return f.value;
  if (isObject(f.value)) {
    ctx.warn(
      `additionalProperties with a schema is not supported; extra properties are allowed (at ${f.path})`,
    );
  } else ctx.problem(f.path, 'additionalProperties must be true, false or a schema');
  return true;
}

function readRequired(node: Record<string, unknown>, path: string, ctx: Context): Set<string> {
  const f = found(node, 'required', path);
  if (f === undefined) return new Set();
  if (!Array.isArray(f.value) || f.value.some((v) => typeof v !== 'string')) {
    ctx.problem(f.path, 'required must be a list of property names');
    return new Set();
  }
  return new Set(f.value as string[]);
}

/** A declared property that accepts any value (only presence is checked). */
function anyValueField(path: string, ordinal: number, name: string, required: boolean): RawField {
  return { ...plainField(path, ordinal, name, 'string', required, path), anyValue: true };
}

function plainField(
  path: string,
  ordinal: number,
  name: string,
  type: FieldType,
  required: boolean,
  requiredPath: string,
): RawField {
  return {
    path,
    ordinal,
    name: { value: name, path, label: 'name' },
    namePath: path,
    type: { value: type, path, label: 'type' },
    required: { value: required, path: joinPath(requiredPath, 'required'), label: 'required' },
    rules: {},
    rulesPath: path,
  };
}

function readProperty(
  value: unknown,
  path: string,
  keys: readonly string[],
  required: boolean,
  depth: number,
  walk: Walk,
): void {
  const { ctx } = walk;
  const name = dotted(keys);
  ctx.field = walk.fields.length;
  walk.seen++;
  if (walk.seen > MAX_FIELDS) {
    // Refused for its size anyway: count the property, walk no further. $refs that fan out (each
    // definition naming the next several times) would otherwise make the walk exponential.
    if (
      isObject(value) &&
      (own(value, '$ref') !== undefined || own(value, 'properties') !== undefined)
    )
      walk.countIsLowerBound = true;
    return;
  }
  if (value === true) {
    pushField(walk, keys, anyValueField(path, walk.fields.length, name, required));
    return;
  }
  if (value === false) {
    ctx.warn(
      `Property '${name}' is forbidden (false), which is not supported; it was ignored (at ${path})`,
    );
    return;
  }
  if (!isObject(value)) {
    ctx.problem(path, `The schema of property '${name}' must be an object`);
    return;
  }
  const node = resolve(value, path, walk);
  if (node === undefined) return;
  const ref = own(value, '$ref');
  if (typeof ref === 'string') walk.expanding.add(ref);
  try {
    readResolvedProperty(node, path, keys, required, depth, walk);
  } finally {
    if (typeof ref === 'string') walk.expanding.delete(ref);
  }
}

function readResolvedProperty(
  node: Record<string, unknown>,
  path: string,
  keys: readonly string[],
  required: boolean,
  depth: number,
  walk: Walk,
): void {
  const { ctx } = walk;
  const name = dotted(keys);
  const typeF = found(node, 'type', path);
  const types = readTypes(typeF, ctx);
  if (types === undefined) return;
  const enumF = found(node, 'enum', path);
  const constF = found(node, 'const', path);
  let nullable = types.includes('null') || own(node, 'nullable') === true;
  const values = readValues(enumF ?? (constF && { ...constF, value: [constF.value] }), ctx);
  if (values?.nullable) nullable = true;
  const hasValues = values !== undefined && values.list.length > 0;
  let nonNull = types.filter((t) => t !== 'null');
  if (nonNull.length === 2 && nonNull.includes('integer') && nonNull.includes('number'))
    nonNull = ['number'];

  let jsonTypes: string[] | undefined;
  if (nonNull.length > 1 && nonNull.every((t) => SCALAR_TYPES.includes(t))) {
    // A value of any of the types passes; text rules apply to text (FieldSpec.jsonTypes).
    jsonTypes = SCALAR_TYPES.filter((t) => nonNull.includes(t));
    nonNull = ['string'];
  } else if (nonNull.length > 1) {
    ctx.warn(
      `Property '${name}' allows several types (${nonNull.join(', ')}); its values are checked as text (at ${typeF?.path ?? path})`,
    );
    nonNull = ['string'];
  }
  let kind = nonNull[0];
  if (kind === undefined && isObject(own(node, 'properties'))) kind = 'object';
  if (kind === 'object') {
    if (!isObject(own(node, 'properties'))) {
      ctx.warn(
        `Property '${name}' is an object without properties, whose contents cannot be checked; any value is accepted (at ${path})`,
      );
      pushField(walk, keys, anyValueField(path, walk.fields.length, name, required && !nullable));
      return;
    }
    if (depth + 1 >= MAX_NESTING) {
      ctx.problem(path, `Objects are nested more than ${MAX_NESTING} levels deep`);
      return;
    }
    warnUnknownKeywords(
      node,
      path,
      ctx,
      new Set(['type', 'properties', 'required', 'additionalProperties', 'nullable', '$ref']),
    );
    const before = walk.fields.length;
    const objectsBefore = walk.objects.length;
    readObject(node, path, keys, required && !nullable, depth + 1, walk);
    const object: ObjectSpec = { path: [...keys] };
    // An absent object is reported through its required properties; with none, by itself.
    if (
      required &&
      !nullable &&
      !walk.fields
        .slice(before)
        .some((f) => f.required?.value === true && (f.requiredWithin ?? 0) === walk.within) &&
      !walk.objects
        .slice(objectsBefore)
        .some((o) => o.required === true && (o.requiredWithin ?? 0) === walk.within)
    ) {
      object.required = true;
      if (walk.within > 0) object.requiredWithin = walk.within;
    }
    const additional = nestedAdditional(node, path, ctx);
    if (additional !== (walk.additionalProperties !== false)) {
      object.additionalProperties = additional;
    }
    if (object.required !== undefined || object.additionalProperties !== undefined) {
      walk.objects.push(object);
    }
    return;
  }
  if (kind === 'array') {
    ctx.warn(
      `Property '${name}' is an array, whose items cannot be checked; any value is accepted (at ${path})`,
    );
    pushField(walk, keys, anyValueField(path, walk.fields.length, name, required && !nullable));
    return;
  }
  const onlyNull = types.length > 0 && types.every((t) => t === 'null');
  if (kind === undefined && values !== undefined && values.list.length === 0 && !values.nullable) {
    ctx.warn(
      `Property '${name}' has an empty list of allowed values, which is not checked (at ${path})`,
    );
  }
  if (kind === undefined && (onlyNull || (values?.nullable === true && !hasValues))) {
    // type null, const null, enum [null]: "must be null" is not a rule the engine has.
    ctx.warn(
      `Property '${name}' allows only null, which is not checked; any value is accepted (at ${path})`,
    );
    pushField(walk, keys, anyValueField(path, walk.fields.length, name, false));
    return;
  }
  warnUnknownKeywords(node, path, ctx, PROPERTY_KEYWORDS);

  let type: FieldType;
  const rules: RawField['rules'] = {};
  const formatF = found(node, 'format', path);
  const mapped = typeof formatF?.value === 'string' ? FORMATS[formatF.value] : undefined;
  if (formatF !== undefined && mapped === undefined) {
    ctx.warn(
      `Format '${String(formatF.value)}' is not supported and was ignored at ${formatF.path}`,
    );
  }
  if (kind === undefined) {
    const numeric = NUMBER_KEYWORDS.find((k) => own(node, k) !== undefined);
    const textual = TEXT_KEYWORDS.find((k) => own(node, k) !== undefined);
    if (mapped !== undefined) {
      type = mapped.type;
      // JSON Schema lets a number through an untyped format; one type per field cannot.
      ctx.warn(
        `Property '${name}' has no type; it is checked as text in the format '${String(formatF?.value)}', so numbers, true/false and other non-text values are errors (at ${path})`,
      );
    } else if (extensionFormat(node)) type = 'date';
    else if (hasValues && values.kinds.size === 1 && values.kinds.has('number')) {
      // Untyped numbers in enum/const compare by value: 1.0 is 1, 2^53+1 stays itself.
      type = 'number';
    } else if (hasValues && values.kinds.size === 1 && values.kinds.has('boolean')) {
      // Untyped true/false compare by reading: a CSV cell TRUE is true.
      type = 'boolean';
      rules.truthy = { value: ['true'], path, label: 'truthy' };
      rules.falsy = { value: ['false'], path, label: 'falsy' };
    } else if (hasValues) type = 'enum';
    else if (numeric !== undefined || textual !== undefined) {
      // JSON Schema applies these keywords to values of their type and lets other types through;
      // the engine checks one type, so it takes the keywords' and says so.
      type = numeric !== undefined ? 'number' : 'string';
      ctx.warn(
        `Property '${name}' has no type; it is checked as ${type === 'number' ? 'a number' : 'text'} because of ${numeric ?? textual}, so values of other types are errors (at ${path})`,
      );
    } else {
      // Nothing constrains it: any value is accepted.
      pushField(walk, keys, anyValueField(path, walk.fields.length, name, required && !nullable));
      return;
    }
  } else if (kind === 'string') {
    type = mapped?.type ?? (extensionFormat(node) ? 'date' : 'string');
  } else {
    type = kind as FieldType;
    if (mapped !== undefined)
      ctx.warn(
        `Format '${String(formatF?.value)}' applies to text and was ignored at ${formatF?.path}`,
      );
  }
  if (mapped?.format !== undefined && type === 'date' && formatF !== undefined) {
    rules.format = { ...formatF, value: mapped.format };
  }
  for (const key of [
    'minLength',
    'maxLength',
    'pattern',
    'exclusiveMinimum',
    'exclusiveMaximum',
  ] as const) {
    const f = found(node, key, path);
    if (f !== undefined && typeof f.value !== 'boolean') rules[key] = f;
  }
  numericBounds(node, path, rules);
  precision(node, path, type, rules, ctx);
  if (hasValues) rules.values = { ...values.found, value: values.list };

  const extension = found(node, EXTENSION_KEY, path);
  const extended =
    extension === undefined ? {} : (readRuleObject(extension.value, extension.path, ctx) ?? {});
  pushField(walk, keys, {
    ...(jsonTypes === undefined ? {} : { jsonTypes }),
    path,
    ordinal: walk.fields.length,
    name: { value: name, path, label: 'name' },
    namePath: path,
    type: { value: type, path: typeF?.path ?? path, label: 'type' },
    required: { value: required && !nullable, path, label: 'required' },
    // Our extension holds the exact text where a keyword could only hold a rounded number.
    rules: { ...rules, ...extended },
    rulesPath: path,
  });
}

/** A date layout JSON Schema has no format for, kept in our extension (see export). */
function extensionFormat(node: Record<string, unknown>): boolean {
  const extension = own(node, EXTENSION_KEY);
  return isObject(extension) && typeof own(extension, 'format') === 'string';
}

function readTypes(f: Found | undefined, ctx: Context): string[] | undefined {
  if (f === undefined) return [];
  const list = typeof f.value === 'string' ? [f.value] : f.value;
  if (!Array.isArray(list) || list.length === 0 || list.some((t) => typeof t !== 'string')) {
    ctx.problem(f.path, 'type must be a type name or a list of type names');
    return undefined;
  }
  const unknown = list.find((t) => !JSON_TYPES.includes(t as string));
  if (unknown !== undefined) {
    ctx.problem(f.path, `Unknown type '${String(unknown)}'. Use one of: ${JSON_TYPES.join(', ')}`);
    return undefined;
  }
  return list as string[];
}

/** enum/const values as the text a CSV cell or a JSON scalar would be checked as. */
function readValues(
  f: Found | undefined,
  ctx: Context,
): { list: string[]; nullable: boolean; found: Found; kinds: Set<string> } | undefined {
  if (f === undefined) return undefined;
  if (!Array.isArray(f.value)) {
    ctx.problem(f.path, `${f.label} must be a list of values`);
    return undefined;
  }
  const list: string[] = [];
  const kinds = new Set<'string' | 'number' | 'boolean'>();
  let nullable = false;
  for (const [i, v] of f.value.entries()) {
    if (v === null) nullable = true;
    else if (typeof v === 'string') {
      list.push(v);
      kinds.add('string');
    } else if (typeof v === 'boolean') {
      list.push(String(v));
      kinds.add('boolean');
    } else if (typeof v === 'number' || v instanceof LosslessNumber) {
      kinds.add('number');
      list.push(typeof v === 'number' ? (numberToDecimal(v) ?? String(v)) : v.raw);
    } else {
      const where = f.label === 'const' ? f.path : joinPath(f.path, i);
      ctx.problem(
        where,
        `Allowed values must be text, numbers or true/false, not ${describeValue(v)}`,
      );
      return undefined;
    }
  }
  return { list, nullable, found: f, kinds };
}

/** minimum/maximum, and the draft-04 form where exclusiveMinimum: true makes minimum exclusive. */
function numericBounds(
  node: Record<string, unknown>,
  path: string,
  rules: RawField['rules'],
): void {
  const pairs: [string, RuleKey, RuleKey][] = [
    ['minimum', 'minValue', 'exclusiveMinimum'],
    ['maximum', 'maxValue', 'exclusiveMaximum'],
  ];
  for (const [keyword, inclusive, exclusive] of pairs) {
    const f = found(node, keyword, path);
    if (f === undefined) continue;
    if (own(node, exclusive) === true) rules[exclusive] = f;
    else rules[inclusive] = f;
  }
}

/** multipleOf 0.01 on a number is "at most 2 decimal places"; other steps cannot be expressed. */
function precision(
  node: Record<string, unknown>,
  path: string,
  type: FieldType,
  rules: RawField['rules'],
  ctx: Context,
): void {
  const f = found(node, 'multipleOf', path);
  if (f === undefined) return;
  const text =
    typeof f.value === 'number'
      ? numberToDecimal(f.value)
      : f.value instanceof LosslessNumber
        ? canonicalDecimal(f.value.raw)
        : null;
  const places =
    text === null ? -1 : /^0\.0*1$/.test(text) ? text.length - 2 : text === '1' ? 0 : -1;
  if (places > 0 && type === 'number') rules.precision = { ...f, value: places };
  else if (places === 0 && (type === 'integer' || type === 'number')) {
    if (type === 'number') rules.precision = { ...f, value: 0 };
  } else ctx.warn(`multipleOf ${String(f.value)} is not supported and was ignored at ${f.path}`);
}

function warnUnknownKeywords(
  node: Record<string, unknown>,
  path: string,
  ctx: Context,
  known: Set<string>,
): void {
  for (const key of Object.keys(node)) {
    if (known.has(key) || ANNOTATIONS.has(key)) continue;
    ctx.warn(`Keyword '${key}' is not supported and was ignored at ${joinPath(path, key)}`);
  }
}

/** Follows `$ref` inside this document (`#/$defs/x`); sibling keywords add to the target. */
function resolve(
  node: Record<string, unknown>,
  path: string,
  walk: Walk,
): Record<string, unknown> | undefined {
  let current = node;
  const seen = new Set<string>();
  for (;;) {
    const ref = own(current, '$ref');
    if (ref === undefined) return current;
    const refPath = joinPath(path, '$ref');
    if (typeof ref !== 'string' || !ref.startsWith('#')) {
      walk.ctx.problem(
        refPath,
        `The $ref ${JSON.stringify(ref)} cannot be followed; only references inside this schema (like #/$defs/name) are supported`,
      );
      return undefined;
    }
    if (seen.has(ref) || walk.expanding.has(ref)) {
      walk.ctx.problem(
        refPath,
        `The $ref '${ref}' refers back to itself; recursive schemas are not supported`,
      );
      return undefined;
    }
    seen.add(ref);
    const target = pointer(walk.root, ref);
    if (!isObject(target)) {
      walk.ctx.problem(refPath, `The $ref '${ref}' does not point to a schema object in this file`);
      return undefined;
    }
    const { $ref: _ignored, ...siblings } = current;
    current = mergeSchemas(target, siblings, refPath, walk.ctx);
  }
}

const LOWER_BOUNDS = new Set(['minLength', 'minimum', 'exclusiveMinimum', 'minItems']);
const UPPER_BOUNDS = new Set(['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems']);

/**
 * 2020-12 applies the keywords beside a `$ref` as well as the target's: a value must pass both.
 * Merged into one schema the model can hold: the tighter bound, both lists of required names,
 * the allowed values both accept, properties merged the same way. Two different patterns or
 * formats cannot be one field's rule; the one beside the `$ref` is kept, with a warning.
 */
function mergeSchemas(
  target: Record<string, unknown>,
  siblings: Record<string, unknown>,
  path: string,
  ctx: Context,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...target };
  for (const key of Object.keys(siblings)) {
    const mine = own(siblings, key);
    if (!Object.prototype.hasOwnProperty.call(target, key)) {
      merged[key] = mine;
      continue;
    }
    const theirs = own(target, key);
    const numbers = typeof mine === 'number' && typeof theirs === 'number';
    if (numbers && LOWER_BOUNDS.has(key)) merged[key] = Math.max(mine, theirs);
    else if (numbers && UPPER_BOUNDS.has(key)) merged[key] = Math.min(mine, theirs);
    else if (key === 'required' && Array.isArray(mine) && Array.isArray(theirs))
      merged[key] = [...new Set([...(theirs as unknown[]), ...(mine as unknown[])])];
    else if (key === 'properties' && isObject(mine) && isObject(theirs)) {
      const props: Record<string, unknown> = { ...theirs };
      for (const name of Object.keys(mine)) {
        const a = own(theirs, name);
        const b = own(mine, name);
        props[name] = isObject(a) && isObject(b) ? mergeSchemas(a, b, path, ctx) : b;
      }
      merged[key] = props;
    } else if (key === 'enum' && Array.isArray(mine) && Array.isArray(theirs)) {
      const keep = new Set(theirs.map((v) => JSON.stringify(v)));
      merged[key] = mine.filter((v) => keep.has(JSON.stringify(v)));
    } else if (key === 'type' && (typeof mine === 'string' || Array.isArray(mine))) {
      const a = Array.isArray(theirs) ? theirs : [theirs];
      const b = Array.isArray(mine) ? mine : [mine];
      const both = b.filter((t) => a.includes(t) || (t === 'integer' && a.includes('number')));
      merged[key] = both.length === 1 ? both[0] : both.length === 0 ? b : both;
    } else if (JSON.stringify(mine) !== JSON.stringify(theirs) && !ANNOTATIONS.has(key)) {
      ctx.warn(
        `Keyword '${key}' is given both beside a $ref and in its target; only the one beside the $ref is checked (at ${path})`,
      );
      merged[key] = mine;
    } else merged[key] = mine;
  }
  return merged;
}

function pointer(root: unknown, ref: string): unknown {
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === '') return root;
  if (!fragment.startsWith('/')) return undefined;
  let node = root;
  for (const raw of fragment.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node)) node = own(node, key);
    else return undefined;
  }
  return node;
}

/**
 * JSON Schema's conditional keywords on the record, as cross-field rules where they have one of
 * the supported forms: `dependentRequired {"a": ["b"]}` (b is required when a is there) and
 * `if {properties: {x: {const | enum}}, required: [x]} then {required: [...]} / {properties:
 * {y: {const | enum}}}`, alone or as items of `allOf`. Anything else is warned about, not checked.
 */
function readConditionalRules(
  node: Record<string, unknown>,
  path: string,
  walk: Walk,
): Record<string, unknown>[] {
  const { ctx } = walk;
  const rules: Record<string, unknown>[] = [];
  const unsupported = (key: string, why: string) =>
    ctx.warn(`Keyword '${key}' ${why}; it was ignored at ${joinPath(path, key)}`);
  const names = new Set(walk.fields.map((f) => f.name?.value));
  /** A top-level property named in a condition: described if needed (presence only). */
  const property = (name: string, where: string): boolean => {
    if (names.has(name)) return true;
    ctx.warn(
      `Property '${name}' is named in ${where} but not described; its presence is checked and any value is accepted (at ${joinPath(path, where)})`,
    );
    // pushField keeps a dot in the name as part of the one property's name (`{"a.b": 1}`).
    pushField(
      walk,
      [name],
      anyValueField(joinPath(joinPath(path, 'properties'), name), walk.fields.length, name, false),
    );
    names.add(name);
    return true;
  };

  const dependent = own(node, 'dependentRequired');
  if (dependent !== undefined) {
    if (!isObject(dependent)) unsupported('dependentRequired', 'must be an object of lists');
    else {
      for (const trigger of Object.keys(dependent)) {
        const list = own(dependent, trigger);
        if (!Array.isArray(list) || list.some((n) => typeof n !== 'string')) {
          unsupported('dependentRequired', `for '${trigger}' is not a list of property names`);
          continue;
        }
        if (list.length === 0 || !property(trigger, 'dependentRequired')) continue;
        for (const name of list as string[]) {
          if (!property(name, 'dependentRequired')) continue;
          rules.push({
            kind: 'requiredWhen',
            field: name,
            when: { field: trigger, op: 'isNotEmpty' },
          });
        }
      }
    }
  }

  const conditional = (item: Record<string, unknown>, where: string): void => {
    if (own(item, 'else') !== undefined) {
      unsupported(where, 'with else is not supported');
      return;
    }
    const condition = ifCondition(own(item, 'if'));
    const then = own(item, 'then');
    if (condition === undefined || !isObject(then)) {
      if (own(item, 'if') !== undefined || then !== undefined)
        unsupported(
          where,
          'is supported only as if {properties: {x: {const or enum}}, required: [x]} with then {required} or then {properties: {y: {const or enum}}}',
        );
      return;
    }
    if (!property(condition.field, 'if')) return;
    const thenRules: Record<string, unknown>[] = [];
    for (const key of Object.keys(then)) {
      const value = own(then, key);
      if (key === 'required' && Array.isArray(value) && value.every((n) => typeof n === 'string')) {
        for (const name of value as string[])
          if (property(name, 'then'))
            thenRules.push({ kind: 'requiredWhen', field: name, when: condition });
      } else if (key === 'properties' && isObject(value)) {
        for (const name of Object.keys(value)) {
          const allowed = allowedValues(own(value, name));
          if (allowed === undefined || !property(name, 'then')) {
            unsupported(where, `then's property '${name}' must be {const} or {enum}`);
            return;
          }
          thenRules.push({
            kind: 'allowedValuesWhen',
            field: name,
            when: condition,
            values: allowed,
          });
        }
      } else {
        unsupported(where, `then's keyword '${key}' is not supported`);
        return;
      }
    }
    rules.push(...thenRules);
  };
  if (
    own(node, 'if') !== undefined ||
    own(node, 'then') !== undefined ||
    own(node, 'else') !== undefined
  )
    conditional(node, 'if');
  const allOf = own(node, 'allOf');
  if (allOf !== undefined) {
    if (!Array.isArray(allOf)) unsupported('allOf', 'must be a list');
    else
      allOf.forEach((item, i) => {
        if (isObject(item) && (own(item, 'if') !== undefined || own(item, 'then') !== undefined)) {
          const others = Object.keys(item).filter(
            (k) => !['if', 'then', 'else'].includes(k) && !ANNOTATIONS.has(k),
          );
          if (others.length === 0) {
            conditional(item, `allOf[${i}]`);
            return;
          }
        }
        ctx.warn(
          `Keyword 'allOf' is not supported and was ignored at ${joinPath(joinPath(path, 'allOf'), i)}`,
        );
      });
  }
  return rules;
}

/** `{properties: {x: {const: v} | {enum: [...]}}, required: [x]}` as a rule condition. */
function ifCondition(
  value: unknown,
): { field: string; op: '=' | 'in'; value: string | string[] } | undefined {
  if (!isObject(value)) return undefined;
  const properties = own(value, 'properties');
  const required = own(value, 'required');
  if (!isObject(properties) || Object.keys(properties).length !== 1) return undefined;
  const field = Object.keys(properties)[0] as string;
  // Without `required`, JSON Schema's `if` also holds when x is absent: no rule says that.
  if (!Array.isArray(required) || !required.includes(field)) return undefined;
  if (Object.keys(value).some((k) => k !== 'properties' && k !== 'required' && !ANNOTATIONS.has(k)))
    return undefined;
  const allowed = allowedValues(own(properties, field));
  if (allowed === undefined) return undefined;
  return allowed.length === 1
    ? { field, op: '=', value: allowed[0] as string }
    : { field, op: 'in', value: allowed };
}

/** `{const: v}` or `{enum: [...]}` of scalars, as the text the rules compare. */
function allowedValues(value: unknown): string[] | undefined {
  if (!isObject(value)) return undefined;
  const keys = Object.keys(value).filter((k) => !ANNOTATIONS.has(k) && k !== 'type');
  if (keys.length !== 1) return undefined;
  const list =
    keys[0] === 'const'
      ? [own(value, 'const')]
      : keys[0] === 'enum'
        ? own(value, 'enum')
        : undefined;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const out: string[] = [];
  for (const v of list) {
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'boolean') out.push(String(v));
    else if (typeof v === 'number' || v instanceof LosslessNumber) {
      const text = typeof v === 'number' ? numberToDecimal(v) : canonicalDecimal(v.raw);
      if (text === null) return undefined;
      out.push(text);
    } else return undefined;
  }
  return out;
}
