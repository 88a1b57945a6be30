import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldSpec, Issue, SchemaModel } from '../model.ts';
import { FAST_PATH_FIELDS, fieldSpec } from '../../test/fast-path-fields.ts';
import { ENCODING_SAMPLE_BYTES } from '../text/detect-encoding.ts';
import { compileField } from './compile.ts';
import { createQuickCsvRecord } from './csv-quick.ts';
import { createValidator, type ValidateOptions } from './validator.ts';

const FIELDS: FieldSpec[] = [
  ...FAST_PATH_FIELDS,
  fieldSpec({ name: 'day', type: 'date' }),
  fieldSpec({ name: 'zip', required: true, rules: { pattern: '^\\d{3}$' } }),
];

const SCHEMA: SchemaModel = {
  name: 'quick',
  fields: FIELDS,
  orderMatters: false,
  additionalColumns: true,
  additionalProperties: true,
};

/** The fast path for a file whose header is `columns` (names of FIELDS, or others). */
function quick(columns: string[], delimiter = ',', maxFieldBytes = 1024) {
  const byName = new Map(FIELDS.map((f) => [f.name, compileField(f)]));
  return createQuickCsvRecord(
    columns.map((name) => byName.get(name)),
    delimiter,
    maxFieldBytes,
    () => true,
  );
}

const HEADER = ['id', 'name', 'price', 'zip', 'note'];
const CLEAN = '7,Ann,12.30,123,anything';

describe('the CSV fast path on its own', () => {
  it('says where the next record starts, after LF, CRLF or CR', () => {
    const check = quick(HEADER);
    for (const lineEnd of ['\n', '\r\n', '\r']) {
      const text = `${CLEAN}${lineEnd}8,Bob,1,456,x`;
      expect(check(text, 0, text.length, 2), JSON.stringify(lineEnd)).toBe(
        CLEAN.length + lineEnd.length,
      );
    }
  });

  it('reads plain quoted cells, across line breaks too, and empty optional cells', () => {
    const check = quick(HEADER);
    const record = '"7","A,\nn",,"123",""\n';
    expect(check(record + 'next', 0, record.length + 4, 2)).toBe(record.length);
  });

  it('gives up on every record with something to report, and on what it does not handle', () => {
    const check = quick(HEADER, ',', 8);
    for (const record of [
      '0,Ann,12.30,123,x', // below minValue
      '7,A,12.30,123,x', // too short
      '7,Ann,12.345,123,x', // precision
      '7,Ann,12.30,12,x', // pattern
      ',Ann,12.30,123,x', // required id empty
      '"",Ann,12.30,123,x', // required id empty, quoted
      '7,Ann,12.30,123', // a cell missing
      '7,Ann,12.30,123,x,y', // a cell too many
      '7,"A""n",12.30,123,x', // an escaped quote
      '7,"An"n,12.30,123,x', // text after the closing quote
      '7,"Ann,12.30,123,x', // a quote never closed
      '7,Ann,12.30,123,123456789', // a cell over maxFieldBytes
    ]) {
      const text = `${record}\n`;
      expect(check(text, 0, text.length, 2), record).toBe(-1);
    }
  });

  it('gives up on a record whose line break is not wholly in the text', () => {
    const check = quick(HEADER);
    expect(check(CLEAN, 0, CLEAN.length, 2)).toBe(-1);
    // The CR may be the first half of a CRLF still to come.
    expect(check(`${CLEAN}\r`, 0, CLEAN.length + 1, 2)).toBe(-1);
    const quoted = `${CLEAN.slice(0, -8)}"anything"`;
    expect(check(quoted, 0, quoted.length, 2)).toBe(-1);
  });

  it('checks a unique value only once the rest of the record is clean', () => {
    const check = quick(['code', 'id']);
    expect(check('x,0\n', 0, 4, 2)).toBe(-1);
    // `x` was not recorded by the record that gave up: row 3 is no duplicate of row 2.
    expect(check('x,1\n', 0, 4, 3)).toBe(4);
    expect(check('x,1\n', 0, 4, 4)).toBe(-1);
  });
});

// The fast path only ever answers "clean". After a first 64 KiB of clean rows, the same file is
// validated pushed whole (records complete in the text, so the fast path takes the clean ones) and
// pushed a byte at a time (no record is ever complete in the text, so every one goes the normal
// way): the two must give the same result, issue for issue.

const DELIMITER = '{d}';

const values = fc.constantFrom(
  '7',
  '0',
  '-3',
  '+4',
  '007',
  '1e3',
  '12.30',
  '12.345',
  '.5',
  '1.',
  'Ann',
  'A',
  'Anna Maria',
  'é😀',
  '😀😀😀😀😀😀',
  'true',
  'FALSE',
  'Yes',
  'maybe',
  'a',
  'b',
  'c',
  '1',
  '2024-02-29',
  '2023-02-29',
  '2024-13-01',
  '123',
  '12a',
  'x',
  'y',
  '',
  ' 7',
  '"Ann"',
  '""',
  '"A""n"',
  '"A\nn"',
  `"A${DELIMITER}n"`,
  '"An"n',
  '"Ann',
  'A"nn',
  `a${DELIMITER}b`,
  '=1+2',
  '12345678901234567890',
);

const COLUMNS = ['id', 'name', 'price', 'active', 'tag', 'day', 'code', 'ref', 'zip'];
const CLEAN_ROW = ['7', 'Ann', '12.30', 'true', 'a', '2024-02-29', 'x', 'r', '123'];

const change = fc.tuple(fc.nat(), values, fc.constantFrom('set', 'add', 'drop'));

const row = fc
  .tuple(
    fc.array(change, { maxLength: 2 }),
    fc.constantFrom('\n', '\r\n', '\r', '\n\n'),
    fc.nat({ max: 3 }),
  )
  .map(([changes, lineEnd, unique]) => {
    const cells = [...CLEAN_ROW];
    // A few distinct unique values, so duplicates happen.
    cells[6] = `x${unique}`;
    cells[7] = `r${unique % 2}`;
    for (const [at, value, how] of changes) {
      const i = at % cells.length;
      if (how === 'set') cells[i] = value;
      else if (how === 'add') cells.splice(i, 0, value);
      else if (cells.length > 1) cells.splice(i, 1);
    }
    return { cells, lineEnd };
  });

/** Clean rows filling exactly the bytes the reader holds before it starts reading. */
function cleanPrefix(delimiter: string): string {
  const header = COLUMNS.join(delimiter) + '\n';
  const line = CLEAN_ROW.join(delimiter) + '\n';
  let text = header;
  while (text.length + line.length <= ENCODING_SAMPLE_BYTES) text += line;
  // The rest is padded with empty lines (rows without records), so the sample ends at a row end.
  return text + '\n'.repeat(ENCODING_SAMPLE_BYTES - text.length);
}

function validate(prefix: string, body: string, options: ValidateOptions, byteByByte: boolean) {
  const issues: Issue[] = [];
  const validator = createValidator(SCHEMA, { ...options, onIssue: (i) => issues.push(i) });
  validator.push(new TextEncoder().encode(prefix));
  const bytes = new TextEncoder().encode(body);
  if (byteByByte) for (let i = 0; i < bytes.length; i++) validator.push(bytes.subarray(i, i + 1));
  else validator.push(bytes);
  const result = validator.end();
  return { ...result, issues };
}

describe('the CSV fast path and the normal path', () => {
  const prefixes = new Map([',', ';', '\t', '|'].map((d) => [d, cleanPrefix(d)]));

  it('give the same results, for every delimiter, line ending and quoting', () => {
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(',', ';', '\t', '|'),
        fc.constantFrom(undefined, 12),
        fc.boolean(),
        (rows, delimiter, maxFieldBytes, finalLineEnd) => {
          let body = rows
            .map(
              ({ cells, lineEnd }) =>
                cells.join(delimiter).replaceAll(DELIMITER, delimiter) + lineEnd,
            )
            .join('');
          if (!finalLineEnd) body = body.replace(/[\r\n]+$/, '');
          const options: ValidateOptions = { fileType: 'csv', delimiter };
          if (maxFieldBytes !== undefined) options.maxFieldBytes = maxFieldBytes;
          const prefix = prefixes.get(delimiter) as string;
          const whole = validate(prefix, body, options, false);
          expect(whole.totalRows).toBeGreaterThan(1000);
          expect(whole).toEqual(validate(prefix, body, options, true));
        },
      ),
      { numRuns: 150 },
    );
  });
});
