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
