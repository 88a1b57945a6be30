import type { CrossFieldRule, FieldSpec, SchemaModel } from '../../model.ts';
import type { WebFieldValidation, WebSchema } from '../web-types.ts';
import { exactNumber } from './common.ts';

/** The model as the web form holds it: every rule, with numbers as numbers where exact. */
export function toWebSchema(model: SchemaModel): WebSchema {
  const web: WebSchema = { name: model.name, fields: model.fields.map(toWebField) };
  if (model.fileType !== undefined) web.fileType = model.fileType;
  web.orderMatters = model.orderMatters;
  web.additionalColumns = model.additionalColumns;
  web.additionalProperties = model.additionalProperties;
  if (model.rules !== undefined)
    web.rules = JSON.parse(JSON.stringify(model.rules)) as CrossFieldRule[];
  return web;
}

function toWebField(field: FieldSpec) {
  const r = field.rules;
  const v: WebFieldValidation = {};
  if (r.minLength !== undefined) v.minLength = r.minLength;
  if (r.maxLength !== undefined) v.maxLength = r.maxLength;
  if (r.pattern !== undefined) v.pattern = r.pattern;
  if (r.allowedChars !== undefined) v.allowedChars = r.allowedChars;
  for (const key of ['minValue', 'maxValue', 'exclusiveMinimum', 'exclusiveMaximum'] as const) {
    const text = r[key];
    if (text !== undefined) v[key] = exactNumber(text) ?? text;
  }
  if (r.precision !== undefined) v.precision = r.precision;
  if (r.truthy !== undefined) v.truthy = [...r.truthy];
  if (r.falsy !== undefined) v.falsy = [...r.falsy];
  if (r.format !== undefined) v.format = r.format;
  if (r.minDate !== undefined) v.minDate = r.minDate;
  if (r.maxDate !== undefined) v.maxDate = r.maxDate;
  if (r.allowFuture !== undefined) v.allowFuture = r.allowFuture;
  if (r.allowPast !== undefined) v.allowPast = r.allowPast;
  if (r.values !== undefined) v.values = [...r.values];
  if (r.unique !== undefined) v.unique = r.unique;
  if (r.inList !== undefined) v.inList = r.inList;
  if (r.severity !== undefined) v.severity = r.severity;
  if (r.message !== undefined) v.message = r.message;
  return { name: field.name, type: field.type, required: field.required, validation: v };
}
