// Entry points: which form a schema is written in, and the checked SchemaModel it stands for.
import type { Checked, SchemaModel } from '../model.ts';
import { buildModel, type RawSchema } from './build.ts';
import { Context, isObject, own } from './context.ts';
import { readApiForm } from './forms/api.ts';
import { readJsonSchema } from './forms/json-schema.ts';
import { readTableSchema } from './forms/table-schema.ts';
import { readWebForm } from './forms/web.ts';
import { parseJsonText } from './json-text.ts';
import { SCHEMA_FORMATS, type SchemaFormat } from './web-types.ts';

const TABLE_SCHEMA_ONLY_TYPES = new Set([
  'datetime',
  'time',
  'year',
  'yearmonth',
  'duration',
  'geopoint',
  'geojson',
  'object',
  'array',
  'any',
  'list',
]);

/**
 * The form of a schema, from its shape: `rules.columns` is the public API; `properties`, `$schema`
 * or a `type` of object/array is JSON Schema; `fields` is the web form unless something only Table
 * Schema has appears (constraints, a field-level format, primaryKey, missingValues, trueValues,
 * a Table Schema type).
 */
export function detectSchemaFormat(input: unknown): SchemaFormat | undefined {
  if (!isObject(input)) return undefined;
  const rules = own(input, 'rules');
  if (isObject(rules) && own(rules, 'columns') !== undefined) return 'api';
  const type = own(input, 'type');
  if (
    own(input, '$schema') !== undefined ||
    isObject(own(input, 'properties')) ||
    ((type === 'object' || type === 'array') && own(input, 'fields') === undefined)
  ) {
    return 'jsonschema';
  }
  const fields = own(input, 'fields');
  if (own(input, 'fileType') !== undefined) return 'web';
  if (!Array.isArray(fields)) return fields === undefined ? undefined : 'web';
  const tableRoot = ['primaryKey', 'uniqueKeys', 'missingValues', 'foreignKeys'].some(
    (k) => own(input, k) !== undefined,
  );
  const tableField = fields.some(
    (f) =>
      isObject(f) &&
      (own(f, 'constraints') !== undefined ||
        own(f, 'format') !== undefined ||
        own(f, 'trueValues') !== undefined ||
        own(f, 'falseValues') !== undefined ||
        TABLE_SCHEMA_ONLY_TYPES.has(String(own(f, 'type')))),
  );
  const webField = fields.some(
    (f) => isObject(f) && (own(f, 'validation') !== undefined || own(f, 'required') !== undefined),
  );
  if (webField && !tableField && !tableRoot) return 'web';
  if (tableField || tableRoot) return 'tableschema';
  return 'web';
}

/** Normalises any of the four forms into the SchemaModel, or lists every problem it has. */
export function parseSchema(input: unknown, format?: SchemaFormat): Checked<SchemaModel> {
  const ctx = new Context();
  if (!isObject(input)) {
    return { ok: false, problems: [{ path: '', message: 'The schema must be a JSON object' }] };
  }
  if (format !== undefined && !SCHEMA_FORMATS.includes(format)) {
    return {
      ok: false,
      problems: [
        {
          path: '',
          message: `Unknown schema format '${String(format)}'. Use one of: ${SCHEMA_FORMATS.join(', ')}`,
        },
      ],
    };
  }
  const form = format ?? detectSchemaFormat(input);
  if (form === undefined) {
    return {
      ok: false,
      problems: [
        {
          path: '',
          message:
            'This is not a schema we recognise. Use the web form ({ "fields": [...] }), the API form ({ "rules": { "columns": [...] } }), JSON Schema or Table Schema',
        },
      ],
    };
  }
  const raw = read(form, input, ctx);
  const model = buildModel(raw, ctx);
  if (model === undefined || ctx.problems.length > 0)
    return { ok: false, problems: ctx.orderedProblems() };
  if (ctx.warnings.length === 0) return { ok: true, value: model, warnings: ctx.warnings };
  // The model carries its warnings so that every validation reports them (see SchemaModel).
  return { ok: true, value: { ...model, warnings: [...ctx.warnings] }, warnings: ctx.warnings };
}

function read(form: SchemaFormat, input: Record<string, unknown>, ctx: Context): RawSchema {
  switch (form) {
    case 'web':
      return readWebForm(input, ctx);
    case 'api':
      return readApiForm(input, ctx);
    case 'jsonschema':
      return readJsonSchema(input, ctx);
    case 'tableschema':
      return readTableSchema(input, ctx);
  }
}

/** parseSchema for text; a JSON syntax error is one problem that names its line and column. */
export function parseSchemaText(text: string, format?: SchemaFormat): Checked<SchemaModel> {
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    return {
      ok: false,
      problems: [{ path: '', message: `The schema is not valid JSON: ${parsed.message}` }],
    };
  }
  return parseSchema(parsed.value, format);
}
