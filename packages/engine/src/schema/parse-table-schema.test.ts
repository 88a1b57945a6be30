import { describe, expect, it } from 'vitest';
import type { Checked, SchemaModel } from '../model.ts';
import { compileSafeRegex } from '../rules/safe-regex.ts';
import { anchored } from './forms/table-schema.ts';
import { parseSchema } from './parse.ts';

function ok(checked: Checked<SchemaModel>): { value: SchemaModel; warnings: string[] } {
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  return checked;
}

describe('Table Schema', () => {
  it('normalises fields, constraints, formats and the primary key', () => {
    const { value, warnings } = ok(
      parseSchema({
        fields: [
          { name: 'sku', type: 'string', constraints: { pattern: '[A-Z]{3}-\\d{4}' } },
          { name: 'contact', type: 'string', format: 'email', constraints: { required: true } },
          { name: 'site', type: 'string', format: 'uri' },
          {
            name: 'qty',
            type: 'integer',
            constraints: { minimum: 0, maximum: 1000, unique: false },
          },
          { name: 'price', type: 'number', constraints: { minimum: 0.01 } },
          { name: 'paid', type: 'boolean', trueValues: ['Y'], falseValues: ['N'] },
          { name: 'shipped', type: 'boolean' },
          { name: 'day', type: 'date', format: '%d/%m/%Y', constraints: { minimum: '01/02/2024' } },
          { name: 'iso', type: 'date', format: 'default', constraints: { maximum: '2030-12-31' } },
          { name: 'at', type: 'datetime' },
          { name: 'clock', type: 'time', format: '%H:%M' },
          { name: 'year', type: 'year' },
          { name: 'status', type: 'string', constraints: { enum: ['open', 'closed'] } },
          { name: 'level', type: 'integer', constraints: { enum: [1, 2, 3] } },
          { name: 'note', constraints: { maxLength: 20 } },
        ],
        primaryKey: 'sku',
      }),
    );
    expect(warnings).toEqual([]);
    expect(value.fields).toEqual([
      {
        name: 'sku',
        type: 'string',
        required: true,
        rules: { pattern: '^[A-Z]{3}-\\d{4}$', unique: true },
      },
      { name: 'contact', type: 'email', required: true, rules: {} },
      { name: 'site', type: 'url', required: false, rules: {} },
      { name: 'qty', type: 'integer', required: false, rules: { minValue: '0', maxValue: '1000' } },
      { name: 'price', type: 'number', required: false, rules: { minValue: '0.01' } },
      { name: 'paid', type: 'boolean', required: false, rules: { truthy: ['Y'], falsy: ['N'] } },
      {
        name: 'shipped',
        type: 'boolean',
        required: false,
        rules: { truthy: ['true', '1'], falsy: ['false', '0'] },
      },
      {
        name: 'day',
        type: 'date',
        required: false,
        rules: { format: 'DD/MM/YYYY', minDate: '2024-02-01' },
      },
      {
        name: 'iso',
        type: 'date',
        required: false,
        rules: { format: 'YYYY-MM-DD', maxDate: '2030-12-31' },
      },
      { name: 'at', type: 'date', required: false, rules: { format: 'YYYY-MM-DDTHH:mm:ssz' } },
      { name: 'clock', type: 'date', required: false, rules: { format: 'HH:mm' } },
      { name: 'year', type: 'date', required: false, rules: { format: 'YYYY' } },
      { name: 'status', type: 'string', required: false, rules: { values: ['open', 'closed'] } },
      { name: 'level', type: 'integer', required: false, rules: { values: ['1', '2', '3'] } },
      { name: 'note', type: 'string', required: false, rules: { maxLength: 20 } },
    ]);
  });

  it('anchors patterns, since Table Schema matches the whole value', () => {
    expect(anchored('[A-Z]+')).toBe('^[A-Z]+$');
    expect(anchored('a|b')).toBe('^(?:a|b)$');
    expect(anchored('[\\s\\S]*(?:x\\d)[\\s\\S]*')).toBe('x\\d');
    const whole = compileSafeRegex(anchored('a|b'));
    expect(
      whole.ok && [whole.regex.test('a'), whole.regex.test('ab'), whole.regex.test('b')],
    ).toEqual([true, false, true]);
  });

  it('warns about what it cannot honour, and checks text instead', () => {
    const { value, warnings } = ok(
      parseSchema({
        fields: [
          { name: 'p', type: 'geopoint' },
          { name: 'd', type: 'date', format: 'any' },
          { name: 'n', type: 'number', decimalChar: ',' },
          { name: 's', type: 'string', constraints: { jsonSchema: {} } },
        ],
        missingValues: ['', 'NA'],
        primaryKey: ['p', 'd'],
      }),
    );
    expect(value.fields.map((f) => [f.name, f.type])).toEqual([
      ['p', 'string'],
      ['d', 'date'],
      ['n', 'number'],
      ['s', 'string'],
    ]);
    // missingValues and a primaryKey of several fields are honoured since issue 22.
    expect(value.missingValues).toEqual(['NA']);
    expect(value.rules).toEqual([{ kind: 'uniqueTogether', fields: ['p', 'd'] }]);
    expect(warnings).toEqual([
      "Type 'geopoint' cannot be checked; its values are checked as text (at fields[0].type)",
      "Date format 'any' is not supported; YYYY-MM-DD is checked instead (at fields[1].format)",
      'decimalChar is not supported; numbers are read in the plain form 1234.5 (at fields[2].decimalChar)',
      "Constraint 'jsonSchema' is not supported and was ignored at fields[3].constraints.jsonSchema",
    ]);
  });

  it('says that a literal Z in a strftime format is read as a time zone', () => {
    const { value, warnings } = ok(
      parseSchema({ fields: [{ name: 'at', type: 'datetime', format: '%Y-%m-%dT%H:%M:%SZ' }] }),
    );
    expect(value.fields[0]?.rules.format).toBe('YYYY-MM-DDTHH:mm:ssZ');
    expect(warnings).toEqual([
      "The letter Z in '%Y-%m-%dT%H:%M:%SZ' is read as a time zone: Z or an offset like +02:00 is accepted there, after an optional fraction of a second (at fields[0].format)",
    ]);
  });

  it('refuses unknown types, strftime directives it cannot read and bad patterns', () => {
    expect(
      parseSchema({
        fields: [
          { name: 'a', type: 'strng' },
          { name: 'b', type: 'date', format: '%d %b %Y' },
          { name: 'c', type: 'string', constraints: { pattern: '(a)\\1' } },
          { name: 'd', type: 'integer', constraints: { minimum: 'ten' } },
        ],
      }),
    ).toEqual({
      ok: false,
      problems: [
        {
          path: 'fields[0].type',
          message:
            "Unknown type 'strng'. Use one of: string, integer, number, boolean, date, datetime, time, year, yearmonth, any, object, array, list, duration, geopoint, geojson",
        },
        {
          path: 'fields[1].format',
          message:
            "The date directive %b in '%d %b %Y' is not supported. Use %Y, %m, %d, %H, %M, %S or %z",
        },
        {
          path: 'fields[2].constraints.pattern',
          message: 'Backreferences like \\1 are not supported',
        },
        { path: 'fields[3].constraints.minimum', message: 'minimum must be a number' },
      ],
    });
  });
});
