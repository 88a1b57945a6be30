// The public API form: { name, type, rules: { columns: [...], orderMatters, additionalColumns,
// additionalProperties } }. A column's rules may sit on the column or in its `validation` object.
import { isRuleKey, type RawField, type RawSchema } from '../build.ts';
import { type Context, type Found, found, isObject, joinPath, own } from '../context.ts';
import { readEach, readFieldList, readRuleObject } from './web.ts';

const COLUMN_KEYS = new Set(['name', 'type', 'required', 'validation', 'description', 'title']);

export function readApiForm(input: Record<string, unknown>, ctx: Context): RawSchema {
  const rules = own(input, 'rules');
  const schema: RawSchema = {
    name: found(input, 'name', ''),
    fileType: found(input, 'type', ''),
    fields: undefined,
    fieldsPath: 'rules.columns',
    fieldCount: 0,
  };
  if (!isObject(rules)) {
    ctx.problem('rules', 'rules must be an object with a columns list');
    return schema;
  }
  for (const flag of ['orderMatters', 'additionalColumns', 'additionalProperties'] as const) {
    schema[flag] = found(rules, flag, 'rules');
  }
  const list = readFieldList(rules, 'columns', 'rules', ctx);
  if (list !== undefined) {
    schema.fields = readEach(list, readColumn, ctx);
    schema.fieldCount = list.count;
  }
  return schema;
}

function readColumn(
  item: unknown,
  path: string,
  ordinal: number,
  ctx: Context,
): RawField | undefined {
  if (!isObject(item)) {
    ctx.problem(path, 'Each column must be an object with name, type and required');
    return undefined;
  }
  const rulesPath = joinPath(path, 'validation');
  const inner = readRuleObject(own(item, 'validation'), rulesPath, ctx) ?? {};
  const outer: RawField['rules'] = {};
  for (const key of Object.keys(item)) {
    if (COLUMN_KEYS.has(key)) continue;
    const f = found(item, key, path);
    if (f === undefined) continue;
    if (isRuleKey(key)) outer[key] = f;
    else ctx.warn(`Option '${key}' is not known and was ignored at ${f.path}`);
  }
  return {
    path,
    ordinal,
    name: found(item, 'name', path),
    namePath: joinPath(path, 'name'),
    type: found(item, 'type', path),
    required: found(item, 'required', path),
    rules: mergeRules(outer, inner, ctx),
    rulesPath: path,
  };
}

/** Rules given in two places: equal values are one rule; different values are a problem. */
export function mergeRules(
  a: RawField['rules'],
  b: RawField['rules'],
  ctx: Context,
): RawField['rules'] {
  const merged: RawField['rules'] = { ...a };
  for (const key of Object.keys(b) as (keyof RawField['rules'])[]) {
    const second = b[key] as Found;
    const first = merged[key];
    if (first === undefined) merged[key] = second;
    else if (!sameValue(first.value, second.value)) {
      ctx.problem(
        second.path,
        `${second.label} is given twice with different values (${show(first.value)} at ${first.path} and ${show(second.value)} here)`,
      );
    }
  }
  return merged;
}

/** 5 and "5" are the same rule: the web and API forms send numbers either way. */
function sameValue(a: unknown, b: unknown): boolean {
  if (JSON.stringify(a) === JSON.stringify(b)) return true;
  const scalar = (v: unknown) => typeof v !== 'object' || v === null;
  return scalar(a) && scalar(b) && String(a) === String(b);
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
