// JSON Schema properties the engine reads since issue 10: no property is ignored without a word,
// and what cannot be checked further is declared (accepted), not reported as unexpected.
import { describe, expect, it } from 'vitest';
import type { SchemaModel } from '../model.ts';
import { exportSchema } from '../schema/export/index.ts';
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

describe('a required object whose own properties are all optional', () => {
  const schema = parsed({
    type: 'object',
    properties: { meta: { type: 'object', properties: { a: {} } } },
    required: ['meta'],
  });

  it('must be present, and be an object', () => {
    expect(schema.warnings).toBeUndefined();
    expect(
      errors(schema, [{}, { meta: null }, { meta: 5 }, { meta: {} }, { meta: { a: 1 } }]),
    ).toEqual([
      [1, 'meta', 'required'],
      [2, 'meta', 'required'],
      [3, 'meta', 'type'],
    ]);
    expect(run(schema, [{}]).errors[0]?.path).toBe('$[0].meta');
  });

  it('also with no properties at all, and inside another required object', () => {
    const s = parsed({
      type: 'object',
      properties: {
        id: { type: 'integer' },
        outer: {
          type: 'object',
          properties: { inner: { type: 'object', properties: {} } },
          required: ['inner'],
        },
      },
      required: ['outer'],
    });
    expect(
      errors(s, [{ outer: { inner: {} } }, { outer: {} }, { outer: { inner: [] } }, {}]),
    ).toEqual([
      [2, 'outer.inner', 'required'],
      [3, 'outer.inner', 'type'],
      [4, 'outer.inner', 'required'],
    ]);
  });

  it('an optional object is not required', () => {
    const s = parsed({
      type: 'object',
      properties: { meta: { type: 'object', properties: { a: {} } } },
    });
    expect(errors(s, [{}, { meta: null }])).toEqual([]);
  });
});

describe('additionalProperties belongs to the object that says it', () => {
  it('the top-level false does not reach a nested object that says nothing', () => {
    const schema = parsed({
      type: 'object',
      properties: { inner: { type: 'object', properties: { x: { type: 'string' } } } },
      additionalProperties: false,
    });
    expect(schema.warnings).toBeUndefined();
    expect(errors(schema, [{ inner: { x: 'a', y: 1 } }, { inner: {}, other: 1 }])).toEqual([
      [2, 'other', 'additional_property'],
    ]);
  });

  it("a nested object's own false applies to it, not to the record", () => {
    const schema = parsed({
      type: 'object',
      properties: {
        inner: {
          type: 'object',
          properties: { x: { type: 'string' } },
          additionalProperties: false,
        },
      },
    });
    expect(schema.warnings).toBeUndefined();
    expect(errors(schema, [{ inner: { x: 'a' }, other: 1 }, { inner: { x: 'a', y: 1 } }])).toEqual([
      [2, 'inner.y', 'additional_property'],
    ]);
    expect(run(schema, [{ inner: { y: 1 } }]).errors[0]?.path).toBe('$[0].inner.y');
  });

  it('export and import keep each level as it was', () => {
    const schema = parsed({
      type: 'object',
      properties: {
        open: { type: 'object', properties: { x: { type: 'string' } } },
        closed: {
          type: 'object',
          properties: { y: { type: 'string' } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    });
    const exported = exportSchema(schema, 'jsonschema') as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(exported.properties.open?.additionalProperties).toBeUndefined();
    expect(exported.properties.closed?.additionalProperties).toBe(false);
    expect(parsed(exported)).toEqual(schema);
  });
});

describe('a property name with a dot is that one property', () => {
  const schema = parsed({
    type: 'object',
    properties: {
      'a.b': { type: 'string' },
      a: { type: 'object', properties: { 'c.d': { type: 'integer' } } },
    },
    required: ['a.b'],
    additionalProperties: false,
  });

  it('is checked under its own name, not as nesting', () => {
    expect(schema.warnings).toBeUndefined();
    const result = run(schema, [
      { 'a.b': 5 },
      { 'a.b': 'x', a: { 'c.d': 'no' } },
      { a: { b: 'x' } },
    ]);
    expect(result.errors.map((e) => [e.row, e.field, e.code, e.path])).toEqual([
      [1, 'a.b', 'type', "$[0]['a.b']"],
      [2, 'a.c.d', 'type', "$[1].a['c.d']"],
      [3, 'a.b', 'required', "$[2]['a.b']"],
    ]);
  });

  it('and is not unexpected where it is declared', () => {
    expect(errors(schema, [{ 'a.b': 'x', a: { 'c.d': 1 } }])).toEqual([]);
  });

  it('keeps its name through export and import', () => {
    const exported = exportSchema(schema, 'jsonschema') as { properties: Record<string, unknown> };
    expect(Object.keys(exported.properties)).toEqual(['a.b', 'a']);
    expect(parsed(exported)).toEqual(schema);
  });
});
