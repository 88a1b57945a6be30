import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldSpec, Issue, SchemaModel } from '../model.ts';
import { FAST_PATH_FIELDS, fieldSpec } from '../../test/fast-path-fields.ts';
import { compileField } from './compile.ts';
import { buildJsonTree } from './json-fields.ts';
import { createQuickRecord } from './json-quick.ts';
import { createValidator } from './validator.ts';

const FIELDS: FieldSpec[] = [
  ...FAST_PATH_FIELDS,
  fieldSpec({ name: 'address.zip', required: true, rules: { pattern: '^\\d{3}$' } }),
  fieldSpec({ name: 'address.city' }),
];

function schema(additionalProperties: boolean, objects = false): SchemaModel {
  const model: SchemaModel = {
    name: 'quick',
    fields: FIELDS,
    orderMatters: false,
    additionalColumns: true,
    additionalProperties,
  };
  if (!objects) return model;
  // A property named with a dot, a required object with nothing required in it, and an address
  // whose own additionalProperties is the opposite of the record's.
  return {
    ...model,
    fields: [...FIELDS, fieldSpec({ name: 'a.b', path: ['a.b'], rules: { minLength: 1 } })],
    objects: [
      { path: ['address'], additionalProperties: !additionalProperties },
      { path: ['meta'], required: true },
    ],
  };
}

function quick(additionalProperties = true) {
  const fields = FIELDS.map((f) => compileField(f));
  return createQuickRecord(buildJsonTree(schema(additionalProperties), fields), () => true);
}

const clean = '{"id": 7, "name": "Ann", "address": {"zip": "123"}}';

describe('the JSON fast path on its own', () => {
  it('says where a clean record ends', () => {
    const text = `[${clean}, {"id": 8}]`;
    expect(quick()(text, 1, text.length, 1, false, true)).toBe(1 + clean.length);
  });

  it('gives up on every record with something to report, and on what it does not handle', () => {
    const check = quick();
    for (const record of [
      '{"id": 0, "name": "Ann", "address": {"zip": "123"}}', // below minValue
      '{"id": "7", "name": "Ann", "address": {"zip": "123"}}', // a string for an integer
      '{"name": "Ann", "address": {"zip": "123"}}', // required id missing
      '{"id": null, "name": "Ann", "address": {"zip": "123"}}', // null is missing
      '{"id": 7, "name": "Ann", "address": {}}', // nested required missing
      '{"id": 7, "name": "Ann", "address": "x"}', // not an object
      '{"id": 7, "id": 8, "name": "Ann", "address": {"zip": "123"}}', // duplicate key
      '{"i\\u0064": 7, "name": "Ann", "address": {"zip": "123"}}', // an escaped key
      '{"id": 7, "name": "\\u0041", "address": {"zip": "123"}}', // too short once unescaped
      '{"id": 7, "name": "A\\xn", "address": {"zip": "123"}}', // not an escape
      '{"id": 7, "name": "A\\u00g1", "address": {"zip": "123"}}', // not hex
      '{"id": 7e0, "name": "Ann", "address": {"zip": "123"}}', // an exponent
      '{"id": 9007199254740993, "name": "Ann", "address": {"zip": "123"}}', // a long number
      '{"id": 7, "name": "Ann", "address": {"zip": "123"},}', // trailing comma
      '{"id": 07, "name": "Ann", "address": {"zip": "123"}}', // leading zero
      '{"id": 7, "name": "An\tn", "address": {"zip": "123"}}', // raw tab in a string
      '{"id": 7, "name": "Ann", "address": {"zip": "123"}, "x": [1, }', // broken unknown value
      '{"id": 7, "name": "Ann", "address": {"zip": "123"}', // not closed
      '{"id": 7, "name": "Ann", "address": {"zip": "123"}, "x": 2e}', // exponent without digits
      '{"id": 7, "name": "Ann", "address": {"zip": "123"}, "x": 1.}', // fraction without digits
      '{"id": 7, "name": "Ann", "address": {"zip": "123"}, "x": tru}', // cut literal
    ]) {
      expect(check(record, 0, record.length, 1, false, true), record).toBe(-1);
    }
  });

  it('gives up on a raw control character in a string when the text may hold one', () => {
    const record = '{"id": 7, "name": "An\u0001n", "address": {"zip": "123"}}';
    expect(quick()(record, 0, record.length, 1, false, true)).toBe(-1);
  });

  it('reads escaped values as JSON.parse does', () => {
    const record = '{"id": 7, "name": "\\"A\\u006e\\/", "address": {"zip": "\\u0031\\u00323"}}';
    expect(quick()(record, 0, record.length, 1, false, true)).toBe(record.length);
  });

  it('reports an undescribed property only when the schema is strict', () => {
    const record = '{"id": 7, "name": "Ann", "address": {"zip": "123"}, "note": [1, {"a": null}]}';
    expect(quick(true)(record, 0, record.length, 1, false, true)).toBe(record.length);
    expect(quick(false)(record, 0, record.length, 1, false, true)).toBe(-1);
  });

  it('on a line, needs only blanks after the record up to the line end', () => {
    const check = quick();
    const text = `${clean} \r\n{"id": 1}`;
    expect(check(text, 0, clean.length + 2, 1, true, true)).toBe(clean.length);
    const trailing = `${clean} x\n`;
    expect(check(trailing, 0, trailing.length - 1, 1, true, true)).toBe(-1);
    // A record that goes on past its line is not read from the next one.
    const split = '{"id": 7, "name": "Ann",\n"address": {"zip": "123"}}';
    expect(check(split, 0, split.indexOf('\n'), 1, true, true)).toBe(-1);
  });
});

// The fast path only ever answers "clean": a whole-file push (records complete in a piece, so it
// takes them) and a push a byte at a time (records never complete in a piece, so every one goes
// the normal way) must give the same result, issue for issue.

const values = fc.oneof(
  fc.constantFrom(
    '7',
    '0',
    '-3',
    '12.30',
    '12.345',
    '-0',
    '0.1',
    '1.005',
    '1e2',
    '1E-2',
    '9007199254740993',
    '123456789012345',
    '1234567890123456',
    '1.',
    '01',
    '-',
    '.5',
    '1.e2',
    '2e',
    'tru',
    'nul',
    'true',
    'false',
    'null',
    '"Ann"',
    '""',
    '"A"',
    '"123"',
    '"12a"',
    '"1"',
    '"a"',
    '"c"',
    '"\\u0041nn"',
    '"An\\"n"',
    '"é😀"',
    '"x\ty"',
    '"x\ty\\n"',
    '"\\u00e9\\uD83D\\uDE00"',
    '"bad \\x"',
    '"\\u12"',
    '"A\\u0042"',
    '"1\\u00323"',
    '{}',
    '{"zip": "123"}',
    '{"zip": "123", "x": 1}',
    '{"b": "x"}',
    '{"zip": "123", "city": "Oslo"}',
    '{"zip": 123}',
    '{"city": "Oslo"}',
    '[1, "2"]',
    '{"deep": {"deeper": [[[]]]}}',
  ),
  fc.json({ maxDepth: 2 }),
);

const keys = fc.constantFrom(
  'id',
  'name',
  'price',
  'active',
  'tag',
  'code',
  'ref',
  'address',
  'extra',
  'na\\u006de',
  '__proto__',
  'meta',
  'a.b',
  'a',
);

/** A clean record's properties; each record below changes up to two of them. */
const CLEAN: [string, string][] = [
  ['id', '7'],
  ['name', '"Ann"'],
  ['price', '12.30'],
  ['active', 'true'],
  ['tag', '"a"'],
  ['address', '{"zip": "123", "city": "Oslo"}'],
];

const change = fc.tuple(fc.nat(), keys, values, fc.constantFrom('set', 'add', 'drop'));

/** Clean for the schema with objects. */
const CLEAN_WITH_OBJECTS: [string, string][] = [...CLEAN, ['meta', '{}'], ['a.b', '"x"']];

const record = (clean: [string, string][]) =>
  fc
    .tuple(fc.array(change, { maxLength: 2 }), fc.constantFrom('', ' ', '\n  '), fc.nat())
    .map(([changes, space, seed]) => {
      const pairs = clean.map(([k, v]) => [k, v] as [string, string]);
      for (const [at, key, value, how] of changes) {
        const i = at % pairs.length;
        if (how === 'set') pairs[i]![1] = value;
        else if (how === 'add') pairs.splice(i, 0, [key, value]);
        else if (pairs.length > 1) pairs.splice(i, 1);
      }
      const body = pairs.map(([k, v]) => `${space}"${k}":${space}${v}`).join(',');
      const text = `{${body}}`;
      // Now and then one character goes missing or is added: the syntax must be as strict as JSON.parse.
      if (seed % 9 === 0) {
        const at = seed % text.length;
        return text.slice(0, at) + text.slice(at + 1);
      }
      if (seed % 9 === 1) {
        const at = seed % text.length;
        return text.slice(0, at) + ',:]"x0.'[seed % 7] + text.slice(at);
      }
      return text;
    });

function validate(
  text: string,
  additionalProperties: boolean,
  byteByByte: boolean,
  objects = false,
) {
  const issues: Issue[] = [];
  const validator = createValidator(schema(additionalProperties, objects), {
    fileType: 'json',
    onIssue: (issue) => issues.push(issue),
  });
  const bytes = new TextEncoder().encode(text);
  if (byteByByte) for (let i = 0; i < bytes.length; i++) validator.push(bytes.subarray(i, i + 1));
  else validator.push(bytes);
  const result = validator.end();
  return { ...result, issues };
}

describe('the JSON fast path and the normal path', () => {
  it('give the same results, for arrays and NDJSON, strict or not', () => {
    fc.assert(
      fc.property(
        fc.array(record(CLEAN), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.boolean(),
        (records, ndjson, additionalProperties) => {
          const text = ndjson ? records.join('\n') : `[${records.join(',\n')}]`;
          expect(validate(text, additionalProperties, false)).toEqual(
            validate(text, additionalProperties, true),
          );
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('give the same results with per-object settings, required objects and dotted names', () => {
    fc.assert(
      fc.property(
        fc.array(record(CLEAN_WITH_OBJECTS), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.boolean(),
        (records, ndjson, additionalProperties) => {
          const text = ndjson ? records.join('\n') : `[${records.join(',\n')}]`;
          expect(validate(text, additionalProperties, false, true)).toEqual(
            validate(text, additionalProperties, true, true),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('count a repeated unique value once, whichever path read each row', () => {
    const rows = [
      '{"id": 1, "name": "Ann", "address": {"zip": "123"}, "code": "x", "ref": "r1"}',
      // Clean but for the second unique field: the fast path checks `code`, then gives up.
      '{"id": 2, "name": "Bob", "address": {"zip": "123"}, "code": "y", "ref": "r1"}',
      '{"id": 3, "name": "Cy", "address": {"zip": "123"}, "code": "y", "ref": "r3"}',
    ];
    const result = validate(rows.join('\n'), true, false);
    expect(result.issues.map((i) => `${i.row} ${i.field} ${i.code} ${i.message}`)).toEqual([
      '2 ref unique Duplicate value; first seen in row 1',
      '3 code unique Duplicate value; first seen in row 2',
    ]);
  });

  it('do not carry what was found in one piece over to an equal next piece', () => {
    // 64-byte lines: every 64 KiB piece of the file is the same text, with an escape on each line.
    const line = '{"id": 7, "name": "A\\u0041", "address": {"zip": "123"}}';
    const padded = line.padEnd(63) + '\n';
    const text = padded.repeat(3 * 1024);
    const fourOrMore: SchemaModel = {
      ...schema(true),
      fields: [fieldSpec({ name: 'name', required: true, rules: { minLength: 4 } })],
    };
    const validator = createValidator(fourOrMore, { fileType: 'json' });
    validator.push(new TextEncoder().encode(text));
    // `AA` is two characters (its text, seven): every row is short, whichever piece it is in.
    expect(validator.end().errorCount).toBe(3 * 1024);
  });
});
