// Cross-field rules where records are taken whole, on the byte core (json-bytes.ts) and on the
// text fast path (json-quick.ts): for generated schemas with rules and records whose values are
// written in many JSON spellings (escapes, trailing zeros, -0, tiny and long numbers, "", null,
// wrong types, text other than ASCII before them, nested objects present, empty, null or absent),
// the issues must be those of the normal path. The same records are validated a second time with
// the first key of each written with an escape, which neither fast path reads, so that every
// record then goes through JSON.parse. Both fast paths' takes are counted, so the test cannot
// pass with either off.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { SchemaModel } from '../model.ts';
import { parseSchema } from '../schema/parse.ts';
import { taken as core } from '../../test/counting-core.ts';
import { validateOutcome } from '../../test/outcome.ts';
import type * as JsonQuick from './json-quick.ts';

const taken = vi.hoisted(() => ({ records: 0 }));

vi.mock('../bytecore/load.ts', async (original) =>
  (await import('../../test/counting-core.ts')).countingLoad(original),
);

vi.mock('./json-quick.ts', async (importOriginal) => {
  const original = await importOriginal<typeof JsonQuick>();
  return {
    ...original,
    createQuickRecord: (...args: Parameters<typeof original.createQuickRecord>) => {
      const quick = original.createQuickRecord(...args);
      if (quick === undefined) return undefined;
      return (...call: Parameters<typeof quick>) => {
        const end = quick(...call);
        if (end >= 0) taken.records++;
        return end;
      };
    },
  };
});

/**
 * Each property and the JSON texts its value is written as (undefined: left out): plain values
 * the byte core reads, other values the field accepts (escapes, null, "", numbers the core leaves
 * to JavaScript), and values it reports. Plain values are drawn most often, so that many records
 * reach the rules on the core.
 */
const VALUES: Record<string, [(string | undefined)[], (string | undefined)[], string[]]> = {
  // A property the schema does not describe, first: text other than ASCII before the values the
  // rules read moves where they lie in the decoded text (a four-byte character is two units).
  z: [['"é"', '"😀x"', '"ab"', undefined], ['{"k": "ü😀"}', '[1, "é"]'], ['"é"']],
  i: [
    ['1', '2', '0', '10', '-0', undefined],
    ['null'],
    ['1.0', '1e0', '"1"', '123456789012345678'],
  ],
  n: [
    ['1.50', '1.5', '0.3', '0.1', '0.2', '-2.5', '0.000001', '2', '-0.0', undefined],
    ['1e-7', 'null', '0.0000001'],
    ['"2"', 'true'],
  ],
  s: [
    ['"DE"', '"FR"', '"de"', '"US"', '"Dé"', '"😀"', undefined],
    ['"D\\u0045"', '""', '"a\\nb"', 'null'],
    ['5'],
  ],
  t: [['"DE"', '"FR"', '"é"', undefined], ['""', 'null', '"\\/"'], ['"xyz"']],
  b: [['true', 'false', undefined], ['null'], ['"true"']],
  e: [
    ['"DE"', '"FR"', '"US"', undefined],
    ['"F\\u0052"', 'null'],
    ['"de"', '1'],
  ],
  d: [
    ['"2024-01-01"', '"2024-06-30"', '"2023-12-31"', undefined],
    ['null'],
    ['"2024-02-30"', '""'],
  ],
  o: [
    [
      '{"x": "DE", "m": 1.5}',
      '{"x": "FR", "m": 2}',
      '{"m": 3}',
      '{"x": "Dé", "m": 0.10}',
      undefined,
    ],
    ['{"x": "", "m": 0.10}', '{}', 'null'],
    ['"o"', '{"x": 1}'],
  ],
  // A property of any type (JSON Schema's `{}`): rules read each scalar's text, a number's as
  // JavaScript writes it. The byte core does not read it (a record holding it stops the core).
  a: [
    [undefined],
    ['1.50', '1.5', '"1.5"', 'true', '"true"', '-0', '0', '""', 'null'],
    ['[1]', '{}'],
  ],
};

const FIELDS = [
  { name: 'id', type: 'integer', required: true, validation: {} },
  { name: 'i', type: 'integer', required: false, validation: {} },
  { name: 'n', type: 'number', required: false, validation: {} },
  { name: 's', type: 'string', required: false, validation: {} },
  { name: 't', type: 'string', required: false, validation: { maxLength: 2 } },
  { name: 'b', type: 'boolean', required: false, validation: {} },
  { name: 'e', type: 'enum', required: false, validation: { values: ['DE', 'FR', 'US'] } },
  { name: 'd', type: 'date', required: false, validation: { format: 'YYYY-MM-DD' } },
  { name: 'o.x', type: 'string', required: false, validation: {} },
  { name: 'o.m', type: 'number', required: false, validation: {} },
  { name: 'a', type: 'string', required: false, validation: {} },
];

const RULES: object[] = [
  { kind: 'requiredWhen', field: 't', when: { field: 's', op: 'in', value: ['DE', 'FR'] } },
  { kind: 'emptyWhen', field: 'd', when: { field: 'b', op: '=', value: 'false' } },
  { kind: 'requireOneOf', fields: ['s', 'o.x'], min: 1 },
  { kind: 'compare', left: 'n', op: '>=', right: 'o.m' },
  { kind: 'compare', left: 'i', op: '<', value: '10' },
  { kind: 'compare', left: 'd', op: '>', value: '2024-01-01' },
  {
    kind: 'allowedValuesWhen',
    field: 'e',
    when: { field: 's', op: '=', value: 'DE' },
    values: ['DE'],
  },
  { kind: 'sum', fields: ['i', 'n'], equals: 'o.m', tolerance: '0.5' },
  { kind: 'uniqueTogether', fields: ['s', 'e'] },
  { kind: 'uniqueTogether', fields: ['i', 'b'], severity: 'warning' },
  { kind: 'emptyWhen', field: 't', when: { field: 'b', op: '=', value: 'true' } },
  { kind: 'uniqueTogether', fields: ['a', 'e'] },
  // Rules the byte core leaves to JavaScript (bytecore/rule-ops.ts), on the values it hands over:
  // a condition on text order, a boolean compared.
  { kind: 'requiredWhen', field: 'd', when: { field: 's', op: '>', value: 'E' } },
  { kind: 'emptyWhen', field: 'o.x', when: { field: 't', op: '<=', value: 'F' } },
  { kind: 'compare', left: 'b', op: '=', value: 'true' },
  { kind: 'compare', left: 'a', op: '=', value: '1.5' },
  {
    kind: 'requiredWhen',
    field: 'o.x',
    when: { field: 'n', op: '>', value: '1' },
    message: '{field} after {other}',
  },
];

/** Another spelling of the same value (for each path's reading), where there is one. */
const RESPELT: Record<string, string> = {
  '1.50': '1.5',
  '1.5': '"1.5"',
  '"1.5"': '1.50',
  '-0': '0',
  '0': '-0',
  '2': '2.0',
  '"DE"': '"D\\u0045"',
  '"D\\u0045"': '"DE"',
  '"FR"': '"F\\u0052"',
  '"F\\u0052"': '"FR"',
  true: '"true"',
};
const respelt = (value: string | undefined) =>
  value === undefined ? undefined : (RESPELT[value] ?? value);

function schemaOf(rules: object[], strict: boolean): SchemaModel {
  const form = { name: 'quick rules', fileType: 'json', fields: FIELDS, rules };
  const parsed = parseSchema(strict ? { ...form, additionalProperties: false } : form, 'web');
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  // `a` as JSON Schema reads an untyped property.
  const fields = parsed.value.fields.map((f) => (f.name === 'a' ? { ...f, anyValue: true } : f));
  return { ...parsed.value, fields };
}

/** A record's properties, `id` first (its key escaped when `escape`). */
function recordText(id: number, values: (string | undefined)[], escape: boolean): string {
  const props = [`${escape ? '"\\u0069d"' : '"id"'}: ${id}`];
  Object.keys(VALUES).forEach((key, k) => {
    const value = values[k];
    if (value !== undefined) props.push(`"${key}": ${value}`);
  });
  return `{${props.join(', ')}}`;
}

const record = fc.tuple(
  ...Object.values(VALUES).map(([plain, accepted, reported]) =>
    fc.oneof(
      { weight: 30, arbitrary: fc.constantFrom(...plain) },
      { weight: 6, arbitrary: fc.constantFrom(...accepted) },
      { weight: 1, arbitrary: fc.constantFrom(...reported) },
    ),
  ),
) as fc.Arbitrary<(string | undefined)[]>;

describe('cross-field rules on the JSON fast path', () => {
  it('give the issues of the normal path, as an array and as NDJSON', () => {
    taken.records = 0;
    let records = 0;
    fc.assert(
      fc.property(
        fc.subarray(RULES, { minLength: 1, maxLength: 3 }),
        fc.array(record, { minLength: 1, maxLength: 30 }),
        fc.boolean(),
        fc.boolean(),
        (rules, rows, strict, ndjson) => {
          // Repeated rows, with their values written another way, make uniqueTogether find its
          // duplicates.
          const all = [...rows, ...rows.slice(0, 3).map((r) => r.map(respelt))];
          // A first record longer than the reader's first piece: the byte core reads only
          // after it (the text path reads the piece in which the file's shape is settled).
          const texts = (escape: boolean) => [
            `{"id": 0, "z": "${'x'.repeat(70_000)}"}`,
            ...all.map((values, k) => recordText(k + 1, values, escape)),
          ];
          const file = (escape: boolean) =>
            ndjson ? `${texts(escape).join('\n')}\n` : `[\n${texts(escape).join(',\n')}\n]`;
          const schema = schemaOf(rules, strict);
          const options = { fileType: 'json' as const, maxErrors: 100_000 };
          const encode = (text: string) => new TextEncoder().encode(text);
          const before = taken.records;
          const coreBefore = core.jsonRecords;
          const quick = validateOutcome(schema, encode(file(false)), options);
          const quickTook = taken.records - before;
          const coreTook = core.jsonRecords - coreBefore;
          const normal = validateOutcome(schema, encode(file(true)), options);
          // The escaped key is never taken, so only the first run's records count.
          expect(taken.records - before).toBe(quickTook);
          expect(core.jsonRecords - coreBefore).toBe(coreTook);
          records += all.length;
          expect(quick.issues).toEqual(normal.issues);
          expect(quick.result).toEqual(normal.result);
        },
      ),
      { numRuns: 300, seed: 255 },
    );
    // Most records hold something to report; still, each fast path must have taken many.
    expect(taken.records).toBeGreaterThan(records / 10);
    expect(core.jsonRecords).toBeGreaterThan(records / 20);
  });

  it('find the same duplicates of uniqueTogether when the core looks keys up in batches', () => {
    // Many records, some keys repeated, so that the core finds keys seen before at every place
    // in its batches of lookups (wasm/csv-core.ts keysResolve), before and after a record it
    // stops on for something else (a bad date), with a second key rule beside; the same file
    // with the core off is the reference. Records of an array share lines now and then, and a
    // broken record last says where the reader stands after the core's records (its line and
    // column are in the message).
    const rules = [
      { kind: 'uniqueTogether', fields: ['s', 'e'] },
      { kind: 'uniqueTogether', fields: ['i', 'd'], severity: 'warning' },
    ];
    const keyRecord = fc.record({
      s: fc.integer({ min: 0, max: 3000 }).map((n) => `"x${n}"`),
      e: fc.constantFrom('"DE"', '"FR"', '"US"'),
      i: fc.integer({ min: 0, max: 3000 }),
      d: fc.oneof(
        { weight: 30, arbitrary: fc.constantFrom('"2024-01-01"', '"2024-06-30"') },
        { weight: 1, arbitrary: fc.constant('"2024-02-30"') },
      ),
      z: fc.constantFrom('"é"', '"ab"', '"😀"'),
      newline: fc.boolean(),
    });
    const schema = schemaOf(rules, false);
    let coreTook = 0;
    fc.assert(
      fc.property(
        fc.array(keyRecord, { minLength: 50, maxLength: 400, size: 'max' }),
        fc.boolean(),
        fc.boolean(),
        (rows, ndjson, broken) => {
          const records = [
            `{"id": 0, "z": "${'x'.repeat(70_000)}"}`,
            ...rows.map(
              (r, k) =>
                `{"id": ${k + 1}, "z": ${r.z}, "s": ${r.s}, "e": ${r.e}, "i": ${r.i}, "d": ${r.d}}`,
            ),
            ...(broken ? [`{"id": ${rows.length + 1}, "z": "é", "e": tru}`] : []),
          ];
          // The comma before record k, a line feed after it or not (the broken one as the last
          // row's says).
          const comma = (k: number) => (rows[Math.min(k, rows.length) - 1]?.newline ? ',\n' : ', ');
          const text = ndjson
            ? `${records.join('\n')}\n`
            : `[\n${records.map((r, k) => (k === 0 ? r : comma(k) + r)).join('')}\n]`;
          const bytes = new TextEncoder().encode(text);
          const options = { fileType: 'json' as const, maxErrors: 100_000 };
          const before = core.jsonRecords;
          const fast = validateOutcome(schema, bytes, options);
          coreTook += core.jsonRecords - before;
          const reference = validateOutcome(schema, bytes, { ...options, byteCore: false });
          expect(fast.issues).toEqual(reference.issues);
          expect(fast.result).toEqual(reference.result);
        },
      ),
      { numRuns: 60, seed: 256 },
    );
    expect(coreTook).toBeGreaterThan(2000);
  });

  it('go back to where a key seen before lies, with the column of the line it is on', () => {
    // One line: the core takes 1, 2 and 3, and finds 2's key seen before when it looks the
    // keys up; it goes back to before 2, past characters other than ASCII on that line. The
    // broken record's column says whether the reader's place is right.
    const line = [
      `{"id": 0, "z": "${'x'.repeat(70_000)}"}`,
      '{"id": 1, "z": "😀é", "s": "x1", "e": "DE"}',
      '{"id": 2, "z": "é", "s": "x1", "e": "DE"}',
      '{"id": 3, "z": "é", "s": "x2", "e": "DE"}',
      '{"id": 4, "e": tru}',
    ].join(', ');
    const bytes = new TextEncoder().encode(`[${line}]`);
    const schema = schemaOf([{ kind: 'uniqueTogether', fields: ['s', 'e'] }], false);
    const before = core.jsonRecords;
    const fast = validateOutcome(schema, bytes, { fileType: 'json' });
    expect(core.jsonRecords - before).toBeGreaterThan(0);
    const reference = validateOutcome(schema, bytes, { fileType: 'json', byteCore: false });
    expect(fast.issues).toEqual(reference.issues);
    expect(fast.issues.map((i) => `${i.row} ${i.code}`)).toContain('3 unique_together');
  });

  it('read what the normal path reads: "" as a value, a number as String() writes it, text past other than ASCII', () => {
    const pad = `{"id": 0, "z": "${'x'.repeat(70_000)}"}`;
    const cases: [object[], string[], string, string[]][] = [
      // "" is present: it is not empty.
      [
        [{ kind: 'emptyWhen', field: 't', when: { field: 'b', op: '=', value: 'true' } }],
        ['{"id": 1, "t": "", "b": true}', '{"id": 2, "t": "DE", "b": false}'],
        '',
        ['1 t empty_when'],
      ],
      // 1.50 and "1.5" are one value of a field of any type.
      [
        [{ kind: 'uniqueTogether', fields: ['a', 'e'] }],
        ['{"id": 1, "a": 1.50, "e": "DE"}', '{"id": 2, "a": "1.5", "e": "DE"}'],
        '',
        ['2 e unique_together'],
      ],
      // On the byte core (after a first piece): e's value lies after a four-byte character.
      [
        [
          {
            kind: 'allowedValuesWhen',
            field: 'e',
            when: { field: 's', op: '=', value: 'DE' },
            values: ['DE'],
          },
        ],
        [
          '{"id": 1, "z": "😀é", "s": "DE", "e": "DE"}',
          '{"id": 2, "z": "😀é", "s": "DE", "e": "FR"}',
          // The core takes an element of an array only when a comma follows it.
          '{"id": 3}',
        ],
        pad,
        ['3 e allowed_values_when'],
      ],
      // The same for a rule left to JavaScript (a condition on text order): the second t lies
      // after the first among the values the core copies for JavaScript, past a four-byte
      // character.
      [
        [{ kind: 'requiredWhen', field: 'd', when: { field: 't', op: '<', value: 'F' } }],
        ['{"id": 1, "t": "é😀"}', '{"id": 2, "t": "EZ"}', '{"id": 3}'],
        pad,
        ['3 d required_when'],
      ],
    ];
    for (const [rules, records, first, expected] of cases) {
      const text = `[${[first, ...records].filter(Boolean).join(',\n')}]`;
      const { issues } = validateOutcome(schemaOf(rules, false), new TextEncoder().encode(text), {
        fileType: 'json',
      });
      expect(issues.map((i) => `${i.row} ${i.field} ${i.code}`)).toEqual(expected);
    }
  });
});
