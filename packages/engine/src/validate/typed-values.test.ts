// Allowed values (enum/const) are compared the way the field reads its values: booleans by their
// reading, numbers by their value (exactly, beyond 2^53 too).
import { describe, expect, it } from 'vitest';
import type { SchemaModel } from '../model.ts';
import { parseSchema, parseSchemaText } from '../schema/parse.ts';
import { validateBytes } from './validator.ts';
import type { FileType } from '../model.ts';

const encode = (s: string) => new TextEncoder().encode(s);

function parsed(input: unknown): SchemaModel {
  const checked = parseSchema(input);
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  return checked.value;
}

const codes = (schema: SchemaModel, text: string, fileType: FileType) =>
  validateBytes(schema, encode(text), { fileType }).errors.map((e) => [e.row, e.code]);

describe('boolean enum/const', () => {
  const table = parsed({
    fields: [{ name: 'b', type: 'boolean', constraints: { enum: [true] } }],
  });

  it('accepts every spelling the field reads as true, in any case', () => {
    // Table Schema's default trueValues: true, True, TRUE, 1.
    expect(codes(table, 'b\nTRUE\n1\ntrue\nTrue\n', 'csv')).toEqual([]);
  });

  it('rejects the spellings of false with an enum error', () => {
    expect(codes(table, 'b\nfalse\n0\n', 'csv')).toEqual([
      [2, 'enum'],
      [3, 'enum'],
    ]);
  });

  it('JSON Schema const false on a boolean property compares JSON booleans', () => {
    const schema = parsed({
      type: 'object',
      properties: { b: { type: 'boolean', const: false } },
    });
    expect(codes(schema, '[{"b": false}, {"b": true}]', 'json')).toEqual([[2, 'enum']]);
  });
});

describe('numeric enum/const', () => {
  it('integers beyond 2^53 compare as numbers, not as written digits', () => {
    // As text: a JavaScript literal would already have rounded the constant.
    const checked = parseSchemaText(
      '{"type": "object", "properties": {"n": {"type": "integer", "const": 9007199254740993}}}',
    );
    if (!checked.ok) throw new Error('refused');
    const schema = checked.value;
    expect(
      codes(
        schema,
        '[{"n": 9007199254740993.0}, {"n": 9007199254740993}, {"n": 9007199254740992}]',
        'json',
      ),
    ).toEqual([[3, 'enum']]);
  });

  it('1.0 and 1 are the same number in a CSV cell', () => {
    const schema = parsed({
      type: 'object',
      properties: { n: { type: 'number', enum: [1, 2.5] } },
    });
    expect(codes(schema, 'n\n1.0\n2.50\n3\n', 'csv')).toEqual([[4, 'enum']]);
  });
});
