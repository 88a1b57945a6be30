import { describe, expect, it } from 'vitest';
import { readCsvEvents } from './read-events.ts';
import type { CsvEvent } from './read-events.ts';

const encode = (text: string) => new TextEncoder().encode(text);
const header = (...cells: string[]): CsvEvent => ({ kind: 'header', cells });
const rec = (row: number, ...cells: string[]): CsvEvent => ({ kind: 'record', row, cells });
const parseError = (row: number, message: string, value: string | null): CsvEvent => ({
  kind: 'issue',
  row,
  code: 'parse_error',
  message,
  value,
});
const chunked = (length: number, size = 65_536) =>
  Array.from({ length: Math.ceil(length / size) - 1 }, (_, i) => (i + 1) * size);
const issues = (events: CsvEvent[]) => events.filter((e) => e.kind === 'issue');
const records = (events: CsvEvent[]) => events.filter((e) => e.kind === 'record');

describe('an unterminated quote', () => {
  const lines = ['id,name', '1,a', '2,"b', '3,c', '4,d', '5,e', '6,f', '7,g', '8,h', '9,i'];

  it('at row 3 of 10 is one parse error at row 3, and rows 4 to 10 are still read', () => {
    expect(readCsvEvents(encode(lines.join('\n')))).toEqual([
      header('id', 'name'),
      rec(2, '1', 'a'),
      parseError(3, 'Column 2 opens a quote that is never closed', '"b'),
      ...[4, 5, 6, 7, 8, 9, 10].map((row) => rec(row, String(row - 1), lines[row - 1]!.slice(2))),
    ]);
  });

  it('does not swallow the rows up to the next quote in the file', () => {
    const text = [...lines.slice(0, 6), '6,"f"', ...lines.slice(7)].join('\r\n');
    expect(readCsvEvents(encode(text))).toEqual([
      header('id', 'name'),
      rec(2, '1', 'a'),
      parseError(3, 'Column 2 has text after its closing quote', '"b'),
      rec(4, '3', 'c'),
      rec(5, '4', 'd'),
      rec(6, '5', 'e'),
      rec(7, '6', 'f'),
      rec(8, '7', 'g'),
      rec(9, '8', 'h'),
      rec(10, '9', 'i'),
    ]);
  });

  it('followed by megabytes of rows stops at the field limit and reads every following row', () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => `${i},name ${i}`);
    const bytes = encode(`id,name\n1,"open\n${rows.join('\n')}\n`);
    const events = readCsvEvents(bytes, {}, chunked(bytes.length));
    expect(issues(events)).toEqual([
      parseError(
        2,
        'Column 2 is longer than 1048576 bytes, the limit for one value',
        `"open\n${rows.join('\n')}`.slice(0, 200),
      ),
    ]);
    expect(records(events)).toHaveLength(rows.length);
    expect(records(events).at(-1)).toEqual(rec(100_002, '99999', 'name 99999'));
  });
});

describe('a field over the size limit', () => {
  const big = 'x'.repeat(2 * 1024 * 1024);

  it('unquoted, 2 MiB: a parse error on its row, not a crash, and the following rows are read', () => {
    const bytes = encode(`a,b,c\n1,${big},3\n4,5,6\n`);
    const expected = [
      header('a', 'b', 'c'),
      parseError(
        2,
        'Column 2 is longer than 1048576 bytes, the limit for one value',
        'x'.repeat(200),
      ),
      rec(3, '4', '5', '6'),
    ];
    expect(readCsvEvents(bytes)).toEqual(expected);
    expect(readCsvEvents(bytes, {}, chunked(bytes.length))).toEqual(expected);
  });

  it('quoted, 2 MiB over two lines: the rows after them are read', () => {
    const bytes = encode(`a,b\n"${big}\n${big}",1\n2,3\n`);
    const events = readCsvEvents(bytes, {}, chunked(bytes.length));
    // Its second line is then read as a row of its own: the price of never swallowing a file.
    expect(events).toEqual([
      header('a', 'b'),
      parseError(
        2,
        'Column 1 is longer than 1048576 bytes, the limit for one value',
        `"${'x'.repeat(199)}`,
      ),
      parseError(
        3,
        'Column 1 is longer than 1048576 bytes, the limit for one value',
        'x'.repeat(200),
      ),
      rec(4, '2', '3'),
    ]);
  });

  it('quoted, 2 MiB on one line: the next rows are read', () => {
    const bytes = encode(`a,b\n"${big}",1\n2,3\n`);
    const expected = [
      header('a', 'b'),
      parseError(
        2,
        'Column 1 is longer than 1048576 bytes, the limit for one value',
        `"${'x'.repeat(199)}`,
      ),
      rec(3, '2', '3'),
    ];
    expect(readCsvEvents(bytes)).toEqual(expected);
    expect(readCsvEvents(bytes, {}, chunked(bytes.length, 10_000))).toEqual(expected);
  });

  it('is measured in UTF-8 bytes', () => {
    const options = { maxFieldBytes: 3000 };
    expect(readCsvEvents(encode(`a\n${'€'.repeat(1000)}\n`), options)).toEqual([
      header('a'),
      rec(2, '€'.repeat(1000)),
    ]);
    expect(issues(readCsvEvents(encode(`a\n${'€'.repeat(1001)}\n`), options))).toEqual([
      parseError(2, 'Column 1 is longer than 3000 bytes, the limit for one value', '€'.repeat(200)),
    ]);
  });
});
