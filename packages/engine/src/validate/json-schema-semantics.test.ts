// JSON Schema properties the engine reads since issue 10: no property is ignored without a word,
// and what cannot be checked further is declared (accepted), not reported as unexpected.
import { describe, expect, it } from 'vitest';
import type { SchemaModel } from '../model.ts';
import { parseSchema } from '../schema/parse.ts';
import { validateBytes } from './validator.ts';

function parsed(input: unknown): SchemaModel {
  const checked = parseSchema(input);
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  return checked.value;
}

const run = (schema: SchemaModel, records: unknown[]) =>
  validateBytes(schema, new TextEncoder().encode(JSON.stringify(records)), { fileType: 'json' });
const errors = (schema: SchemaModel, records: unknown[]) =>
  run(schema, records).errors.map((e) => [e.row, e.field, e.code]);

describe('a property without a type', () => {
  it('takes the type from its keywords: minimum checks numbers, and says so', () => {
    const schema = parsed({ type: 'object', properties: { n: { minimum: 1 } } });
    expect(errors(schema, [{ n: 5 }, { n: 0 }])).toEqual([[2, 'n', 'minimum']]);
    expect(schema.warnings?.join()).toContain('checked as a number because of minimum');
  });

  it('minLength makes it text', () => {
    const schema = parsed({ type: 'object', properties: { s: { minLength: 2 } } });
    expect(errors(schema, [{ s: 'ab' }, { s: 'a' }])).toEqual([[2, 's', 'min_length']]);
  });

  it('{} and true accept any value, and required still means present', () => {
    const schema = parsed({
      type: 'object',
      properties: { a: {}, b: true },
      required: ['a'],
    });
    expect(errors(schema, [{ a: 1, b: [1] }, { a: 'x', b: { c: 1 } }, { a: true }])).toEqual([]);
    expect(errors(schema, [{ b: 1 }])).toEqual([[1, 'a', 'required']]);
    expect(schema.warnings).toBeUndefined();
  });
});

describe('declared but not checkable further', () => {
  const schema = parsed({
    type: 'object',
    properties: {
      id: { type: 'integer' },
      tags: { type: 'array', items: { type: 'string' } },
      nothing: { type: 'null' },
    },
    additionalProperties: false,
  });

  it('is not reported as unexpected under additionalProperties: false', () => {
    expect(errors(schema, [{ id: 1, tags: ['a'], nothing: null }])).toEqual([]);
    expect(errors(schema, [{ id: 1, other: 2 }])).toEqual([[1, 'other', 'additional_property']]);
  });

  it('is named in the warnings', () => {
    expect(schema.warnings).toEqual([
      "Property 'tags' is an array, whose items cannot be checked; any value is accepted (at properties.tags)",
      "Property 'nothing' allows only null, which is not checked; any value is accepted (at properties.nothing)",
    ]);
  });

  it.each([{ const: null }, { enum: [null] }])('only null, as %j, warns too', (property) => {
    const s = parsed({ type: 'object', properties: { z: property } });
    expect(s.warnings).toEqual([
      "Property 'z' allows only null, which is not checked; any value is accepted (at properties.z)",
    ]);
    expect(errors(s, [{ z: 'text' }])).toEqual([]);
  });
});

describe('what the model cannot say is warned about', () => {
  it('a property name with a dot', () => {
    const schema = parsed({ type: 'object', properties: { 'a.b': { type: 'integer' } } });
    expect(schema.warnings?.join()).toContain("Property 'a.b' has a dot in its name");
  });

  it('a required object whose properties are all optional', () => {
    const schema = parsed({
      type: 'object',
      properties: { meta: { type: 'object', properties: { x: { type: 'string' } } } },
      required: ['meta'],
    });
    expect(schema.warnings?.join()).toContain(
      "Property 'meta' is required but none of its properties is",
    );
  });

  it('a top-level additionalProperties: false applied to a nested object that says nothing', () => {
    const schema = parsed({
      type: 'object',
      properties: { inner: { type: 'object', properties: { x: { type: 'string' } } } },
      additionalProperties: false,
    });
    expect(schema.warnings?.join()).toContain("also applies to the object 'inner'");
  });
});
