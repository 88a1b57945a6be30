import { parseSchema } from '../schema/parse.ts';
import { describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  MAX_ISSUE_VALUE_CHARS,
  type FieldSpec,
  type Issue,
  type SchemaModel,
} from '../model.ts';
import { MAX_COUNTED_FIELDS, OTHER_FIELDS } from './collector.ts';
import {
  createValidator,
  validateBytes,
  validateStream,
  type ValidateOptions,
} from './validator.ts';

const encode = (s: string) => new TextEncoder().encode(s);

function schema(fields: Partial<FieldSpec>[], flags: Partial<SchemaModel> = {}): SchemaModel {
  return {
    name: 'test',
    fields: fields.map((f) => ({ name: 'x', type: 'string', required: false, rules: {}, ...f })),
    orderMatters: false,
    additionalColumns: true,
    additionalProperties: true,
    ...flags,
  };
}

const csv = (s: SchemaModel, text: string, options: Partial<ValidateOptions> = {}) =>
  validateBytes(s, encode(text), { fileType: 'csv', ...options });

const json = (s: SchemaModel, text: string, options: Partial<ValidateOptions> = {}) =>
  validateBytes(s, encode(text), { fileType: 'json', ...options });

const brief = (issues: Issue[]) => issues.map((i) => `${i.row} ${i.field} ${i.code}`);

const contacts = schema([
  { name: 'id', type: 'integer', required: true, rules: { minValue: '1' } },
  { name: 'email', type: 'email', required: true },
  { name: 'age', type: 'integer', rules: { minValue: '0', maxValue: '120' } },
]);

describe('CSV', () => {
  it('checks every cell and counts rows', () => {
    const result = csv(
      contacts,
      'id,email,age\n1,a@example.com,30\nx,not-an-email,200\n3,=cmd@example.com,5\n',
    );
    expect(result).toMatchObject({
      valid: false,
      totalRows: 3,
      validRows: 2,
      invalidRows: 1,
      errorCount: 3,
      errorsByField: { id: 1, email: 1, age: 1 },
      errorsByCode: { type: 2, maximum: 1 },
      warnings: [],
    });
    expect(result.errors).toEqual([
      { row: 3, field: 'id', code: 'type', message: 'Must be a whole number', value: 'x' },
      {
        row: 3,
        field: 'email',
        code: 'type',
        message: 'Must be a valid email',
        value: 'not-an-email',
      },
      { row: 3, field: 'age', code: 'maximum', message: 'Must be at most 120', value: '200' },
    ]);
    expect(result.errors[0]).not.toHaveProperty('path');
  });

  it('says a clean file is valid', () => {
    expect(csv(contacts, 'id,email,age\n1,a@example.com,30\n2,b@example.com,\n')).toEqual({
      valid: true,
      totalRows: 2,
      validRows: 2,
      invalidRows: 0,
      errorCount: 0,
      errorsByField: {},
      errorsByCode: {},
      warnings: [],
      errors: [],
    });
  });

  it('reports an empty required cell, and skips an empty optional one', () => {
    const result = csv(contacts, 'id,email,age\n,a@example.com,\n');
    expect(result.errors).toEqual([
      { row: 2, field: 'id', code: 'required', message: 'Is required', value: null },
    ]);
  });

  it('does not trim: a space is a value', () => {
    expect(brief(csv(contacts, 'id,email,age\n1,a@example.com, \n').errors)).toEqual([
      '2 age type',
    ]);
  });

  it('numbers rows as a spreadsheet does: a quoted line break stays in its row, a blank line counts', () => {
    const s = schema([{ name: 'note' }, { name: 'n', type: 'integer' }]);
    const result = csv(s, 'note,n\n"two\nlines",x\n\nok,y\r\nlast,z');
    expect(brief(result.errors)).toEqual(['2 n type', '4 n type', '5 n type']);
    expect(result.totalRows).toBe(3);
  });

  it('matches cells to fields by header name, not position', () => {
    const result = csv(contacts, 'age,email,id\n200,a@example.com,1\n');
    expect(brief(result.errors)).toEqual(['2 age maximum']);
  });

  it('lists a row’s issues in column order', () => {
    const result = csv(contacts, 'age,email,id\n-1,bad,0\n');
    expect(result.errors.map((i) => i.field)).toEqual(['age', 'email', 'id']);
  });

  describe('header', () => {
    it('reports a missing column once, on row 1, without making rows invalid', () => {
      const result = csv(contacts, 'id,age\n1,2\n2,3\n');
      expect(result.errors).toEqual([
        {
          row: 1,
          field: 'email',
          code: 'missing_column',
          message: "Column 'email' is missing",
          value: null,
        },
      ]);
      expect(result).toMatchObject({
        valid: false,
        totalRows: 2,
        validRows: 2,
        invalidRows: 0,
        errorCount: 1,
      });
    });

    it('reports missing optional columns too', () => {
      expect(brief(csv(contacts, 'id,email\n1,a@b\n').errors)).toEqual(['1 age missing_column']);
    });

    it('refuses unexpected columns when the schema says so', () => {
      const strict = { ...contacts, additionalColumns: false };
      const result = csv(strict, 'id,email,age,foo\n1,a@b,2,x\n');
      expect(result.errors).toEqual([
        {
          row: 1,
          field: 'foo',
          code: 'unexpected_column',
          message: "Unexpected column 'foo'",
          value: 'foo',
        },
      ]);
      expect(csv(contacts, 'id,email,age,foo\n1,a@b,2,x\n').valid).toBe(true);
    });

    it('checks the order when it matters', () => {
      const ordered = { ...contacts, orderMatters: true };
      expect(csv(ordered, 'id,email,age\n1,a@b,2\n').valid).toBe(true);
      expect(csv(ordered, 'email,id,age\n1,a@b,2\n').errors.map((i) => i.message)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^Column '(id|email)' should come (after|before) '(id|email)'$/),
        ]),
      );
    });

    it('ignores the data of a blank-header column and checks only the first of duplicates', () => {
      const result = csv(contacts, 'id,,email,age,id\n1,anything,a@b,2,not-a-number\n');
      expect(brief(result.errors)).toEqual(['1  blank_header', '1 id duplicate_column']);
      expect(result).toMatchObject({ totalRows: 1, validRows: 1, errorsByField: { id: 1 } });
    });

    it('reports every column missing in an empty file', () => {
      const result = csv(contacts, '');
      expect(brief(result.errors)).toEqual([
        '1 id missing_column',
        '1 email missing_column',
        '1 age missing_column',
      ]);
      expect(result.totalRows).toBe(0);
      expect(result.warnings.map((w) => w.code)).toEqual(['empty_file']);
    });

    it('is matched exactly, after the BOM is removed', () => {
      const result = csv(contacts, '\ufeffid,email,age\n1,a@b,2\n');
      expect(result.valid).toBe(true);
      expect(result.warnings.map((w) => w.code)).toEqual(['bom']);
    });
  });

  describe('ragged rows', () => {
    it('reports extra and missing cells once per row, and checks the cells present', () => {
      const result = csv(contacts, 'id,email,age\n1,a@b,2,extra,more\nx,a@b\n5\n');
      expect(result.errors).toEqual([
        {
          row: 2,
          field: '',
          code: 'extra_cells',
          message: 'Row has 5 cells but the header has 3',
          value: null,
        },
        {
          row: 3,
          field: '',
          code: 'missing_cells',
          message: 'Row has 2 cells but the header has 3',
          value: null,
        },
        { row: 3, field: 'id', code: 'type', message: 'Must be a whole number', value: 'x' },
        {
          row: 4,
          field: '',
          code: 'missing_cells',
          message: 'Row has 1 cell but the header has 3',
          value: null,
        },
      ]);
      expect(result).toMatchObject({ totalRows: 3, invalidRows: 3, errorsByField: { id: 1 } });
      expect(Object.keys(result.errorsByField)).toEqual(['id']);
    });
  });

  it('counts a row the reader could not read as an invalid row', () => {
    const result = csv(contacts, 'id,email,age\n1,a@b,2\n2,"a@b"x,3\n3,c@d,4\n');
    expect(brief(result.errors)).toEqual(['3  parse_error']);
    expect(result).toMatchObject({ totalRows: 3, validRows: 2, invalidRows: 1 });
  });

  it('reports invalid UTF-8 as an encoding error on its row', () => {
    // The é makes the sample UTF-8 (not Windows-1252), so the lone 0xFF is an error.
    const bytes = new Uint8Array([...encode('id,name\n1,é\n2,'), 0xff, ...encode('\n3,c\n')]);
    const result = validateBytes(
      schema([{ name: 'id', type: 'integer' }, { name: 'name' }]),
      bytes,
      { fileType: 'csv' },
    );
    expect(brief(result.errors)).toEqual(['3  encoding_error']);
    expect(result).toMatchObject({ totalRows: 3, validRows: 2, invalidRows: 1 });
  });

  it('caps the value carried in an issue', () => {
    const long = 'é'.repeat(5000);
    const result = csv(schema([{ name: 'a', rules: { maxLength: 3 } }]), `a\n${long}\n`);
    const value = result.errors[0]?.value as string;
    expect(value.length).toBeLessThanOrEqual(MAX_ISSUE_VALUE_CHARS);
    expect(value.endsWith('…')).toBe(true);
    expect(long.startsWith(value.slice(0, -1))).toBe(true);
  });

  it('reports duplicates of a unique column with the row of the first', () => {
    const s = schema([{ name: 'sku', rules: { unique: true } }]);
    const result = csv(s, 'sku\nA\nB\nA\n\nA\n');
    expect(result.errors.map((i) => `${i.row}: ${i.message}`)).toEqual([
      '4: Duplicate value; first seen in row 2',
      '6: Duplicate value; first seen in row 2',
    ]);
  });
});

describe('errors, the issue stream and limits', () => {
  const many = `id,email,age\n${Array.from({ length: 50 }, (_, i) => `${i + 1},bad,${i}`).join('\n')}\n`;

  it('keeps the first maxErrors in file order and counts them all', () => {
    const result = csv(contacts, many, { maxErrors: 10 });
    expect(result.errorCount).toBe(50);
    expect(result.errors).toHaveLength(10);
    expect(result.errors.map((i) => i.row)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(result.errorsByCode).toEqual({ type: 50 });
    expect(result.warnings).toEqual([
      {
        code: 'errors_truncated',
        message: 'Only the first 10 of 50 errors are listed; the full report has them all',
      },
    ]);
  });

  it('keeps 1000 by default', () => {
    const text = `id,email,age\n${Array.from({ length: 1200 }, () => 'x,a@b,1').join('\n')}`;
    const result = csv(contacts, text);
    expect([result.errorCount, result.errors.length]).toEqual([1200, 1000]);
  });

  it('sends every issue to onIssue, in order', () => {
    const seen: Issue[] = [];
    const noAge = `id,email\n${Array.from({ length: 50 }, (_, i) => `${i + 1},bad`).join('\n')}\n`;
    const result = csv(contacts, noAge, { maxErrors: 3, onIssue: (i) => seen.push(i) });
    expect(seen).toHaveLength(51);
    expect(seen[0]?.code).toBe('missing_column');
    expect(seen.slice(0, 3)).toEqual(result.errors);
    expect(seen.map((i) => i.row)).toEqual([...seen.map((i) => i.row)].sort((a, b) => a - b));
  });

  it('stops at maxRows and says so', () => {
    const seen: Issue[] = [];
    const result = csv(contacts, many, { maxRows: 5, onIssue: (i) => seen.push(i) });
    expect(result).toMatchObject({
      totalRows: 5,
      invalidRows: 5,
      errorCount: 5,
      rowLimitExceeded: true,
    });
    expect(seen.map((i) => i.row)).toEqual([2, 3, 4, 5, 6]);
  });

  it('does not flag a file with exactly maxRows rows', () => {
    const result = csv(contacts, 'id,email,age\n1,a@b,1\n2,a@b,1\n', { maxRows: 2 });
    expect(result.totalRows).toBe(2);
    expect(result).not.toHaveProperty('rowLimitExceeded');
  });

  it('ignores input after the limit and tells the caller to stop reading', () => {
    const v = createValidator(contacts, { fileType: 'csv', maxRows: 1 });
    v.push(encode('id,email,age\n1,a@b,1\n2,a@b,1\n'));
    const result = v.end();
    expect(v.stopped).toBe(true);
    expect(result.rowLimitExceeded).toBe(true);
    expect(v.rows).toBe(1);
  });

  it('reports rows read so far while pushing', () => {
    const v = createValidator(contacts, { fileType: 'csv' });
    v.push(encode(`id,email,age\n${'1,a@b,1\n'.repeat(20_000)}`));
    expect(v.rows).toBeGreaterThan(0);
    expect(v.end().totalRows).toBe(20_000);
    expect(v.rows).toBe(20_000);
  });

  it('gives the same result however the bytes are split', async () => {
    const text = 'id,email,age\n1,a@b,1\n"2",bad,300\nx,"q""uote@b",\n4,é@b,5\n';
    const whole = csv(contacts, text);
    const bytes = encode(text);
    for (let size = 1; size <= 7; size++) {
      async function* chunks() {
        for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
      }
      expect(await validateStream(contacts, chunks(), { fileType: 'csv' })).toEqual(whole);
    }
  });

  it('stops reading a stream once the row limit is passed', async () => {
    let pulled = 0;
    async function* chunks() {
      yield encode('id,email,age\n');
      for (let i = 0; i < 1000; i++) {
        pulled++;
        yield encode('1,a@b,1\n'.repeat(10_000));
      }
    }
    const result = await validateStream(contacts, chunks(), { fileType: 'csv', maxRows: 5 });
    expect(result.rowLimitExceeded).toBe(true);
    expect(pulled).toBeLessThan(20);
  });

  it('counts file-level issues in errorCount but not in any row', () => {
    const result = csv({ ...contacts, additionalColumns: false }, 'id,email,age,x\n1,a@b,1,x\n');
    expect(result).toMatchObject({ valid: false, errorCount: 1, validRows: 1, invalidRows: 0 });
  });
});

describe('every error code', () => {
  it('is reachable from a file, with a plain-English message', () => {
    const now = new Date('2024-06-15T00:00:00Z');
    const fields: Partial<FieldSpec>[] = [
      { name: 'id', type: 'integer', required: true, rules: { unique: true } },
      {
        name: 'code',
        rules: { pattern: '^[A-Z]+$', minLength: 2, maxLength: 3, allowedChars: 'ABCD' },
      },
      { name: 'price', type: 'number', rules: { minValue: '0', maxValue: '10', precision: 1 } },
      { name: 'kind', type: 'enum', rules: { values: ['a', 'b'] } },
      {
        name: 'day',
        type: 'date',
        rules: { minDate: '2024-01-01', maxDate: '2024-12-31', allowFuture: false },
      },
      { name: 'born', type: 'date', rules: { allowPast: false } },
      { name: 'missing' },
    ];
    const codes = new Set<string>();
    const collect = (i: Issue) => {
      codes.add(i.code);
      expect(i.message).toMatch(/^[A-Z][^\n]*[^.\s]$/);
    };
    const csvText = [
      'code,id,,price,kind,day,born,id,extra',
      'x,,1,-1,c,2023-12-31,2024-06-14,1,x',
      'a,1,1,10.55,a,2025-01-01,2024-06-15,1,x',
      'AAAA#,1,1,1,a,2024-06-16,2024-06-15',
      'AB,2,1,1,a,2024-06-15,2024-06-15,1,x,more',
      '"AB"x,3',
      'AB,x',
    ].join('\n');
    const bytes = new Uint8Array([...encode(`${csvText}\né,`), 0xff, ...encode('\n')]);
    validateBytes(schema(fields, { orderMatters: true, additionalColumns: false }), bytes, {
      fileType: 'csv',
      now,
      onIssue: collect,
    });
    const jsonBytes = new Uint8Array([
      ...encode('[{"id":1,"x":2},5,{"id":"'),
      0xff,
      ...encode('"}, {"id": }]'),
    ]);
    validateBytes(
      schema([{ name: 'id', type: 'integer' }], { additionalProperties: false }),
      jsonBytes,
      {
        fileType: 'json',
        onIssue: collect,
      },
    );
    // Cross-field rules and reference lists (docs/engine.md, "Cross-field rules").
    const ruled = parseSchema({
      name: 'r',
      fields: ['a', 'b', 'c', 'n', 'm', 't'].map((name) => ({
        name,
        type: 'nmt'.includes(name) ? 'number' : 'string',
        required: false,
        validation: name === 'c' ? { inList: 'codes' } : {},
      })),
      rules: [
        { kind: 'requiredWhen', field: 'b', when: { field: 'a', op: '=', value: 'x' } },
        { kind: 'emptyWhen', field: 'c', when: { field: 'a', op: '=', value: 'x' } },
        { kind: 'requireOneOf', fields: ['b', 'c'] },
        { kind: 'compare', left: 'n', op: '<', right: 'm' },
        {
          kind: 'allowedValuesWhen',
          field: 'a',
          when: { field: 'n', op: '>', value: 0 },
          values: ['y'],
        },
        { kind: 'sum', fields: ['n', 'm'], equals: 't' },
        { kind: 'uniqueTogether', fields: ['a', 'n'] },
      ],
    });
    if (!ruled.ok) throw new Error(JSON.stringify(ruled.problems));
    validateBytes(ruled.value, encode('a,b,c,n,m,t\nx,,Q,2,1,4\nx,,,2,1,3\n'), {
      fileType: 'csv',
      lists: { codes: ['P'] },
      onIssue: collect,
    });
    // One record above the default member limit (docs/decisions/062).
    validateBytes(
      schema([{ name: 'id', type: 'integer' }]),
      encode(`[{"a":[${Array(100_001).fill(0).join(',')}]}]`),
      { fileType: 'json', onIssue: collect },
    );
    expect([...codes].sort()).toEqual([...ERROR_CODES].sort());
  });
});

describe('JSON', () => {
  const people = schema([
    { name: 'id', type: 'integer', required: true },
    { name: 'email', type: 'email', required: true },
    { name: 'address.zip', type: 'string', required: true, rules: { pattern: '^\\d{5}$' } },
    { name: 'address.city', type: 'string' },
  ]);

  it('reports a raw control character in a string wherever it lies, in arrays and NDJSON', () => {
    // The fast path trusts the reader's look at the bytes (text/controls.ts) for all but tab, line
    // feed and carriage return: a miss would let the record through as clean.
    const record = (i: number) => ({ id: i, email: 'a@b.com', address: { zip: '12345' } });
    const count = 600; // past one 64 KiB piece of the reader
    for (const control of ['\u0001', '\u000b', '\u000c', '\u001f']) {
      for (const bad of [1, 250, count]) {
        const lines = Array.from({ length: count }, (_, k) => {
          const text = JSON.stringify({ ...record(k + 1), note: 'x'.repeat(100) });
          return k + 1 === bad ? text.replace('"note":"x', `"note":"${control}`) : text;
        });
        for (const text of [`[\n${lines.join(',\n')}\n]`, `${lines.join('\n')}\n`]) {
          const result = json(people, text);
          expect(brief(result.errors), `U+${control.charCodeAt(0)} in row ${bad}`).toEqual([
            `${bad}  parse_error`,
          ]);
        }
      }
    }
  });

  it('checks records with JSON typing and paths', () => {
    const text = JSON.stringify([
      { id: 1, email: 'a@b.com', address: { zip: '12345' } },
      { id: '2', email: 'b@b.com', address: { zip: '1234' } },
    ]);
    const result = json(people, text);
    expect(result.errors).toEqual([
      {
        row: 2,
        field: 'id',
        code: 'type',
        message: 'Must be a whole number, written without quotes',
        value: '2',
        path: '$[1].id',
      },
      {
        row: 2,
        field: 'address.zip',
        code: 'pattern',
        message: 'Must match the pattern ^\\d{5}$',
        value: '1234',
        path: '$[1].address.zip',
      },
    ]);
    expect(result).toMatchObject({ totalRows: 2, validRows: 1, invalidRows: 1 });
  });

  it('treats missing and null as no value', () => {
    const result = json(
      people,
      JSON.stringify([
        { id: null, email: 'a@b.com', address: { city: null } },
        { email: 'a@b.com' },
      ]),
    );
    expect(result.errors.map((i) => `${i.row} ${i.path} ${i.code} ${i.value}`)).toEqual([
      '1 $[0].id required null',
      '1 $[0].address.zip required null',
      '2 $[1].id required null',
      '2 $[1].address.zip required null',
    ]);
  });

  it('says when a nested object is something else', () => {
    const result = json(
      people,
      JSON.stringify([{ id: 1, email: 'a@b.com', address: '1 Main St' }]),
    );
    expect(result.errors).toEqual([
      {
        row: 1,
        field: 'address',
        code: 'type',
        message: "Must be an object containing 'zip', 'city'",
        value: '1 Main St',
        path: '$[0].address',
      },
    ]);
  });

  it('reports records that are not objects', () => {
    const result = json(people, '[1, [2], "x", null]');
    expect(
      result.errors.map((i) => `${i.row} ${i.path} ${i.code}: ${i.message} [${i.value}]`),
    ).toEqual([
      '1 $[0] not_an_object: Each record must be an object; found a number [1]',
      '2 $[1] not_an_object: Each record must be an object; found an array [[2]]',
      '3 $[2] not_an_object: Each record must be an object; found text [x]',
      '4 $[3] not_an_object: Each record must be an object; found null [null]',
    ]);
    expect(result.invalidRows).toBe(4);
  });

  it('reads a single object with $ paths', () => {
    const result = json(
      people,
      JSON.stringify({ id: 1, email: 'nope', address: { zip: '12345' } }),
    );
    expect(result.errors).toEqual([
      {
        row: 1,
        field: 'email',
        code: 'type',
        message: 'Must be a valid email',
        value: 'nope',
        path: '$.email',
      },
    ]);
  });

  it('reads NDJSON', () => {
    const text =
      '{"id":1,"email":"a@b.com","address":{"zip":"12345"}}\n{"id":2.5,"email":"a@b.com","address":{"zip":"12345"}}\n';
    const result = json(people, text, { jsonShape: 'ndjson' });
    expect(brief(result.errors)).toEqual(['2 id type']);
    expect(result.errors[0]?.path).toBe('$[1].id');
  });

  describe('additionalProperties false', () => {
    const strict = { ...people, additionalProperties: false };
    it('reports top-level and described nested properties not in the schema', () => {
      const record = {
        id: 1,
        email: 'a@b.com',
        extra: { deep: true },
        address: { zip: '12345', street: 'x', 'odd key': 1 },
      };
      const result = json(strict, JSON.stringify([record]));
      expect(result.errors.map((i) => `${i.field} ${i.path} ${i.message} [${i.value}]`)).toEqual([
        "address.street $[0].address.street Unexpected property 'address.street' [x]",
        "address.odd key $[0].address['odd key'] Unexpected property 'address.odd key' [1]",
        'extra $[0].extra Unexpected property \'extra\' [{"deep":true}]',
      ]);
    });
    it('allows them by default', () => {
      expect(
        json(
          people,
          JSON.stringify([{ id: 1, email: 'a@b.com', address: { zip: '12345' }, more: 1 }]),
        ).valid,
      ).toBe(true);
    });
  });

  it('reads a property named like an Object member only when the record has it', () => {
    const s = schema([
      { name: 'constructor', type: 'string', required: true },
      { name: '__proto__', type: 'integer' },
    ]);
    expect(brief(json(s, '[{}]').errors)).toEqual(['1 constructor required']);
    expect(brief(json(s, '[{"constructor":"x","__proto__":"y"}]').errors)).toEqual([
      '1 __proto__ type',
    ]);
  });

  it('reports a syntax error as a parse_error with its position', () => {
    const result = json(people, '[{"id":1,"email":"a@b.com","address":{"zip":"12345"}}, {"id": }]');
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({
      row: 2,
      field: '',
      code: 'parse_error',
      path: '$[1]',
    });
    expect(result.errors[0]?.message).toMatch(/line 1/);
    expect(result).toMatchObject({ totalRows: 2, invalidRows: 1, validRows: 1 });
  });

  it('checks integers beyond 2^53 exactly', () => {
    const s = schema([{ name: 'n', type: 'integer', rules: { maxValue: '9007199254740992' } }]);
    expect(brief(json(s, '[{"n":9007199254740992},{"n":9007199254740993}]').errors)).toEqual([
      '2 n maximum',
    ]);
  });

  it('warns about CSV options it cannot use', () => {
    const result = json(people, '[]', { delimiter: ';' });
    expect(result.warnings.map((w) => w.code)).toContain('ignored_option');
  });
});

describe('errorsByField', () => {
  it('stops adding names after MAX_COUNTED_FIELDS, counting the rest together', () => {
    const record = Object.fromEntries(
      Array.from({ length: MAX_COUNTED_FIELDS + 5 }, (_, i) => [`k${i}`, 1]),
    );
    const result = json(schema([], { additionalProperties: false }), JSON.stringify([record]));
    expect(result.errorCount).toBe(MAX_COUNTED_FIELDS + 5);
    expect(Object.keys(result.errorsByField)).toHaveLength(MAX_COUNTED_FIELDS + 1);
    expect(result.errorsByField[OTHER_FIELDS]).toBe(5);
  });
});
