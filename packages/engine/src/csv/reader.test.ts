import { describe, expect, it } from 'vitest';
import { createCsvReader, createSampledCsvReader } from './reader.ts';
import type { CsvReaderOptions } from './reader.ts';
import { readCsvEvents } from './read-events.ts';
import type { CsvEvent } from './read-events.ts';

const utf8 = (text: string) => new TextEncoder().encode(text);
const read = (text: string, options?: CsvReaderOptions) => readCsvEvents(utf8(text), options);

const header = (...cells: string[]): CsvEvent => ({ kind: 'header', cells });
const rec = (row: number, ...cells: string[]): CsvEvent => ({ kind: 'record', row, cells });
const parseError = (row: number, message: string, value: string | null): CsvEvent => ({
  kind: 'issue',
  row,
  code: 'parse_error',
  message,
  value,
});

describe('RFC 4180 cases and their common variants', () => {
  it('keeps CRLF inside a quoted field and gives the next record the next row', () => {
    expect(read('a,b\r\n1,"x\r\ny"\r\n2,3\r\n')).toEqual([
      header('a', 'b'),
      rec(2, '1', 'x\r\ny'),
      rec(3, '2', '3'),
    ]);
  });

  it('turns "" inside quotes into one quote', () => {
    expect(read('a\n"say ""hi"""\n""""\n')).toEqual([header('a'), rec(2, 'say "hi"'), rec(3, '"')]);
  });

  it('keeps spaces around fields', () => {
    expect(read('a,b\n x , y \n')).toEqual([header('a', 'b'), rec(2, ' x ', ' y ')]);
  });

  it('reads the last record without a final line break', () => {
    expect(read('a,b\r\n1,2')).toEqual([header('a', 'b'), rec(2, '1', '2')]);
    expect(read('a\n"x"')).toEqual([header('a'), rec(2, 'x')]);
  });

  it('reads an empty last field, also at the end of the file', () => {
    expect(read('a,b,c\n1,2,\n3,,')).toEqual([
      header('a', 'b', 'c'),
      rec(2, '1', '2', ''),
      rec(3, '3', '', ''),
    ]);
  });

  it('reads a header-only file as a header without records or warnings', () => {
    expect(read('a,b\n')).toEqual([header('a', 'b')]);
  });

  it('reports an empty file and never calls header', () => {
    const empty = [
      { kind: 'warning', code: 'empty_file', message: 'The file is empty: it has no header row' },
    ];
    expect(read('')).toEqual(empty);
    expect(read('\n\r\n\r')).toEqual(empty);
  });

  it('passes records with unequal cell counts on as they are', () => {
    expect(read('a,b\n1\n1,2,3\n')).toEqual([header('a', 'b'), rec(2, '1'), rec(3, '1', '2', '3')]);
  });

  it('keeps duplicate and empty header names as written', () => {
    expect(read('a,a,\n1,2,3\n')).toEqual([header('a', 'a', ''), rec(2, '1', '2', '3')]);
  });

  it('keeps a quote inside an unquoted field literally (a"b)', () => {
    expect(read('a,b\na"b,c""\n')).toEqual([header('a', 'b'), rec(2, 'a"b', 'c""')]);
  });

  it('reports text after a closing quote and reads on', () => {
    expect(read('a,b\n1,"ab"c\n2,3\n')).toEqual([
      header('a', 'b'),
      parseError(2, 'Column 2 has text after its closing quote', '"ab"c'),
      rec(3, '2', '3'),
    ]);
    // The cells after it stay aligned: `"ab" ,d` is one bad row, not a shifted one.
    expect(read('a,b,c\n"ab" ,d,e\n1,2,3')).toEqual([
      header('a', 'b', 'c'),
      parseError(2, 'Column 1 has text after its closing quote', '"ab" '),
      rec(3, '1', '2', '3'),
    ]);
  });

  it('reports a quote left open at the end of the file at the row where it opened', () => {
    expect(read('a,b\n1,"x\n2,3')).toEqual([
      header('a', 'b'),
      parseError(2, 'Column 2 opens a quote that is never closed', '"x'),
      rec(3, '2', '3'),
    ]);
  });

  it('treats a lone CR as a line break', () => {
    expect(read('a,b\r1,2\r3,4')).toEqual([header('a', 'b'), rec(2, '1', '2'), rec(3, '3', '4')]);
  });

  it('accepts CRLF, LF and CR mixed in one file', () => {
    expect(read('a\r\nb\nc\rd\r\n')).toEqual([header('a'), rec(2, 'b'), rec(3, 'c'), rec(4, 'd')]);
  });

  it('detects ; and says so', () => {
    expect(read('a;b\n1;"2;3"\n')).toEqual([
      {
        kind: 'warning',
        code: 'delimiter',
        message: 'Columns are separated by semicolon (;), detected from the first lines',
      },
      header('a', 'b'),
      rec(2, '1', '2;3'),
    ]);
  });

  it('detects tab and vertical bar', () => {
    expect(read('a\tb\n1\t2\n').slice(1)).toEqual([header('a', 'b'), rec(2, '1', '2')]);
    expect(read('a|b\n1|2\n').slice(1)).toEqual([header('a', 'b'), rec(2, '1', '2')]);
  });

  it('uses a sep= first line as the delimiter, not as the header, and does not count it as a row', () => {
    expect(read('sep=;\r\na;b\r\n1;2,5\r\n')).toEqual([
      {
        kind: 'warning',
        code: 'delimiter',
        message: 'The first line "sep=;" names the delimiter and is not read as the header',
      },
      header('a', 'b'),
      rec(2, '1', '2,5'),
    ]);
  });

  it('lets the delimiter option win over a sep= line, which is still skipped', () => {
    expect(read('sep=;\na,b;c\n', { delimiter: ',' })).toEqual([
      {
        kind: 'warning',
        code: 'delimiter',
        message:
          'The first line "sep=;" names the delimiter and is not read as the header; comma (,) was used as requested',
      },
      header('a', 'b;c'),
    ]);
  });

  it('reads a delimiter given in the options without detecting', () => {
    expect(read('a;b,c\n1;2,3\n', { delimiter: ',' })).toEqual([
      header('a;b', 'c'),
      rec(2, '1;2', '3'),
    ]);
  });

  it('reads NUL as an ordinary character', () => {
    expect(read('a,b\n\u0000,x\u0000y\n')).toEqual([
      header('a', 'b'),
      rec(2, '\u0000', 'x\u0000y'),
    ]);
  });
});

describe('row numbers', () => {
  it('skips empty lines but counts them as rows; a final line break is no empty line', () => {
    expect(read('a\n1\n\n2\r\n\r\n\r3\n')).toEqual([
      header('a'),
      rec(2, '1'),
      rec(4, '2'),
      rec(7, '3'),
    ]);
  });

  it('gives a multi-line record one row and the next record the next row', () => {
    expect(read('a,b\n"x\ny\nz",1\n2,3')).toEqual([
      header('a', 'b'),
      rec(2, 'x\ny\nz', '1'),
      rec(3, '2', '3'),
    ]);
  });

  it('counts empty lines before the header as rows', () => {
    expect(read('\n\na,b\n1,2')).toEqual([header('a', 'b'), rec(4, '1', '2')]);
  });

  it('keeps a line of only a quoted empty field or only delimiters as a record', () => {
    expect(read('a\n""\n')).toEqual([header('a'), rec(2, '')]);
    expect(read('a,b\n,\n')).toEqual([header('a', 'b'), rec(2, '', '')]);
  });
});

describe('a header that cannot be read', () => {
  it('is still delivered, best effort, with the error on row 1', () => {
    expect(read('id,"name,email\n1,a,b\n')).toEqual([
      header('id', 'name', 'email'),
      parseError(1, 'Column 2 opens a quote that is never closed', '"name,email'),
      rec(2, '1', 'a', 'b'),
    ]);
  });
});

describe('the reader object', () => {
  it('tells the delimiter once it is known', () => {
    const reader = createCsvReader({ header() {}, record() {}, issue() {}, warning() {} });
    expect(reader.delimiter).toBeUndefined();
    reader.push(utf8('a|b\n1|2\n'));
    reader.end();
    expect(reader.delimiter).toBe('|');
  });

  it('keeps no reference to a pushed chunk, which the caller may reuse', () => {
    const bytes = utf8('id,name\n' + '1,x\n'.repeat(10) + '2,é\n');
    // The second cut falls inside "é", whose first byte must outlive its chunk.
    const cuts = [40, bytes.length - 2, bytes.length];
    for (const sampleBytes of [32, 65_536]) {
      const events: CsvEvent[] = [];
      const reader = createSampledCsvReader(
        {
          header: (cells) => events.push({ kind: 'header', cells }),
          record: (cells, row) => events.push({ kind: 'record', row, cells }),
          issue: (row, code, message, value) =>
            events.push({ kind: 'issue', row, code, message, value }),
          warning: (w) => events.push({ kind: 'warning', ...w }),
        },
        {},
        sampleBytes,
      );
      let at = 0;
      for (const cut of cuts) {
        const chunk = bytes.slice(at, cut);
        reader.push(chunk);
        chunk.fill(0x3b);
        at = cut;
      }
      reader.end();
      expect(events).toEqual(read(new TextDecoder().decode(bytes)));
    }
  });

  it('refuses options that cannot work', () => {
    const sink = { header() {}, record() {}, issue() {}, warning() {} };
    expect(() => createCsvReader(sink, { delimiter: '"' })).toThrow(RangeError);
    expect(() => createCsvReader(sink, { delimiter: ';;' })).toThrow(RangeError);
    expect(() => createCsvReader(sink, { maxFieldBytes: 0 })).toThrow(RangeError);
  });
});
