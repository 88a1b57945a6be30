import { describe, expect, it } from 'vitest';
import { detectSchemaFormat } from './parse.ts';

describe('detectSchemaFormat', () => {
  it.each([
    [
      {
        name: 'x',
        fileType: 'csv',
        fields: [{ name: 'a', type: 'string', required: true, validation: {} }],
      },
      'web',
    ],
    [{ fields: [{ name: 'a', type: 'string', required: false }] }, 'web'],
    [{ fields: [{ name: 'a', type: 'string' }] }, 'web'],
    [{ name: 'x', fileType: 'json' }, 'web'],
    [{ name: 'x', type: 'csv', rules: { columns: [] } }, 'api'],
    [{ $schema: 'https://json-schema.org/draft/2020-12/schema' }, 'jsonschema'],
    [{ type: 'object', properties: {} }, 'jsonschema'],
    [{ properties: { a: { type: 'string' } } }, 'jsonschema'],
    [{ type: 'array', items: { type: 'object' } }, 'jsonschema'],
    [{ fields: [{ name: 'a', type: 'string', constraints: { required: true } }] }, 'tableschema'],
    [{ fields: [{ name: 'a', type: 'datetime' }] }, 'tableschema'],
    [{ fields: [{ name: 'a', type: 'date', format: '%d/%m/%Y' }] }, 'tableschema'],
    [{ fields: [{ name: 'a', type: 'boolean', trueValues: ['Y'] }] }, 'tableschema'],
    [{ fields: [{ name: 'a', type: 'string' }], primaryKey: 'a' }, 'tableschema'],
    [
      { fields: [{ name: 'a', type: 'string', required: true }], missingValues: ['', 'NA'] },
      'tableschema',
    ],
  ])('%j is %s', (input, form) => {
    expect(detectSchemaFormat(input)).toBe(form);
  });

  it.each([null, 'x', 3, [], [{ fields: [] }], {}, { columns: [] }, { type: 'string' }])(
    '%j is no schema form',
    (input) => {
      expect(detectSchemaFormat(input)).toBeUndefined();
    },
  );
});
