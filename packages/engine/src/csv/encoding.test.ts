import { describe, expect, it } from 'vitest';
import { readCsvEvents } from './read-events.ts';
import type { CsvEvent } from './read-events.ts';

const utf8 = (text: string) => [...new TextEncoder().encode(text)];
const header = (...cells: string[]): CsvEvent => ({ kind: 'header', cells });
const rec = (row: number, ...cells: string[]): CsvEvent => ({ kind: 'record', row, cells });
const encodingError = (row: number, byte: number, hex: string, encoding = 'UTF-8'): CsvEvent => ({
  kind: 'issue',
  row,
  code: 'encoding_error',
  message: `Invalid ${encoding} at byte ${byte} of the file (${hex}); the row was not checked`,
  value: null,
});

function utf16(text: string, littleEndian: boolean): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < text.length; i++) view.setUint16(i * 2, text.charCodeAt(i), littleEndian);
  return bytes;
}

describe('byte order marks and encodings', () => {
  it('accepts a UTF-8 BOM with a warning, and the first header cell does not keep it', () => {
    expect(readCsvEvents(Uint8Array.from(utf8('\uFEFFid,name\r\n1,x\r\n')))).toEqual([
      {
        kind: 'warning',
        code: 'bom',
        message: 'The file starts with a UTF-8 byte order mark (BOM); it was ignored',
      },
      header('id', 'name'),
      rec(2, '1', 'x'),
    ]);
  });

  for (const [encoding, littleEndian] of [
    ['UTF-16LE', true],
    ['UTF-16BE', false],
  ] as const) {
    it(`decodes ${encoding} with a BOM (Excel's "Unicode Text") and names it`, () => {
      const bytes = utf16('\uFEFFid\tname\r\n1\té€😀\r\n', littleEndian);
      expect(readCsvEvents(bytes)).toEqual([
        {
          kind: 'warning',
          code: 'encoding',
          message: `The file was read as ${encoding} (detected from its byte order mark); save it as UTF-8 to be sure`,
        },
        {
          kind: 'warning',
          code: 'delimiter',
          message: 'Columns are separated by tab, detected from the first lines',
        },
        header('id', 'name'),
        rec(2, '1', 'é€😀'),
      ]);
    });
  }

  it('reports an unpaired surrogate in UTF-16 on its row', () => {
    const bytes = utf16('\uFEFFa\n1\n\uD800\n3\n', true);
    expect(readCsvEvents(bytes).slice(1)).toEqual([
      header('a'),
      rec(2, '1'),
      encodingError(3, 10, '00 D8', 'UTF-16LE'),
      rec(4, '3'),
    ]);
  });

  it('decodes Windows-1252 (é as 0xE9, € as 0x80) and names it', () => {
    const bytes = Uint8Array.from([...utf8('name,price\nCaf'), 0xe9, ...utf8(',5'), 0x80, 0x0a]);
    expect(readCsvEvents(bytes)).toEqual([
      {
        kind: 'warning',
        code: 'encoding',
        message:
          'The file was read as Windows-1252 (detected from bytes that are not valid UTF-8); save it as UTF-8 to be sure',
      },
      header('name', 'price'),
      rec(2, 'Café', '5€'),
    ]);
  });
});

describe('invalid UTF-8', () => {
  it('is an encoding error on its row, naming the byte, and later rows are still read', () => {
    // The valid "é" on row 2 makes this UTF-8 with a damaged byte, not Windows-1252.
    const bytes = Uint8Array.from([...utf8('id,name\n1,é\n2,b'), 0xe9, ...utf8('d\n3,ok\n')]);
    expect(readCsvEvents(bytes)).toEqual([
      header('id', 'name'),
      rec(2, '1', 'é'),
      encodingError(3, 16, 'E9'),
      rec(4, '3', 'ok'),
    ]);
  });

  it('keeps the row of a multi-line record and of the records after it', () => {
    const bytes = Uint8Array.from([...utf8('a,b\n"x\n'), 0xc3, 0x28, ...utf8('\ny",1\n\n2,é\n')]);
    expect(readCsvEvents(bytes)).toEqual([
      header('a', 'b'),
      encodingError(2, 7, 'C3'),
      rec(4, '2', 'é'),
    ]);
  });

  it('in the header still delivers the header, with U+FFFD, and reports row 1', () => {
    const bytes = Uint8Array.from([...utf8('id,na'), 0xff, ...utf8('me\n1,é\n')]);
    expect(readCsvEvents(bytes)).toEqual([
      header('id', 'na\uFFFDme'),
      encodingError(1, 5, 'FF'),
      rec(2, '1', 'é'),
    ]);
  });

  it('on thousands of rows is reported on each of them, and the rows between are read', () => {
    const parts = [...utf8('id,name\n0,é\n')];
    const expected: CsvEvent[] = [header('id', 'name'), rec(2, '0', 'é')];
    for (let row = 3; row < 6003; row += 2) {
      expected.push(encodingError(row, parts.length + 4, 'E9'), rec(row + 1, 'ok', 'ok'));
      parts.push(...utf8('bad,'), 0xe9, ...utf8('\nok,ok\n'));
    }
    const bytes = Uint8Array.from(parts);
    expect(readCsvEvents(bytes, {}, [1000, 70_000, 70_001])).toEqual(expected);
  });

  it('after a first 64 KiB of plain ASCII, is reported rather than guessed as Windows-1252', () => {
    const line = utf8('1,plain ascii text\n');
    const head = utf8('id,text\n');
    const rows = Math.ceil(70_000 / line.length);
    const bytes = Uint8Array.from([
      ...head,
      ...Array.from({ length: rows }, () => line).flat(),
      ...utf8('2,caf'),
      0xe9,
      0x0a,
    ]);
    const events = readCsvEvents(bytes);
    expect(events.filter((e) => e.kind !== 'record')).toEqual([
      header('id', 'text'),
      encodingError(rows + 2, bytes.length - 2, 'E9'),
    ]);
    expect(events).toHaveLength(rows + 2);
  });
});
