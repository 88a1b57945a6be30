// The official JSON-Schema-Test-Suite (draft 2020-12) for the keywords the engine supports. Every
// case must agree with the suite, except the ones listed in
// fixtures/json-schema-test-suite-differences.json, each with the reason the engine deliberately
// reads it differently (the reasons are explained in docs/engine.md, "JSON Schema"). The list
// must stay exact: a listed case that starts to agree must be taken off it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runSuite } from './json-schema-test-suite.ts';

const REASONS = {
  'one-type-per-field':
    'A field has one type: a keyword JSON Schema applies only to values of its type makes the field that type, so values of other types are errors',
  'null-is-no-value':
    'null is "no value": an optional field accepts it, a required one is required',
  'records-are-objects': 'Each record of a file must be an object (not_an_object otherwise)',
  'declared-not-checked':
    'Object, array and null-only properties (and several types) are not checked inside: any value is accepted, with a warning',
  'values-are-scalars':
    'Allowed values (enum/const) are text, numbers or true/false; objects and arrays are refused with a problem',
  'empty-enum-warned': 'An empty enum is not checked (warned)',
  'unsupported-keywords-warned':
    'patternProperties, additionalProperties with a schema, and false property schemas are not supported (warned)',
  'schema-needs-a-field': 'A schema with no properties is refused (nothing to check)',
  'if-then-forms':
    'if/then is checked in the forms cross-field rules hold (if {properties: {x: {const|enum}}, required: [x]} then {required} or then {properties: {y: {const|enum}}}, without else); other forms, about a single value, are warned, not checked',
  're2-patterns': 'Patterns use RE2 syntax the same everywhere; \\p{...} classes are refused',
  'email-is-whatwg':
    'email is the WHATWG "valid e-mail address" (what browsers accept), not RFC 5321: no quoted local parts or address literals',
  'url-is-http':
    "uri is the product's url type: an absolute http or https URL with a host, not any RFC 3986 URI",
} as const;

const differences = JSON.parse(
  readFileSync(
    new URL('./fixtures/json-schema-test-suite-differences.json', import.meta.url),
    'utf8',
  ),
) as Record<string, keyof typeof REASONS>;
const cases = runSuite();

describe('JSON-Schema-Test-Suite, draft 2020-12', () => {
  it('runs every case of the supported keywords', () => {
    expect(cases.length).toBeGreaterThan(450);
  });

  it('every listed difference has a known reason', () => {
    for (const [id, reason] of Object.entries(differences))
      expect(REASONS, id).toHaveProperty(reason);
  });

  it('agrees with the suite except for the listed differences, and the list is exact', () => {
    const differing = cases.filter((c) => c.actual !== c.expected).map((c) => c.id);
    expect(differing.filter((id) => !(id in differences))).toEqual([]);
    expect(Object.keys(differences).filter((id) => !differing.includes(id))).toEqual([]);
  });

  it('agrees on most cases', () => {
    const agreeing = cases.filter((c) => c.actual === c.expected).length;
    expect(agreeing / cases.length).toBeGreaterThan(0.6);
  });
});
