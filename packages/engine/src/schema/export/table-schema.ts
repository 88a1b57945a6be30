// The model as a Frictionless Table Schema. Patterns become whole-value patterns (Table Schema
// anchors them); date layouts become strftime; what Table Schema cannot say goes under
// "x-schemacheck" on the field or the schema; a field's reference list is a foreign key.
import type { FieldSpec, SchemaModel } from '../../model.ts';
import {
  DEFAULT_DATE_FORMAT,
  TABLE_DATE_TIME_FORMAT,
  TABLE_TIME_FORMAT,
} from '../../rules/date-format.ts';
import { wholeValueBody } from '../../rules/regex-shape.ts';
import { EXTENSION_KEY } from '../forms/json-schema.ts';
import { exportBounds, hasDateTokens, hasTimeTokens, toStrftime, typedValue } from './common.ts';

type Json = Record<string, unknown>;

export function toTableSchema(model: SchemaModel): Json {
  const out: Json = { fields: model.fields.map(field) };
  const ext: Json = {};
  if (model.name !== '') ext.name = model.name;
  if (model.fileType !== undefined) ext.fileType = model.fileType;
  if (model.orderMatters) ext.orderMatters = true;
  if (!model.additionalColumns) ext.additionalColumns = false;
  if (!model.additionalProperties) ext.additionalProperties = false;
  if (model.rules !== undefined) {
    // Every rule in our extension (read back as the whole truth); composite keys also as Table
    // Schema's own uniqueKeys, for other tools.
    ext.rules = JSON.parse(JSON.stringify(model.rules)) as unknown;
    const keys = model.rules.flatMap((r) =>
      // A key that only warns is ours alone: other tools would refuse its duplicates.
      r.kind === 'uniqueTogether' && r.severity !== 'warning' ? [[...r.fields]] : [],
    );
    if (keys.length > 0) out.uniqueKeys = keys;
  }
  if (model.missingValues !== undefined) out.missingValues = ['', ...model.missingValues];
  // A reference list is another resource of one column (read back as inList).
  const foreignKeys = model.fields.flatMap((f) =>
    f.rules.inList === undefined
      ? []
      : [{ fields: f.name, reference: { resource: f.rules.inList, fields: 'value' } }],
  );
  if (foreignKeys.length > 0) out.foreignKeys = foreignKeys;
  if (Object.keys(ext).length > 0) out[EXTENSION_KEY] = ext;
  return out;
}

function field(f: FieldSpec): Json {
  const r = f.rules;
  const out: Json = { name: f.name };
  const constraints: Json = {};
  const ext: Json = {};
  describeType(f, out, ext);
  if (f.type === 'boolean') {
    if (r.truthy !== undefined) out.trueValues = r.truthy;
    if (r.falsy !== undefined) out.falseValues = r.falsy;
  }
  if (f.required) constraints.required = true;
  if (r.unique === true) constraints.unique = true;
  if (r.severity !== undefined) ext.severity = r.severity;
  if (r.message !== undefined) ext.message = r.message;
  if (r.minLength !== undefined) constraints.minLength = r.minLength;
  if (r.maxLength !== undefined) constraints.maxLength = r.maxLength;
  exportBounds(r, constraints, ext);
  const isoDates = (r.format ?? DEFAULT_DATE_FORMAT) === DEFAULT_DATE_FORMAT;
  for (const [key, keyword] of [
    ['minDate', 'minimum'],
    ['maxDate', 'maximum'],
  ] as const) {
    const date = r[key];
    if (date === undefined) continue;
    if (isoDates) constraints[keyword] = date;
    else ext[key] = date;
  }
  if (r.pattern !== undefined) constraints.pattern = wholeValuePattern(r.pattern);
  if (r.values !== undefined) constraints.enum = r.values.map((v) => typedValue(f, v));
  if (r.precision !== undefined) ext.precision = r.precision;
  if (r.allowedChars !== undefined) ext.allowedChars = r.allowedChars;
  if (r.allowFuture === false) ext.allowFuture = false;
  if (r.allowPast === false) ext.allowPast = false;
  if (Object.keys(constraints).length > 0) out.constraints = constraints;
  if (Object.keys(ext).length > 0) out[EXTENSION_KEY] = ext;
  return out;
}

function describeType(f: FieldSpec, out: Json, ext: Json): void {
  switch (f.type) {
    case 'email':
      out.type = 'string';
      out.format = 'email';
      return;
    case 'url':
      out.type = 'string';
      out.format = 'uri';
      return;
    case 'enum':
      out.type = 'string';
      ext.type = 'enum';
      return;
    case 'date': {
      const format = f.rules.format ?? DEFAULT_DATE_FORMAT;
      if (format === DEFAULT_DATE_FORMAT) out.type = 'date';
      else if (format === TABLE_DATE_TIME_FORMAT) out.type = 'datetime';
      else if (format === TABLE_TIME_FORMAT) out.type = 'time';
      else if (format.includes('z')) {
        // strftime has no optional zone: our extension keeps the exact layout.
        out.type = hasDateTokens(format) ? 'datetime' : 'time';
        ext.format = format;
      } else {
        out.type = hasTimeTokens(format) ? (hasDateTokens(format) ? 'datetime' : 'time') : 'date';
        out.format = toStrftime(format);
      }
      return;
    }
    default:
      out.type = f.type;
  }
}

/**
 * Our patterns search; Table Schema's match the whole value. `^X$` is written X; any other
 * pattern P is written `[\s\S]*(?:P)[\s\S]*`, which the reader turns back into P.
 */
export function wholeValuePattern(pattern: string): string {
  return wholeValueBody(pattern) ?? `[\\s\\S]*(?:${pattern})[\\s\\S]*`;
}
