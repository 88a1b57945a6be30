// Regression tests for the readings issue 22 found wrong ("The readings we get wrong today"):
// each case is the issue's own example, validated end to end from schema text to result.
import { describe, expect, it } from 'vitest';
import { parseSchema, parseSchemaText } from '../schema/parse.ts';
import type { SchemaModel, ValidationResult } from '../model.ts';
import { createValidator, validateBytes } from './validator.ts';

const enc = new TextEncoder();

function model(schema: unknown): SchemaModel {
  const parsed = parseSchema(schema);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.value;
}

function json(schema: unknown, data: unknown): ValidationResult {
  return validateBytes(model(schema), enc.encode(JSON.stringify(data)), { fileType: 'json' });
}

function csv(schema: unknown, text: string): ValidationResult {
  return validateBytes(model(schema), enc.encode(text), { fileType: 'csv' });
}

const codes = (r: ValidationResult) => r.errors.map((e) => `${e.row}:${e.field}:${e.code}`);

describe('required inside an optional nested object', () => {
  const schema = {
    type: 'object',
    properties: {
      address: {
        type: 'object',
        required: ['zip'],
        properties: { zip: { type: 'string' }, city: { type: 'string' } },
      },
    },
  };

  it('is enforced when the object is present, also empty', () => {
    expect(codes(json(schema, [{ address: {} }]))).toEqual(['1:address.zip:required']);
    expect(codes(json(schema, [{ address: { city: 'x' } }]))).toEqual(['1:address.zip:required']);
  });

  it('does not apply when the object is absent or null', () => {
    expect(json(schema, [{}, { address: null }]).valid).toBe(true);
  });

  it('holds two levels down, from the nearest optional object', () => {
    const deep = {
      type: 'object',
      properties: {
        a: {
          type: 'object',
          required: ['b'],
          properties: {
            b: { type: 'object', required: ['c'], properties: { c: { type: 'integer' } } },
          },
        },
      },
    };
    expect(codes(json(deep, [{}, { a: {} }, { a: { b: {} } }, { a: { b: { c: 1 } } }]))).toEqual([
      '2:a.b.c:required',
      '3:a.b.c:required',
    ]);
  });

  it('is the same on the fast path and the normal path', () => {
    const bytes = enc.encode(JSON.stringify([{ address: {} }, { address: { zip: '1' } }, {}]));
    const whole = validateBytes(model(schema), bytes, { fileType: 'json' });
    // A byte at a time no record is ever whole in one piece, so the fast path never applies.
    const v = createValidator(model(schema), { fileType: 'json' });
    for (let i = 0; i < bytes.length; i++) v.push(bytes.subarray(i, i + 1));
    expect(codes(v.end())).toEqual(codes(whole));
    expect(codes(whole)).toEqual(['1:address.zip:required']);
  });
});

describe('keywords beside $ref', () => {
  it('add to the target (2020-12)', () => {
    const schema = {
      $defs: { short: { type: 'string', maxLength: 3 } },
      type: 'object',
      properties: {
        s: { $ref: '#/$defs/short', maxLength: 10 },
        t: { $ref: '#/$defs/short', minLength: 2 },
      },
    };
    expect(
      codes(
        json(schema, [
          { s: 'abcdef', t: 'a' },
          { s: 'abc', t: 'ab' },
        ]),
      ),
    ).toEqual(['1:s:max_length', '1:t:min_length']);
  });
});

describe('Table Schema datetime and time', () => {
  const schema = {
    fields: [
      { name: 'at', type: 'datetime' },
      { name: 't', type: 'time' },
    ],
  };
  it('accept no zone, a fraction and Z', () => {
    const r = csv(
      schema,
      'at,t\n2024-01-01T10:00:00,10:00:00.5\n2024-01-01T10:00:00Z,10:00:00Z\n2024-01-01T10:00:00.25+02:00,10:00:00\n',
    );
    expect(r.errors).toEqual([]);
  });
  it('still refuse what is not a time', () => {
    const r = csv(schema, 'at,t\n2024-01-01 10:00:00,10:00:00.\n2024-01-01T10:00:00X,25:00:00\n');
    expect(codes(r)).toEqual(['2:at:type', '2:t:type', '3:at:type', '3:t:type']);
  });
});

describe('JSON Schema type lists and untyped values', () => {
  it('{"type":["string","integer"]} accepts 5 and text, refuses 5.5 and true', () => {
    const schema = {
      type: 'object',
      properties: { v: { type: ['string', 'integer'], maxLength: 2 } },
    };
    const r = json(schema, [
      { v: 5 },
      { v: 'ab' },
      { v: 5.5 },
      { v: true },
      { v: 'abc' },
      { v: 123456 },
    ]);
    expect(codes(r)).toEqual(['3:v:type', '4:v:type', '5:v:max_length']);
    expect(r.errors[0]?.message).toBe('Must be text or a whole number');
    expect(
      parseSchema(schema).ok && (parseSchema(schema) as { warnings: string[] }).warnings,
    ).toEqual([]);
  });

  it('untyped enum/const of numbers compare by value', () => {
    // As text, so that 2^53+1 keeps its digits.
    const parsed = parseSchemaText(
      '{"type": "object", "properties": {"n": {"enum": [1, 2]}, "big": {"const": 9007199254740993}}}',
    );
    if (!parsed.ok) throw new Error('schema');
    const text = '[{"n": 1.0, "big": 9007199254740993.0}, {"n": 3, "big": 9007199254740992}]';
    const r = validateBytes(parsed.value, enc.encode(text), { fileType: 'json' });
    expect(codes(r)).toEqual(['2:n:enum', '2:big:enum']);
  });

  it('untyped enum of true/false reads CSV spellings case-insensitively', () => {
    const schema = { type: 'object', properties: { ok: { const: true } } };
    expect(codes(csv(schema, 'ok\nTRUE\ntrue\nfalse\n'))).toEqual(['4:ok:enum']);
  });

  it('untyped format date warns that non-text values are errors', () => {
    const parsed = parseSchema({ type: 'object', properties: { d: { format: 'date' } } });
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.warnings.join('\n')).toMatch(/has no type.*format 'date'/);
    expect(
      codes(json({ type: 'object', properties: { d: { format: 'date' } } }, [{ d: 5 }])),
    ).toEqual(['1:d:type']);
  });
});

describe('a dotted property name beside the nested property of the same name', () => {
  const schema = {
    type: 'object',
    properties: {
      'a.b': { type: 'integer' },
      a: { type: 'object', properties: { b: { type: 'string' } } },
    },
  };
  it('is not refused: both are checked, told apart by their paths', () => {
    const r = json(schema, [{ 'a.b': 'x', a: { b: 5 } }]);
    expect(r.errors.map((e) => `${e.path}:${e.code}`)).toEqual([
      "$[0]['a.b']:type",
      '$[0].a.b:type',
    ]);
  });
  it('is refused in a CSV schema, where both are the one column a.b', () => {
    const parsed = parseSchema({ ...schema, 'x-schemacheck': { fileType: 'csv' } });
    expect(parsed.ok).toBe(false);
  });
});

describe('unique compares integers and numbers by value', () => {
  const schema = (type: string) => ({
    name: 's',
    fields: [{ name: 'n', type, required: false, validation: { unique: true } }],
  });
  it('in CSV: 1, 01, +1 and 1.0 are one value', () => {
    expect(codes(csv(schema('integer'), 'n\n1\n01\n+1\n2\n-0\n0\n'))).toEqual([
      '3:n:unique',
      '4:n:unique',
      '7:n:unique',
    ]);
    expect(codes(csv(schema('number'), 'n\n1\n1.0\n1e0\n10\n'))).toEqual([
      '3:n:unique',
      '4:n:unique',
    ]);
  });
  it('in JSON the same', () => {
    const text = '[{"n": 1}, {"n": 1.0}, {"n": 1e0}, {"n": 10}]';
    const r = validateBytes(model(schema('number')), enc.encode(text), { fileType: 'json' });
    expect(codes(r)).toEqual(['2:n:unique', '3:n:unique']);
  });
  it('text stays as written', () => {
    expect(csv(schema('string'), 'n\n1\n01\n+1\n').valid).toBe(true);
  });
});
