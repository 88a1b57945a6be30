// The web form: { name, fileType, fields: [{ name, type, required, validation }], flags }.
import type { RawField, RawSchema } from '../build.ts';
import { isRuleKey } from '../build.ts';
import { type Context, found, isObject, joinPath, own } from '../context.ts';
import { MAX_FIELDS } from '../limits.ts';

export function readWebForm(input: Record<string, unknown>, ctx: Context): RawSchema {
  const list = readFieldList(input, 'fields', '', ctx);
  return {
    name: found(input, 'name', ''),
    fileType: found(input, 'fileType', ''),
    orderMatters: found(input, 'orderMatters', ''),
    additionalColumns: found(input, 'additionalColumns', ''),
    additionalProperties: found(input, 'additionalProperties', ''),
    fields: list === undefined ? undefined : readEach(list, readWebField, ctx),
    fieldsPath: joinPath('', 'fields'),
    fieldCount: list?.count ?? 0,
  };
}

/** Reads each item of a field list, noting which one is being read so problems list in order. */
export function readEach(
  list: { items: unknown[]; path: string },
  read: (item: unknown, path: string, ordinal: number, ctx: Context) => RawField | undefined,
  ctx: Context,
): RawField[] {
  const fields: RawField[] = [];
  list.items.forEach((item, i) => {
    ctx.field = i;
    const field = read(item, joinPath(list.path, i), i, ctx);
    if (field !== undefined) fields.push(field);
  });
  ctx.field = -1;
  return fields;
}

/** The field list of the web or API form; undefined (with a problem) when it is not a list. */
export function readFieldList(
  parent: Record<string, unknown>,
  key: string,
  base: string,
  ctx: Context,
): { items: unknown[]; path: string; count: number } | undefined {
  const path = joinPath(base, key);
  const value = own(parent, key);
  if (value === undefined || value === null) return { items: [], path, count: 0 };
  if (!Array.isArray(value)) {
    ctx.problem(path, `${key} must be a list of fields`);
    return undefined;
  }
  return { items: value.slice(0, MAX_FIELDS), path, count: value.length };
}

function readWebField(
  item: unknown,
  path: string,
  ordinal: number,
  ctx: Context,
): RawField | undefined {
  if (!isObject(item)) {
    ctx.problem(path, 'Each field must be an object with name, type, required and validation');
    return undefined;
  }
  const rulesPath = joinPath(path, 'validation');
  return {
    path,
    ordinal,
    name: found(item, 'name', path),
    namePath: joinPath(path, 'name'),
    type: found(item, 'type', path),
    required: found(item, 'required', path),
    rules: readRuleObject(own(item, 'validation'), rulesPath, ctx) ?? {},
    rulesPath,
  };
}

/** A `validation` object: every known option, and a warning for each unknown one. */
export function readRuleObject(
  value: unknown,
  path: string,
  ctx: Context,
): RawField['rules'] | undefined {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) {
    ctx.problem(path, 'validation must be an object of options, like { "maxLength": 50 }');
    return undefined;
  }
  const rules: RawField['rules'] = {};
  for (const key of Object.keys(value)) {
    const f = found(value, key, path);
    if (f === undefined) continue;
    if (isRuleKey(key)) rules[key] = f;
    else ctx.warn(`Option '${key}' is not known and was ignored at ${f.path}`);
  }
  return rules;
}
