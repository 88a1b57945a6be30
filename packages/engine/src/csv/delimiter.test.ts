import { describe, expect, it } from 'vitest';
import { detectDelimiter, readSepLine } from './delimiter.ts';

describe('detectDelimiter', () => {
  it('finds each candidate', () => {
    expect(detectDelimiter('a,b\n1,2\n', true)).toBe(',');
    expect(detectDelimiter('a;b\n1;2\n', true)).toBe(';');
    expect(detectDelimiter('a\tb\n1\t2\n', true)).toBe('\t');
    expect(detectDelimiter('a|b\n1|2\n', true)).toBe('|');
  });

  it('prefers the candidate whose count stays the same over the records', () => {
    // European decimals: commas in the values, semicolons between them.
    expect(detectDelimiter('name;price;weight\nShirt;12,50;0,3\nShoe;80,00;1,25\n', true)).toBe(
      ';',
    );
    expect(detectDelimiter('a;b,c\n1;2,3,4\n5;6,7,8\n', true)).toBe(';');
  });

  it('ignores candidates inside quotes', () => {
    expect(detectDelimiter('"a;b;c";"d"\n"1;2;3";4\n', true)).toBe(';');
    expect(detectDelimiter('"a,b,c";"d"\n', true)).toBe(';');
  });

  it('needs the delimiter in the header; a single column is read with commas', () => {
    expect(detectDelimiter('name\nx;y\n', true)).toBe(',');
    expect(detectDelimiter('', true)).toBe(',');
    expect(detectDelimiter('\n\n', true)).toBe(',');
  });

  it('on a tie, prefers more columns, then the order , ; tab |', () => {
    expect(detectDelimiter('a;b;c|d\n', true)).toBe(';');
    expect(detectDelimiter('a,b;c\n', true)).toBe(',');
  });

  it('does not count a last line cut by the end of a partial sample', () => {
    // Both fit the two whole records and tie; the cut "1;" must not decide for ;.
    expect(detectDelimiter('a;b,c\n1;2,3\n1;', false)).toBe(',');
    // When the text is the whole file, its last line is whole and counts.
    expect(detectDelimiter('a;b,c\n1;2,3\n1;', true)).toBe(';');
  });

  it('reads no further than the sample', () => {
    expect(detectDelimiter('a;b\n' + 'x,y,z\n'.repeat(10), true, 4)).toBe(';');
  });
});

describe('readSepLine', () => {
  it('reads the Excel hint with any line break', () => {
    expect(readSepLine('sep=;\na;b', false)).toEqual({ delimiter: ';', length: 6 });
    expect(readSepLine('sep=|\r\na|b', false)).toEqual({ delimiter: '|', length: 7 });
    expect(readSepLine('SEP=\t\ra\tb', false)).toEqual({ delimiter: '\t', length: 6 });
    expect(readSepLine('sep=,', true)).toEqual({ delimiter: ',', length: 5 });
  });

  it('leaves anything else to be the header', () => {
    expect(readSepLine('sep=;;\n', false)).toBeNull();
    expect(readSepLine('sep="\n', false)).toBeNull();
    expect(readSepLine('sep\n', false)).toBeNull();
    expect(readSepLine('"sep=;"\n', false)).toBeNull();
    expect(readSepLine(' sep=;\n', false)).toBeNull();
  });
});
