// The model as a JSON Schema 2020-12 of one record. A field that is not required also accepts
// null (the engine reads null as "no value"). Dotted names nest for JSON files (a field's `path`,
// when it has one, says the property names); nested objects take their ObjectSpec. Rules JSON Schema
// cannot say (unique, allowedChars, date ranges, other date layouts, boolean spellings) and exact
// bounds a double would round go under "x-schemacheck", which other tools ignore.
import type { CrossFieldRule, FieldSpec, ObjectSpec, SchemaModel } from '../../model.ts';
import { DEFAULT_DATE_FORMAT, ISO_DATE_TIME_FORMAT } from '../../rules/date-format.ts';
import { EXTENSION_KEY, RULES_KEY } from '../forms/json-schema.ts';
import { exportBounds, hasDefaultFalsy, hasDefaultTruthy, typedValue } from './common.ts';

type Json = Record<string, unknown>;

const STANDARD_DATE_FORMATS: Record<string, string> = {
  [DEFAULT_DATE_FORMAT]: 'date',
  [ISO_DATE_TIME_FORMAT]: 'date-time',
  'HH:mm:ssZ': 'time',
};

export function toJsonSchema(model: SchemaModel): Json {
  const out: Json = { $schema: 'https://json-schema.org/draft/2020-12/schema' };
  if (model.name !== '') out.title = model.name;
  const nodes = tree(model);
  const record = objectSchema(nodes, model);
  Object.assign(out, record);
  const ext: Json = {};
  // Flat keys (see tree) keep the model's dotted names: in a JSON file they still nest.
  const flatDots = [...nodes.children.keys()].some((k) => k.includes('.'));
  if (flatDots && model.fileType !== 'csv' && nodes.nested !== true) ext.dotsNest = true;
  if (model.fileType !== undefined) ext.fileType = model.fileType;
  if (model.orderMatters) ext.orderMatters = true;
  if (!model.additionalColumns) ext.additionalColumns = false;
  // Table Schema's cells that mean "no value" (NA): JSON Schema has no word for them.
  if (model.missingValues !== undefined) ext.missingValues = [...model.missingValues];
  if (Object.keys(ext).length > 0) out[EXTENSION_KEY] = ext;
  if (model.rules !== undefined) exportRules(model, out);
  return out;
}

interface Node {
  /** The record's node, when the fields could be nested. */
  nested?: boolean;
  field?: FieldSpec;
  object?: ObjectSpec;
  children: Map<string, Node>;
}

/**
 * Fields as nested objects; flat when nesting is impossible (CSV, `a` next to `a.b`). Nesting
 * lists a parent's fields together, so a.x, id, a.y comes back as a.x, a.y, id.
 */
function tree(model: SchemaModel): Node {
  const nested: Node = { nested: true, children: new Map() };
  const flat: Node = {
    children: new Map(model.fields.map((f) => [f.name, { field: f, children: new Map() }])),
  };
  if (model.fileType === 'csv') return flat;
  /** The node at `parts`, made on the way; undefined where a field is in the way. */
  const reach = (parts: readonly string[]): Node | undefined => {
    let node = nested;
    for (const part of parts) {
      if (node.field !== undefined) return undefined;
      let child = node.children.get(part);
      if (child === undefined) {
        child = { children: new Map() };
        node.children.set(part, child);
      }
      node = child;
    }
    return node;
  };
  for (const field of model.fields) {
    const parts = field.path ?? field.name.split('.');
    if (field.path === undefined && parts.some((p) => p === '')) return flat;
    const node = reach(parts);
    if (node === undefined || node.field !== undefined || node.children.size > 0) return flat;
    node.field = field;
  }
  for (const object of model.objects ?? []) {
    const node = reach(object.path);
    if (node === undefined || node.field !== undefined) return flat;
    node.object = object;
  }
  // Nesting groups a.x with a.y; when the header order matters, only do it if nothing moves.
  if (model.orderMatters && !sameOrder(leaves(nested), model.fields)) return flat;
  return nested;
}

function leaves(node: Node): FieldSpec[] {
  return [...node.children.values()].flatMap((child) =>
    child.field !== undefined ? [child.field] : leaves(child),
  );
}

function sameOrder(a: FieldSpec[], b: FieldSpec[]): boolean {
  return a.length === b.length && a.every((f, i) => f === b[i]);
}

/**
 * Whether the property at `node`, `depth` names deep, is required in its object: something at or
 * below it is required with a chain that reaches above it (FieldSpec.requiredWithin).
 */
function anyRequired(node: Node, depth: number): boolean {
  return (
    (node.field?.required === true && (node.field.requiredWithin ?? 0) < depth) ||
    (node.object?.required === true && (node.object.requiredWithin ?? 0) < depth) ||
    [...node.children.values()].some((c) => anyRequired(c, depth))
  );
}

function objectSchema(node: Node, model: SchemaModel, depth = 0): Json {
  // Unset on a nested object (or the record): the schema's own setting.
  const properties: Json = {};
  const required: string[] = [];
  for (const [key, child] of node.children) {
    let schema: Json;
    if (child.field !== undefined) schema = property(child.field);
    else {
      schema = objectSchema(child, model, depth + 1);
      if (!anyRequired(child, depth + 1)) schema.type = ['object', 'null'];
    }
    // A field may be called "__proto__": it must stay an own property.
    Object.defineProperty(properties, key, {
      value: schema,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    if (anyRequired(child, depth + 1)) required.push(key);
  }
  const out: Json = { type: 'object', properties };
  if (required.length > 0) out.required = required;
  if (!(node.object?.additionalProperties ?? model.additionalProperties)) {
    out.additionalProperties = false;
  }
  return out;
}

function property(field: FieldSpec): Json {
  // A property read from `{}` (or an array, or null only): any value, as it was written.
  if (field.anyValue) return {};
  const r = field.rules;
  const p: Json = {};
  const ext: Json = {};
  const nullable = !field.required;
  const { type, format } = jsonType(field, ext);
  if (type !== undefined) p.type = nullable ? [type, 'null'] : type;
  if (field.jsonTypes !== undefined)
    p.type = nullable ? [...field.jsonTypes, 'null'] : [...field.jsonTypes];
  if (format !== undefined) p.format = format;
  if (r.values !== undefined) {
    const values: unknown[] = r.values.map((v) => typedValue(field, v));
    p.enum = nullable && field.type === 'enum' ? [...values, null] : values;
  }
  if (r.minLength !== undefined) p.minLength = r.minLength;
  if (r.maxLength !== undefined) p.maxLength = r.maxLength;
  if (r.pattern !== undefined) p.pattern = r.pattern;
  exportBounds(r, p, ext);
  if (r.precision !== undefined) p.multipleOf = r.precision === 0 ? 1 : Number(`1e-${r.precision}`);
  if (r.allowedChars !== undefined) ext.allowedChars = r.allowedChars;
  if (r.unique === true) ext.unique = true;
  // Reference lists, severities and own messages have no JSON Schema keyword.
  if (r.inList !== undefined) ext.inList = r.inList;
  if (r.severity !== undefined) ext.severity = r.severity;
  if (r.message !== undefined) ext.message = r.message;
  if (field.type === 'boolean') {
    if (!hasDefaultTruthy(field)) ext.truthy = r.truthy;
    if (!hasDefaultFalsy(field)) ext.falsy = r.falsy;
  }
  if (r.minDate !== undefined) ext.minDate = r.minDate;
  if (r.maxDate !== undefined) ext.maxDate = r.maxDate;
  if (r.allowFuture === false) ext.allowFuture = false;
  if (r.allowPast === false) ext.allowPast = false;
  if (Object.keys(ext).length > 0) p[EXTENSION_KEY] = ext;
  return p;
}

/** The JSON type and format of a field; no type for enum, whose values say it all. */
function jsonType(field: FieldSpec, ext: Json): { type?: string; format?: string } {
  switch (field.type) {
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      return { type: field.type };
    case 'email':
      return { type: 'string', format: 'email' };
    case 'url':
      return { type: 'string', format: 'uri' };
    case 'date': {
      const format = field.rules.format ?? DEFAULT_DATE_FORMAT;
      const standard = STANDARD_DATE_FORMATS[format];
      if (standard === undefined) ext.format = format;
      return { type: 'string', format: standard };
    }
    case 'enum':
      return {};
  }
}

/**
 * Cross-field rules. Every rule is written under `x-schemacheck-rules`, which our import reads
 * first and as the whole truth (so a round trip keeps each rule, its order, severity and message);
 * the ones JSON Schema can say are also written in its own words for other validators:
 * requiredWhen on `isNotEmpty` as `dependentRequired`, requiredWhen and allowedValuesWhen on
 * `=`/`in` as `if {properties: {x: {enum}}, required: [x]} then {...}` items of `allOf`. A rule
 * that only warns stays in `x-schemacheck-rules`: JSON Schema has no warnings, and other
 * validators would refuse the rows it lets through.
 */
function exportRules(model: SchemaModel, out: Json): void {
  const rules = model.rules ?? [];
  out[RULES_KEY] = JSON.parse(JSON.stringify(rules)) as CrossFieldRule[];
  const byName = new Map(model.fields.map((f) => [f.name, f]));
  const dependent: Record<string, string[]> = {};
  const allOf: Json[] = [];
  for (const rule of rules) {
    if (rule.kind !== 'requiredWhen' && rule.kind !== 'allowedValuesWhen') continue;
    if (rule.severity === 'warning') continue;
    const { when } = rule;
    const whenField = byName.get(when.field);
    // Only top-level properties: a dotted name may be nested, and `if` would have to nest too.
    if (whenField === undefined || whenField.path !== undefined || when.field.includes('.'))
      continue;
    if (rule.field.includes('.')) continue;
    if (rule.kind === 'requiredWhen' && when.op === 'isNotEmpty') {
      (dependent[when.field] ??= []).push(rule.field);
      continue;
    }
    if (when.op !== '=' && when.op !== 'in') continue;
    const listed = (Array.isArray(when.value) ? when.value : [when.value as string]).map((v) =>
      typedValue(whenField, v),
    );
    const condition: Json = {
      properties: { [when.field]: listed.length === 1 ? { const: listed[0] } : { enum: listed } },
      required: [when.field],
    };
    if (rule.kind === 'requiredWhen')
      allOf.push({ if: condition, then: { required: [rule.field] } });
    else {
      const target = byName.get(rule.field);
      if (target === undefined) continue;
      const values = rule.values.map((v) => typedValue(target, v));
      allOf.push({ if: condition, then: { properties: { [rule.field]: { enum: values } } } });
    }
  }
  if (Object.keys(dependent).length > 0) out.dependentRequired = dependent;
  if (allOf.length > 0) out.allOf = allOf;
}
