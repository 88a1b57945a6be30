// The web form: { name, fileType, fields: [{ name, type, required, validation }], flags }.
import type { RawField, RawSchema } from '../build.ts';
import { isRuleKey, RULE_KEYS } from '../build.ts';
import { type Context, type Found, found, isObject, joinPath, own } from '../context.ts';
import { MAX_FIELDS } from '../limits.ts';
import { misspeltKey, misspeltMessage } from '../typos.ts';

const ROOT_KEYS = [
  'name',
  'fileType',
  'fields',
  'orderMatters',
  'additionalColumns',
  'additionalProperties',
];

/** The keys of a field of the web form, or of a column of the API form, beside its rules. */
export const FIELD_KEYS = ['name', 'type', 'required', 'validation', 'description', 'title'];

export function readWebForm(input: Record<string, unknown>, ctx: Context): RawSchema {
  // Other keys of the root are left alone (a schema read back from the API carries its id and
  // dates), unless they are a misspelt setting.
  refuseMisspelt(input, '', ROOT_KEYS, 'option', ctx);
  const list = readFieldList(input, 'fields', '', ctx);
  return {
    name: found(input, 'name', ''),
    fileType: found(input, 'fileType', ''),
    orderMatters: found(input, 'orderMatters', ''),
    additionalColumns: found(input, 'additionalColumns', ''),
    additionalProperties: found(input, 'additionalProperties', ''),
    rules: found(input, 'rules', ''),
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
  return readFieldObject(item, path, ordinal, ctx, joinPath(path, 'validation'));
}

/**
 * A field of the web form or a column of the API form: its rules may sit on it or in its
 * `validation` object (one reading for both forms, so a rule is never lost to the form it was
 * written in). A misspelt key is a problem; another unknown key is ignored with a warning.
 */
export function readFieldObject(
  item: Record<string, unknown>,
  path: string,
  ordinal: number,
  ctx: Context,
  /** Where problems between rules are reported. */
  rulesPath: string,
): RawField {
  const inner = readRuleObject(own(item, 'validation'), joinPath(path, 'validation'), ctx) ?? {};
  const outer: RawField['rules'] = {};
  for (const key of Object.keys(item)) {
    if (FIELD_KEYS.includes(key)) continue;
    const f = found(item, key, path);
    if (f === undefined) continue;
    if (isRuleKey(key)) outer[key] = f;
    else unknownKey(f, key, [...FIELD_KEYS, ...RULE_KEYS], ctx);
  }
  return {
    path,
    ordinal,
    name: found(item, 'name', path),
    namePath: joinPath(path, 'name'),
    type: found(item, 'type', path),
    required: found(item, 'required', path),
    rules: mergeRules(outer, inner, ctx),
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
    else unknownKey(f, key, RULE_KEYS, ctx);
  }
  return rules;
}

/** A key nobody reads: a problem when it is certainly a misspelt known key, else a warning. */
function unknownKey(f: Found, key: string, known: readonly string[], ctx: Context): void {
  const meant = misspeltKey(key, known);
  if (meant !== undefined) {
    ctx.problem(f.path, misspeltMessage(meant, isRuleKey(meant) ? 'rule' : 'option'));
  } else ctx.warn(`Option '${key}' is not known and was ignored at ${f.path}`);
}

/** Refuses the keys of `obj` that are misspellings of `known`; leaves other keys alone. */
export function refuseMisspelt(
  obj: Record<string, unknown>,
  base: string,
  known: readonly string[],
  kind: 'rule' | 'option',
  ctx: Context,
): void {
  for (const key of Object.keys(obj)) {
    const meant = misspeltKey(key, known);
    if (meant !== undefined) ctx.problem(joinPath(base, key), misspeltMessage(meant, kind));
  }
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
