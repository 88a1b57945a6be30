// The public API form: { name, type, rules: { columns: [...], orderMatters, additionalColumns,
// additionalProperties, rules: [...] } }. A column's rules may sit on the column or in its
// `validation` object; `rules.rules` holds the cross-field rules in the web form's shape
// (docs/decisions/201).
import type { RawField, RawSchema } from '../build.ts';
import { type Context, found, isObject, own } from '../context.ts';
import { readEach, readFieldList, readFieldObject, refuseMisspelt } from './web.ts';

/** The API form's own keys, and what a schema read back from GET /v1/schemas also carries. */
const ROOT_KEYS = ['name', 'type', 'rules'];
const RULES_KEYS = [
  'columns',
  'orderMatters',
  'additionalColumns',
  'additionalProperties',
  'rules',
];

export function readApiForm(input: Record<string, unknown>, ctx: Context): RawSchema {
  const rules = own(input, 'rules');
  refuseMisspelt(input, '', ROOT_KEYS, 'option', ctx);
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
  refuseMisspelt(rules, 'rules', RULES_KEYS, 'option', ctx);
  for (const flag of ['orderMatters', 'additionalColumns', 'additionalProperties'] as const) {
    schema[flag] = found(rules, flag, 'rules');
  }
  schema.rules = found(rules, 'rules', 'rules');
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
  return readFieldObject(item, path, ordinal, ctx, path);
}
