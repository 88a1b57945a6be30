import type { FileType } from '@schemacheck/engine';
// The product data set's schema, written three ways: the SchemaCheck web-form schema the engine
// parses, and the JSON Schemas ajv gets for the CSV rows (with type coercion) and the JSON records.
// The hand-written checks of the csv-parse peer live in peers/handwritten.ts.

export const COLUMNS = [
  'id',
  'sku',
  'name',
  'price',
  'stock',
  'category',
  'email',
  'url',
  'date',
  'active',
] as const;
export type Column = (typeof COLUMNS)[number];

export const CATEGORIES = ['Electronics', 'Clothing', 'Home & Garden', 'Toys', 'Books'] as const;

export const SKU_PATTERN = '^[A-Z]{3}-\\d{4}$';

/** The schema as the web form's field list (docs/product.md#the-validation-workspace). */
export function webFormSchema(fileType: FileType) {
  return {
    name: `bench products (${fileType})`,
    fileType,
    fields: [
      { name: 'id', type: 'integer', required: true, validation: { minValue: 1 } },
      { name: 'sku', type: 'string', required: true, validation: { pattern: SKU_PATTERN } },
      {
        name: 'name',
        type: 'string',
        required: true,
        validation: { minLength: 2, maxLength: 100 },
      },
      { name: 'price', type: 'number', required: true, validation: { minValue: 0, precision: 2 } },
      { name: 'stock', type: 'integer', required: true, validation: { minValue: 0 } },
      { name: 'category', type: 'enum', required: true, validation: { values: [...CATEGORIES] } },
      { name: 'email', type: 'email', required: true, validation: {} },
      { name: 'url', type: 'url', required: true, validation: {} },
      { name: 'date', type: 'date', required: true, validation: { format: 'YYYY-MM-DD' } },
      { name: 'active', type: 'boolean', required: true, validation: {} },
    ],
  };
}

/**
 * JSON Schema for ajv. The same document serves CSV rows (ajv `coerceTypes: true` turns the
 * cells "12" / "12.50" / "true" into numbers and booleans before the numeric and boolean keywords
 * run) and JSON records (no coercion). `multipleOf: 0.01` needs ajv's `multipleOfPrecision`
 * option, or 12.34 / 0.01 = 1233.9999999999998 is reported as not a multiple.
 * ajv-formats' `uri` accepts any scheme (ftp://x), hence the extra http(s) pattern.
 */
export function ajvSchema() {
  return {
    type: 'object',
    required: [...COLUMNS],
    properties: {
      id: { type: 'integer', minimum: 1 },
      sku: { type: 'string', pattern: SKU_PATTERN },
      name: { type: 'string', minLength: 2, maxLength: 100 },
      price: { type: 'number', minimum: 0, multipleOf: 0.01 },
      stock: { type: 'integer', minimum: 0 },
      category: { type: 'string', enum: [...CATEGORIES] },
      email: { type: 'string', format: 'email' },
      url: { type: 'string', format: 'uri', pattern: '^https?://' },
      date: { type: 'string', format: 'date' },
      active: { type: 'boolean' },
    },
  } as const;
}

/** ajv options shared by both ajv peers (the CSV one adds `coerceTypes: true`). */
export const AJV_OPTIONS = { allErrors: true, multipleOfPrecision: 6 } as const;
