// The fields both fast-path tests (validate/csv-quick.test.ts, validate/json-quick.test.ts) check:
// one of each type and rule the fast paths hand to compiled checks, two of them unique.
import type { FieldSpec } from '../src/model.ts';

export const fieldSpec = (spec: Partial<FieldSpec> & { name: string }): FieldSpec => ({
  type: 'string',
  required: false,
  rules: {},
  ...spec,
});

export const FAST_PATH_FIELDS: FieldSpec[] = [
  fieldSpec({ name: 'id', type: 'integer', required: true, rules: { minValue: '1' } }),
  fieldSpec({ name: 'name', required: true, rules: { minLength: 2, maxLength: 6 } }),
  fieldSpec({ name: 'price', type: 'number', rules: { minValue: '0', precision: 2 } }),
  fieldSpec({ name: 'active', type: 'boolean' }),
  fieldSpec({ name: 'tag', type: 'enum', rules: { values: ['a', 'b', '1'] } }),
  fieldSpec({ name: 'code', rules: { unique: true } }),
  fieldSpec({ name: 'ref', rules: { unique: true } }),
];
