// A schema rule the engine does not check is never dropped silently: the parser warns, the model
// carries the warning, and every validation result repeats it (CLI, server worker, API and web
// all read result.warnings).
import { describe, expect, it } from 'vitest';
import type { SchemaModel } from '../model.ts';
import { parseSchema } from '../schema/parse.ts';
import { validateBytes } from './validator.ts';

const encode = (s: string) => new TextEncoder().encode(s);

function parsed(input: unknown): SchemaModel {
  const checked = parseSchema(input);
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  return checked.value;
}

describe('schema warnings reach every validation result', () => {
  it.each([
    ['oneOf', { oneOf: [{ minimum: 1 }, { maximum: -1 }] }],
    ['anyOf', { anyOf: [{ minimum: 1 }] }],
    ['allOf', { allOf: [{ minimum: 1 }] }],
    ['not', { not: { minimum: 1 } }],
    ['if', { if: { minimum: 1 }, then: { maximum: 5 } }],
    ['multipleOf', { type: 'number', multipleOf: 3 }],
    ['format', { type: 'string', format: 'hostname' }],
  ])('%s', (keyword, property) => {
    const schema = parsed({ type: 'object', properties: { n: { type: 'number', ...property } } });
    const result = validateBytes(schema, encode('[{"n": 2}]'), { fileType: 'json' });
    const schemaWarnings = result.warnings.filter((w) => w.code === 'schema');
    expect(schemaWarnings.length).toBeGreaterThan(0);
    expect(schemaWarnings.map((w) => w.message).join('\n')).toContain(keyword);
  });

  it('an array-typed property is named in the warnings', () => {
    const schema = parsed({
      type: 'object',
      properties: { id: { type: 'integer' }, tags: { type: 'array' } },
    });
    const result = validateBytes(schema, encode('id\n1\n'), { fileType: 'csv' });
    expect(result.warnings).toContainEqual({
      code: 'schema',
      message: expect.stringContaining("'tags' is an array"),
    });
  });

  it('a schema without warnings adds none', () => {
    const schema = parsed({ type: 'object', properties: { n: { type: 'number' } } });
    expect(schema.warnings).toBeUndefined();
    const result = validateBytes(schema, encode('[{"n": 2}]'), { fileType: 'json' });
    expect(result.warnings).toEqual([]);
  });
});
