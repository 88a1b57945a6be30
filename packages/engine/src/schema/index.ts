// The schema layer's public surface: read any of the four forms, check it, export it.
export { detectSchemaFormat, parseSchema, parseSchemaText } from './parse.ts';
export { exportLosses, exportSchema, type ExportTarget } from './export/index.ts';
export { toWebSchema } from './export/web.ts';
export { MAX_FIELDS, MAX_SCHEMA_NAME_LENGTH } from './limits.ts';
export {
  SCHEMA_FORMATS,
  type NumberInput,
  type SchemaFormat,
  type WebField,
  type WebFieldValidation,
  type WebSchema,
} from './web-types.ts';
