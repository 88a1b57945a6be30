// Cross-field rules through every schema form: read from JSON Schema's and Table Schema's own
// keywords, written back by export, and a round trip (export, then import) gives the same model.
import { describe, expect, it } from 'vitest';
import type { SchemaModel } from '../model.ts';
import { validateBytes } from '../validate/validator.ts';
import { exportSchema } from './export/index.ts';
import { parseSchema } from './parse.ts';

function ok(input: unknown): { value: SchemaModel; warnings: string[] } {
  const parsed = parseSchema(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed;
}
const strip = (m: SchemaModel) => ({ ...m, warnings: undefined });

const web = {
  name: 'Orders',
  fileType: 'json',
  fields: [
    { name: 'country', type: 'string', required: false, validation: {} },
    { name: 'vat_number', type: 'string', required: false, validation: { severity: 'warning' } },
    { name: 'state', type: 'string', required: false, validation: { inList: 'states' } },
    { name: 'qty', type: 'integer', required: false, validation: {} },
    { name: 'net', type: 'number', required: false, validation: {} },
    { name: 'vat', type: 'number', required: false, validation: {} },
    { name: 'gross', type: 'number', required: false, validation: { message: 'Check {field}' } },
    { name: 'sku', type: 'string', required: false, validation: {} },
  ],
  rules: [
    {
      kind: 'requiredWhen',
      field: 'vat_number',
      when: { field: 'country', op: 'in', value: ['DE', 'FR'] },
    },
    { kind: 'requiredWhen', field: 'state', when: { field: 'country', op: 'isNotEmpty' } },
    {
      kind: 'allowedValuesWhen',
      field: 'state',
      when: { field: 'country', op: '=', value: 'US' },
      values: ['CA', 'NY'],
    },
    {
      kind: 'emptyWhen',
      field: 'vat',
      when: { field: 'qty', op: '<', value: 1 },
      severity: 'warning',
    },
    { kind: 'requireOneOf', fields: ['net', 'gross'], min: 1, max: 2 },
    { kind: 'compare', left: 'gross', op: '>=', right: 'net', message: '{field} below {other}' },
    { kind: 'sum', fields: ['net', 'vat'], equals: 'gross', tolerance: '0.01' },
    { kind: 'uniqueTogether', fields: ['sku', 'country'] },
  ],
};

describe('round trips keep every rule, its order, severity and message', () => {
  const model = ok(web).value;
  it.each(['web', 'jsonschema', 'tableschema'] as const)('%s', (target) => {
    const exported = exportSchema(model, target);
    expect(strip(ok(JSON.parse(JSON.stringify(exported))).value)).toEqual(strip(model));
  });
  it('JSON Schema export also speaks JSON Schema where it can', () => {
    const exported = exportSchema(model, 'jsonschema');
    expect(exported.dependentRequired).toEqual({ country: ['state'] });
    expect(exported.allOf).toEqual([
      {
        if: { properties: { country: { enum: ['DE', 'FR'] } }, required: ['country'] },
        then: { required: ['vat_number'] },
      },
      {
        if: { properties: { country: { const: 'US' } }, required: ['country'] },
        then: { properties: { state: { enum: ['CA', 'NY'] } } },
      },
    ]);
    expect((exported['x-schemacheck-rules'] as unknown[]).length).toBe(8);
  });
  it('Table Schema export writes composite keys as uniqueKeys', () => {
    expect(exportSchema(model, 'tableschema').uniqueKeys).toEqual([['sku', 'country']]);
  });
  it('rules that only warn stay in our extension, where other validators cannot make them errors', () => {
    const warned = ok({
      ...web,
      rules: web.rules.map((r) =>
        r.kind === 'requiredWhen' || r.kind === 'uniqueTogether'
          ? { ...r, severity: 'warning' }
          : r,
      ),
    }).value;
    const json = exportSchema(warned, 'jsonschema');
    expect(json.dependentRequired).toBeUndefined();
    expect(json.allOf).toEqual([
      {
        if: { properties: { country: { const: 'US' } }, required: ['country'] },
        then: { properties: { state: { enum: ['CA', 'NY'] } } },
      },
    ]);
    expect(exportSchema(warned, 'tableschema').uniqueKeys).toBeUndefined();
    for (const target of ['jsonschema', 'tableschema'] as const) {
      const back = ok(JSON.parse(JSON.stringify(exportSchema(warned, target)))).value;
      expect(back.rules).toEqual(warned.rules);
    }
  });
});

describe('JSON Schema import', () => {
  it('dependentRequired becomes requiredWhen … isNotEmpty', () => {
    const { value, warnings } = ok({
      type: 'object',
      properties: { card: { type: 'string' }, billing: { type: 'string' } },
      dependentRequired: { card: ['billing'] },
    });
    expect(value.rules).toEqual([
      { kind: 'requiredWhen', field: 'billing', when: { field: 'card', op: 'isNotEmpty' } },
    ]);
    expect(warnings).toEqual([]);
  });
  it('if {const} then {required} and then {properties: {enum}}, also inside allOf', () => {
    const { value, warnings } = ok({
      type: 'object',
      properties: {
        country: { type: 'string' },
        vat: { type: 'string' },
        level: { type: 'integer' },
      },
      if: { properties: { country: { const: 'DE' } }, required: ['country'] },
      then: { required: ['vat'] },
      allOf: [
        {
          if: { properties: { level: { enum: [1, 2] } }, required: ['level'] },
          then: { properties: { country: { enum: ['DE', 'AT'] } } },
        },
      ],
    });
    expect(value.rules).toEqual([
      { kind: 'requiredWhen', field: 'vat', when: { field: 'country', op: '=', value: 'DE' } },
      {
        kind: 'allowedValuesWhen',
        field: 'country',
        when: { field: 'level', op: 'in', value: ['1', '2'] },
        values: ['DE', 'AT'],
      },
    ]);
    expect(warnings).toEqual([]);
    const text = JSON.stringify([
      { country: 'DE' },
      { level: 2, country: 'FR' },
      { level: 3, country: 'FR' },
    ]);
    const r = validateBytes(value, new TextEncoder().encode(text), { fileType: 'json' });
    expect(r.errors.map((e) => `${e.row} ${e.field} ${e.code}`)).toEqual([
      '1 vat required_when',
      '2 country allowed_values_when',
    ]);
  });
  it('forms it cannot hold are warned about, never dropped silently', () => {
    const { value, warnings } = ok({
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'string' } },
      if: { properties: { a: { minimum: 3 } } },
      then: { required: ['b'] },
      else: { required: ['a'] },
    });
    expect(value.rules).toBeUndefined();
    expect(warnings.join('\n')).toMatch(/'if' with else is not supported/);
  });
  it('a property named with a dot in a condition, not described, is still checked', () => {
    const { value, warnings } = ok({
      type: 'object',
      properties: { c: { type: 'string' } },
      dependentRequired: { 'a.b': ['c'] },
      allOf: [
        { if: { properties: { c: { const: 'x' } }, required: ['c'] }, then: { required: ['d.e'] } },
      ],
    });
    expect(value.rules).toHaveLength(2);
    expect(warnings).toEqual([
      "Property 'a.b' is named in dependentRequired but not described; its presence is checked and any value is accepted (at dependentRequired)",
      "Property 'd.e' is named in then but not described; its presence is checked and any value is accepted (at then)",
    ]);
    const text = JSON.stringify([{ 'a.b': 1 }, { c: 'x', d: { e: 1 } }, { c: 'x', 'd.e': 1 }]);
    const r = validateBytes(value, new TextEncoder().encode(text), { fileType: 'json' });
    expect(r.errors.map((e) => `${e.row} ${e.field} ${e.code} ${e.path}`)).toEqual([
      '1 c required_when $[0].c',
      "2 d.e required_when $[1]['d.e']",
    ]);
  });
  it('x-schemacheck-rules is read as the rule list', () => {
    const { value } = ok({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      'x-schemacheck-rules': [{ kind: 'compare', left: 'a', op: '<', right: 'b' }],
    });
    expect(value.rules).toEqual([{ kind: 'compare', left: 'a', op: '<', right: 'b' }]);
  });
});

describe('Table Schema import', () => {
  it('a primaryKey of several fields: each required, unique together', () => {
    const { value } = ok({
      fields: [{ name: 'sku' }, { name: 'warehouse' }, { name: 'qty', type: 'integer' }],
      primaryKey: ['sku', 'warehouse'],
    });
    expect(value.fields.map((f) => f.required)).toEqual([true, true, false]);
    expect(value.rules).toEqual([{ kind: 'uniqueTogether', fields: ['sku', 'warehouse'] }]);
  });
  it('uniqueKeys: several fields unique together, one field unique', () => {
    const { value } = ok({
      fields: [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
      uniqueKeys: [['a', 'b'], ['c']],
    });
    expect(value.rules).toEqual([{ kind: 'uniqueTogether', fields: ['a', 'b'] }]);
    expect(value.fields[2]?.rules.unique).toBe(true);
  });
  it('foreignKeys to another resource are reference lists (inList), and export writes them back', () => {
    const { value, warnings } = ok({
      fields: [{ name: 'country' }, { name: 'a' }, { name: 'b' }, { name: 'parent' }],
      foreignKeys: [
        { fields: 'country', reference: { resource: 'countries', fields: 'code' } },
        { fields: ['a', 'b'], reference: { resource: 'pairs', fields: ['x', 'y'] } },
        { fields: 'parent', reference: { resource: '', fields: 'a' } },
      ],
    });
    expect(value.fields.map((f) => f.rules.inList)).toEqual([
      'countries',
      undefined,
      undefined,
      undefined,
    ]);
    expect(warnings).toEqual([
      'foreignKeys[1] has several fields, which a list cannot check; it was ignored',
      'foreignKeys[2] refers to this table itself, which is not a list; it was ignored',
    ]);
    const bytes = new TextEncoder().encode('country,a,b,parent\nDE,1,2,3\nXX,1,2,3\n');
    const result = validateBytes(value, bytes, {
      fileType: 'csv',
      lists: { countries: ['DE', 'FR'] },
    });
    expect(result.errors.map((e) => `${e.row} ${e.field} ${e.code}`)).toEqual([
      '3 country in_list',
    ]);
    const exported = exportSchema(value, 'tableschema');
    expect(exported.foreignKeys).toEqual([
      { fields: 'country', reference: { resource: 'countries', fields: 'value' } },
    ]);
    expect(strip(ok(JSON.parse(JSON.stringify(exported))).value)).toEqual(strip(value));
  });
  it('missingValues are honoured: NA is no value, in both CSV paths', () => {
    const { value } = ok({
      fields: [
        { name: 'n', type: 'integer' },
        { name: 'r', type: 'integer', constraints: { required: true } },
      ],
      missingValues: ['', 'NA'],
    });
    expect(value.missingValues).toEqual(['NA']);
    const text = 'n,r\nNA,1\n2,NA\nx,3\n';
    const bytes = new TextEncoder().encode(text);
    const whole = validateBytes(value, bytes, { fileType: 'csv' });
    expect(whole.errors.map((e) => `${e.row} ${e.field} ${e.code}`)).toEqual([
      '3 r required',
      '4 n type',
    ]);
    expect(exportSchema(value, 'tableschema').missingValues).toEqual(['', 'NA']);
  });
  it('missingValues survive a trip through JSON Schema: NA stays no value', () => {
    const { value } = ok({
      fields: [
        { name: 'n', type: 'integer' },
        { name: 'r', type: 'integer', constraints: { required: true } },
      ],
      missingValues: ['', 'NA', '-'],
    });
    const viaJsonSchema = ok(JSON.parse(JSON.stringify(exportSchema(value, 'jsonschema')))).value;
    expect(viaJsonSchema.missingValues).toEqual(['NA', '-']);
    const bytes = new TextEncoder().encode('n,r\nNA,1\n2,NA\n-,3\n');
    const result = validateBytes(viaJsonSchema, bytes, { fileType: 'csv' });
    expect(result.errors.map((e) => `${e.row} ${e.field} ${e.code}`)).toEqual(['3 r required']);
    const back = ok(JSON.parse(JSON.stringify(exportSchema(viaJsonSchema, 'tableschema')))).value;
    expect(back.missingValues).toEqual(['NA', '-']);
  });
});
