import { z } from 'zod';
import { fileTypeSchema, listPageFields, uuidSchema, warningSchema } from './common.ts';

// /v1/schemas. A schema is written in the API form below; JSON Schema and Table Schema documents
// are accepted too. The engine checks every schema before it is stored and answers problems by
// path; this contract describes the envelope and the columns the docs show.

export const FIELD_TYPES_V1 = [
  'string',
  'integer',
  'number',
  'boolean',
  'date',
  'email',
  'url',
  'enum',
] as const;

const columnRules = {
  minLength: z.number().int().min(0).optional(),
  maxLength: z.number().int().min(0).optional(),
  minValue: z.number().optional(),
  maxValue: z.number().optional(),
  precision: z.number().int().min(0).optional().describe('number: digits after the point, at most'),
  pattern: z.string().optional().describe('A regular expression (linear-time subset).'),
  format: z.string().optional().describe('date: e.g. YYYY-MM-DD or YYYY-MM-DD HH:mm:ss'),
  values: z.array(z.string()).optional().describe('enum: the allowed values'),
  minDate: z.string().optional(),
  maxDate: z.string().optional(),
  allowFuture: z.boolean().optional(),
  allowPast: z.boolean().optional(),
  truthy: z.array(z.string()).optional(),
  falsy: z.array(z.string()).optional(),
  unique: z.boolean().optional(),
};

export const columnSchema = z.object({
  name: z.string(),
  type: z.enum(FIELD_TYPES_V1),
  required: z.boolean(),
  ...columnRules,
  validation: z
    .object(columnRules)
    .optional()
    .describe('The same rules may sit here instead of on the column.'),
});

export const schemaRulesSchema = z.object({
  columns: z.array(columnSchema).min(1),
  orderMatters: z.boolean().optional().describe('CSV: the header must list the columns in order.'),
  additionalColumns: z.boolean().optional().describe('CSV: columns not in the schema are allowed.'),
  additionalProperties: z
    .boolean()
    .optional()
    .describe('JSON: properties not in the schema are allowed.'),
});

export const apiFormSchema = z.object({
  name: z.string().min(1).max(200),
  type: fileTypeSchema,
  rules: schemaRulesSchema,
});

/** The body of POST and PUT: the API form, or a JSON Schema / Table Schema document. */
export const schemaBodySchema = z.union([
  apiFormSchema,
  z
    .record(z.string(), z.unknown())
    .describe(
      'A JSON Schema (draft 2020-12 subset) or Frictionless Table Schema document; `name` and `type` may be given beside it.',
    ),
]);

/**
 * Rules of the sent document that the engine does not check (e.g. JSON Schema's `oneOf`): the
 * stored schema is without them, so they are named once, when it is stored.
 */
const storedWarnings = z
  .array(warningSchema)
  .describe(
    'Rules of the document that are not checked (code `schema`); validations with this schema go on without them.',
  );

const storedFileTypeSchema = fileTypeSchema
  .nullable()
  .describe(
    'csv or json; null when the schema names no type and its form implies none: each file is then read by its extension, or its first bytes.',
  );

export const schemaCreatedSchema = z.object({
  schema_id: uuidSchema,
  name: z.string(),
  type: storedFileTypeSchema,
  created_at: z.iso.datetime(),
  warnings: storedWarnings,
});

/** A bound as stored: a number, or its exact text when a JSON number would lose digits. */
const storedBound = z
  .union([z.number(), z.string()])
  .describe('A number; given as text when a JSON number would lose digits (past 2^53).');

/**
 * A column as a saved schema holds it: whatever form it was sent in (API form, JSON Schema,
 * Table Schema), its rules are normalised under `validation`. Rules added later may appear.
 */
export const storedColumnSchema = z.object({
  name: z.string(),
  type: z.enum(FIELD_TYPES_V1),
  required: z.boolean(),
  validation: z
    .object({
      minLength: z.number().int().min(0).optional(),
      maxLength: z.number().int().min(0).optional(),
      pattern: z.string().optional(),
      allowedChars: z.string().optional(),
      minValue: storedBound.optional(),
      maxValue: storedBound.optional(),
      exclusiveMinimum: storedBound.optional(),
      exclusiveMaximum: storedBound.optional(),
      precision: z.number().int().min(0).optional(),
      format: z.string().optional(),
      values: z.array(z.string()).optional(),
      minDate: z.string().optional(),
      maxDate: z.string().optional(),
      allowFuture: z.boolean().optional(),
      allowPast: z.boolean().optional(),
      truthy: z.array(z.string()).optional(),
      falsy: z.array(z.string()).optional(),
      unique: z.boolean().optional(),
    })
    .catchall(z.unknown())
    .describe("The column's rules."),
});
export type StoredColumnV1 = z.infer<typeof storedColumnSchema>;

export const schemaSchema = z.object({
  schema_id: uuidSchema,
  name: z.string(),
  type: storedFileTypeSchema,
  rules: z.object({
    columns: z.array(storedColumnSchema),
    orderMatters: z.boolean().optional(),
    additionalColumns: z.boolean().optional(),
    additionalProperties: z.boolean().optional(),
  }),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type SchemaV1 = z.infer<typeof schemaSchema>;

export const schemaReplacedSchema = schemaSchema.extend({ warnings: storedWarnings });

export const schemaListSchema = z.object({
  data: z.array(schemaSchema),
  ...listPageFields,
  total: z.number().int().min(0).describe('Schemas of the account in all pages.'),
});

export const schemaIdParamsSchema = z.object({
  schema_id: z.string().describe('The schema_id returned at creation.'),
});
