import type { SchemaModel } from '../../model.ts';
import { toJsonSchema } from './json-schema.ts';
import { toTableSchema } from './table-schema.ts';
import { toWebSchema } from './web.ts';

export type ExportTarget = 'web' | 'jsonschema' | 'tableschema';

/** The model as a plain JSON value in another form; parseSchema reads it back to the same model. */
export function exportSchema(model: SchemaModel, to: ExportTarget): Record<string, unknown> {
  switch (to) {
    case 'web':
      return toWebSchema(model) as unknown as Record<string, unknown>;
    case 'jsonschema':
      return toJsonSchema(model);
    case 'tableschema':
      return toTableSchema(model);
  }
}

/**
 * What `to` cannot hold of the model, one sentence each: exportSchema leaves it out, and a caller
 * that converts says so (JSON Schema export holds everything; the web form and Table Schema are
 * flat lists of columns).
 */
export function exportLosses(model: SchemaModel, to: ExportTarget): string[] {
  if (to === 'jsonschema') return [];
  const losses: string[] = [];
  const names = (fields: { name: string }[]) => fields.map((f) => `'${f.name}'`).join(', ');
  const typeLists = model.fields.filter((f) => f.jsonTypes !== undefined);
  if (typeLists.length > 0)
    losses.push(
      `Fields with several JSON types (${names(typeLists)}) become text fields, which refuse JSON numbers and true/false`,
    );
  const within = model.fields.filter((f) => f.required && (f.requiredWithin ?? 0) > 0);
  if (within.length > 0)
    losses.push(
      `Fields required only inside an optional object (${names(within)}) become required in every record`,
    );
  if ((model.objects ?? []).length > 0)
    losses.push(
      `Nested objects' own settings (required objects, additionalProperties) are left out`,
    );
  const literal = model.fields.filter((f) => f.path !== undefined);
  if (literal.length > 0)
    losses.push(
      `Property names with a dot of their own (${names(literal)}) are read as nested objects in JSON files`,
    );
  if (to === 'web' && model.missingValues !== undefined)
    losses.push(
      `missingValues (${model.missingValues.map((v) => JSON.stringify(v)).join(', ')}) cannot be written in the web form and were left out; cells written so will be checked as values`,
    );
  return losses;
}
