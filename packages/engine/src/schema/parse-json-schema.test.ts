import { describe, expect, it } from 'vitest';
import type { Checked, SchemaModel } from '../model.ts';
import { parseSchema, parseSchemaText } from './parse.ts';

function ok(checked: Checked<SchemaModel>): { value: SchemaModel; warnings: string[] } {
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  return checked;
}

const userSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'User API',
  type: 'object',
  properties: {
    id: { type: 'integer', minimum: 1 },
    email: { type: 'string', format: 'email' },
    name: { type: 'string', minLength: 2, maxLength: 100 },
    role: { enum: ['admin', 'member', 'viewer'] },
    website: { type: ['string', 'null'], format: 'uri' },
    created_at: { type: 'string', format: 'date-time' },
    birthday: { type: 'string', format: 'date' },
    score: { type: 'number', exclusiveMinimum: 0, maximum: 100, multipleOf: 0.01 },
    active: { type: 'boolean' },
    code: { type: 'string', pattern: '^[A-Z]{3}$' },
    plan: { type: 'string', const: 'pro' },
    address: {
      type: 'object',
      properties: { zip: { type: 'string', pattern: '^\\d{5}$' }, city: { type: 'string' } },
      required: ['zip'],
    },
  },
  required: ['id', 'email', 'name', 'role', 'website', 'created_at', 'address'],
  additionalProperties: false,
};

describe('JSON Schema', () => {
  it('normalises a record schema', () => {
    const { value, warnings } = ok(parseSchema(userSchema));
    expect(warnings).toEqual([]);
    expect({ ...value, warnings: undefined }).toEqual({
      name: 'User API',
      orderMatters: false,
      additionalColumns: true,
      additionalProperties: false,
      fields: [
        { name: 'id', type: 'integer', required: true, rules: { minValue: '1' } },
        { name: 'email', type: 'email', required: true, rules: {} },
        { name: 'name', type: 'string', required: true, rules: { minLength: 2, maxLength: 100 } },
        {
          name: 'role',
          type: 'enum',
          required: true,
          rules: { values: ['admin', 'member', 'viewer'] },
        },
        { name: 'website', type: 'url', required: false, rules: {} },
        {
          name: 'created_at',
          type: 'date',
          required: true,
          rules: { format: 'YYYY-MM-DDTHH:mm:ssZ' },
        },
        { name: 'birthday', type: 'date', required: false, rules: { format: 'YYYY-MM-DD' } },
        {
          name: 'score',
          type: 'number',
          required: false,
          rules: { exclusiveMinimum: '0', maxValue: '100', precision: 2 },
        },
        {
          name: 'active',
          type: 'boolean',
          required: false,
          rules: { truthy: ['true', '1', 'yes', 'on'], falsy: ['false', '0', 'no', 'off'] },
        },
        { name: 'code', type: 'string', required: false, rules: { pattern: '^[A-Z]{3}$' } },
        { name: 'plan', type: 'string', required: false, rules: { values: ['pro'] } },
        { name: 'address.zip', type: 'string', required: true, rules: { pattern: '^\\d{5}$' } },
        { name: 'address.city', type: 'string', required: false, rules: {} },
      ],
      // The top-level false is the record's: address says nothing, so it allows extra properties.
      objects: [{ path: ['address'], additionalProperties: true }],
    });
  });

  it('reads an array of records through items', () => {
    const { value } = ok(
      parseSchema({
        type: 'array',
        items: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
      }),
    );
    expect(value.fields).toEqual([{ name: 'a', type: 'string', required: true, rules: {} }]);
  });

  it('makes a nested field required whenever its optional object is present', () => {
    const { value } = ok(
      parseSchema({
        type: 'object',
        properties: {
          billing: { type: 'object', properties: { zip: { type: 'string' } }, required: ['zip'] },
        },
      }),
    );
    // Required within `billing` (one name deep): enforced when billing is there, even empty.
    expect(value.fields[0]).toMatchObject({
      name: 'billing.zip',
      required: true,
      requiredWithin: 1,
    });
  });

  it('reads a null in the type or the enum as "not required"', () => {
    const { value } = ok(
      parseSchema({
        type: 'object',
        properties: {
          a: { type: ['integer', 'null'] },
          b: { enum: ['x', 'y', null] },
          c: { type: 'string', nullable: true },
        },
        required: ['a', 'b', 'c'],
      }),
    );
    expect(value.fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ['a', 'integer', false],
      ['b', 'enum', false],
      ['c', 'string', false],
    ]);
  });

  it('writes typed enum values as text, as the cells are compared', () => {
    const { value } = ok(
      parseSchema({
        type: 'object',
        properties: { n: { type: 'integer', enum: [1, 2, 30] }, b: { enum: [true, false] } },
      }),
    );
    expect(value.fields[0]?.rules.values).toEqual(['1', '2', '30']);
    expect(value.fields[1]?.rules.values).toEqual(['true', 'false']);
  });

  it('follows $ref inside the schema', () => {
    const { value } = ok(
      parseSchema({
        type: 'object',
        $defs: { code: { type: 'string', pattern: '^[A-Z]+$' } },
        properties: { a: { $ref: '#/$defs/code' }, b: { $ref: '#/$defs/code', maxLength: 3 } },
      }),
    );
    expect(value.fields.map((f) => f.rules)).toEqual([
      { pattern: '^[A-Z]+$' },
      { pattern: '^[A-Z]+$', maxLength: 3 },
    ]);
  });

  it('reads draft-04 exclusiveMinimum: true as an exclusive minimum', () => {
    const { value } = ok(
      parseSchema({
        type: 'object',
        properties: { a: { type: 'number', minimum: 5, exclusiveMinimum: true } },
      }),
    );
    expect(value.fields[0]?.rules).toEqual({ exclusiveMinimum: '5' });
  });

  it('warns, never refuses, on keywords it cannot express', () => {
    const { value, warnings } = ok(
      parseSchema({
        type: 'object',
        properties: {
          x: { type: 'string', oneOf: [{ maxLength: 1 }] },
          tags: { type: 'array', items: { type: 'string' } },
          meta: { type: 'object' },
          id: { type: 'string', format: 'uuid' },
          anything: {},
        },
        patternProperties: { '^x': {} },
      }),
    );
    // Declared but not checkable further: kept, any value accepted (never reported as unexpected).
    expect(value.fields.map((f) => [f.name, f.anyValue ?? false])).toEqual([
      ['x', false],
      ['tags', true],
      ['meta', true],
      ['id', false],
      ['anything', true],
    ]);
    expect(warnings).toEqual([
      "Keyword 'patternProperties' is not supported and was ignored at patternProperties",
      "Keyword 'oneOf' is not supported and was ignored at properties.x.oneOf",
      "Property 'tags' is an array, whose items cannot be checked; any value is accepted (at properties.tags)",
      "Property 'meta' is an object without properties, whose contents cannot be checked; any value is accepted (at properties.meta)",
      "Format 'uuid' is not supported and was ignored at properties.id.format",
    ]);
  });

  it('ignores a rule of another type with a warning named as written', () => {
    const { warnings } = ok(
      parseSchema({ type: 'object', properties: { s: { type: 'string', minimum: 3 } } }),
    );
    expect(warnings).toEqual([
      'minimum applies to integer and number fields only and was ignored at properties.s.minimum',
    ]);
  });

  it('refuses what it cannot follow, with paths', () => {
    expect(
      parseSchema({
        type: 'object',
        properties: {
          a: { type: 'strng' },
          b: { $ref: 'https://example.com/s.json' },
          c: { type: 'string', pattern: '(?<=x)y' },
          d: { type: 'integer', minimum: 10, maximum: 5 },
          e: { $ref: '#/$defs/missing' },
        },
      }),
    ).toEqual({
      ok: false,
      problems: [
        {
          path: 'properties.a.type',
          message:
            "Unknown type 'strng'. Use one of: string, integer, number, boolean, object, array, null",
        },
        {
          path: 'properties.b.$ref',
          message:
            'The $ref "https://example.com/s.json" cannot be followed; only references inside this schema (like #/$defs/name) are supported',
        },
        { path: 'properties.c.pattern', message: 'Lookbehind (?<=...) is not supported' },
        {
          path: 'properties.d.minimum',
          message: 'minimum (10) is greater than maximum (5), so no value could pass',
        },
        {
          path: 'properties.e.$ref',
          message: "The $ref '#/$defs/missing' does not point to a schema object in this file",
        },
      ],
    });
  });

  it('refuses a recursive $ref', () => {
    const checked = parseSchema({
      type: 'object',
      $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } } } },
      properties: { root: { $ref: '#/$defs/node' } },
    });
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.problems[0]?.message).toMatch(/refers back to itself/);
  });

  it('refuses a schema that is neither a record nor a list of records', () => {
    expect(parseSchema({ type: 'string' }, 'jsonschema')).toEqual({
      ok: false,
      problems: [
        {
          path: '',
          message:
            'This JSON Schema must describe a record (type "object" with properties) or a list of records (type "array" with items)',
        },
      ],
    });
  });

  it('keeps big bounds exact when read from text', () => {
    const { value } = ok(
      parseSchemaText(
        '{"type":"object","properties":{"n":{"type":"integer","maximum":18446744073709551616}}}',
      ),
    );
    expect(value.fields[0]?.rules.maxValue).toBe('18446744073709551616');
  });
});
