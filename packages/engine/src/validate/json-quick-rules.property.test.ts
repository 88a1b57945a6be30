// Cross-field rules on the JSON fast path (json-quick.ts): for generated schemas with rules and
// records whose values are written in many JSON spellings (escapes, trailing zeros, -0, tiny and
// long numbers, "", null, wrong types, nested objects present, empty, null or absent), the issues
// must be those of the normal path. The same records are validated a second time with the first
// key of each written with an escape, which the fast path never reads, so that every record then
// goes through JSON.parse. The fast path's takes are counted, so the test cannot pass with it off.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { SchemaModel } from '../model.ts';
import { parseSchema } from '../schema/parse.ts';
import { validateOutcome } from '../../test/outcome.ts';
import type * as JsonQuick from './json-quick.ts';

const taken = vi.hoisted(() => ({ records: 0 }));

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
 * Each property and the JSON texts its value is written as: values its field accepts (undefined:
 * left out), then values it reports. Accepted values are drawn more often, so that records reach
 * the rules.
 */
const VALUES: Record<string, [(string | undefined)[], string[]]> = {
  i: [
    ['1', '2', '-0', '0', '10', 'null', undefined],
    ['1.0', '1e0', '"1"', '123456789012345678'],
  ],
  n: [
    [
      '1.50',
      '1.5',
      '0.3',
      '0.1',
      '0.2',
      '-2.5',
      '0.000001',
      '1e-7',
      '2',
      '-0.0',
      'null',
      undefined,
    ],
    ['"2"', 'true'],
  ],
  s: [['"DE"', '"FR"', '"D\\u0045"', '"de"', '""', '"a\\nb"', '"US"', 'null', undefined], ['5']],
  t: [['"DE"', '"FR"', '""', 'null', undefined, '"\\/"'], ['"xyz"']],
  b: [['true', 'false', 'null', undefined], ['"true"']],
  e: [
    ['"DE"', '"FR"', '"US"', '"F\\u0052"', 'null', undefined],
    ['"de"', '1'],
  ],
  d: [
    ['"2024-01-01"', '"2024-06-30"', '"2023-12-31"', 'null', undefined],
    ['"2024-02-30"', '""'],
  ],
  o: [
    [
      '{"x": "DE", "m": 1.5}',
      '{"x": "FR", "m": 2}',
      '{"x": "", "m": 0.10}',
      '{"m": 3}',
      '{}',
      'null',
      undefined,
    ],
    ['"o"', '{"x": 1}'],
  ],
  // A property of any type (JSON Schema's `{}`): rules read each scalar's text, a number's as
  // JavaScript writes it.
  a: [
    ['1.50', '1.5', '"1.5"', 'true', '"true"', '-0', '0', '""', 'null', undefined],
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
  ...Object.values(VALUES).map(([accepted, reported]) =>
    fc.oneof(
      { weight: 19, arbitrary: fc.constantFrom(...accepted) },
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
          const texts = (escape: boolean) =>
            all.map((values, k) => recordText(k + 1, values, escape));
          const file = (escape: boolean) =>
            ndjson ? `${texts(escape).join('\n')}\n` : `[\n${texts(escape).join(',\n')}\n]`;
          const schema = schemaOf(rules, strict);
          const options = { fileType: 'json' as const, maxErrors: 100_000 };
          const encode = (text: string) => new TextEncoder().encode(text);
          const before = taken.records;
          const quick = validateOutcome(schema, encode(file(false)), options);
          const quickTook = taken.records - before;
          const normal = validateOutcome(schema, encode(file(true)), options);
          // The escaped key is never taken, so only the first run's records count.
          expect(taken.records - before).toBe(quickTook);
          records += all.length;
          expect(quick.issues).toEqual(normal.issues);
          expect(quick.result).toEqual(normal.result);
        },
      ),
      { numRuns: 300 },
    );
    // Most records hold something to report; still, the fast path must have taken many.
    console.log('TAKEN', taken.records, records);
    console.log('TAKEN', taken.records, records);
    expect(taken.records).toBeGreaterThan(records / 10);
  });
});
