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
  inList: z
    .string()
    .optional()
    .describe(
      "The name of one of the account's reference lists (/v1/lists): the value must be in it.",
    ),
  severity: z
    .enum(['error', 'warning'])
    .optional()
    .describe(
      "warning: this column's failures are listed and counted apart and never make the file invalid.",
    ),
  message: z
    .string()
    .optional()
    .describe('Replaces the message of each failure; may use {field}, {value} and {other}.'),
};

const CONDITION_OPS = [
  '=',
  '!=',
  'in',
  'notIn',
  'isEmpty',
  'isNotEmpty',
  '>',
  '>=',
  '<',
  '<=',
] as const;
const COMPARE_OPS = ['=', '!=', '>', '>=', '<', '<='] as const;

/**
 * A cross-field rule, the same shape in every schema form (docs/engine.md, "Cross-field rules").
 * Which keys a kind needs is the engine's to check: it refuses a rule with every problem by path.
 */
export const crossFieldRuleSchema = z
  .object({
    kind: z.enum([
      'requiredWhen',
      'emptyWhen',
      'requireOneOf',
      'compare',
      'allowedValuesWhen',
      'sum',
      'uniqueTogether',
    ]),
    field: z
      .string()
      .optional()
      .describe('requiredWhen, emptyWhen, allowedValuesWhen: the dependent field.'),
    when: z
      .object({
        field: z.string(),
        op: z.enum(CONDITION_OPS),
        value: z.union([z.string(), z.array(z.string())]).optional(),
      })
      .optional()
      .describe('The condition on another field of the row.'),
    fields: z.array(z.string()).optional().describe('requireOneOf, sum, uniqueTogether.'),
    min: z.number().int().min(0).optional(),
    max: z.number().int().min(0).optional(),
    left: z.string().optional().describe('compare: the field compared.'),
    op: z.enum(COMPARE_OPS).optional().describe('compare: the operator.'),
    right: z.string().optional().describe('compare: the other field.'),
    value: z.string().optional().describe('compare or sum: a constant instead of another field.'),
    values: z.array(z.string()).optional().describe('allowedValuesWhen: the allowed values.'),
    equals: z.string().optional().describe('sum: the field holding the total.'),
    tolerance: z.string().optional().describe('sum: the difference allowed, as a decimal.'),
    severity: z.enum(['error', 'warning']).optional(),
    message: z.string().optional().describe('A template with {field}, {value}, {other}.'),
  })
  .describe('A cross-field rule: JSON data the engine compiles, never code.');
export type CrossFieldRuleV1 = z.infer<typeof crossFieldRuleSchema>;

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
  rules: z
    .array(crossFieldRuleSchema)
    .optional()
    .describe("Cross-field rules over the columns, in the same shape as the web form's `rules`."),
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
    "Rules of the document that are not checked (code `schema`), and lists named in `inList` that validations will not check: the account has none of that name, or the list is over the plan's limit. Validations with this schema go on without them.",
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
      inList: z.string().optional(),
      severity: z.enum(['error', 'warning']).optional(),
      message: z.string().optional(),
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
    rules: z.array(crossFieldRuleSchema).optional().describe('The cross-field rules, if any.'),
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
