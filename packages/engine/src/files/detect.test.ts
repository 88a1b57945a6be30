import { describe, expect, it } from 'vitest';
import { detectFileType, fileNameKind, sniffFileType } from './detect.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('detectFileType', () => {
  it('goes by the extension, NDJSON names included', () => {
    expect(detectFileType('a.CSV')).toEqual({ fileType: 'csv' });
    expect(detectFileType('a.json')).toEqual({ fileType: 'json' });
    expect(detectFileType('dir/a.ndjson')).toEqual({ fileType: 'json', jsonShape: 'ndjson' });
    expect(detectFileType('a.jsonl')).toEqual({ fileType: 'json', jsonShape: 'ndjson' });
  });

  it('lets the schema type win over the extension, but never over a refused one', () => {
    expect(detectFileType('a.csv', undefined, 'json')).toEqual({ fileType: 'json' });
    expect(detectFileType('a.ndjson', undefined, 'csv')).toEqual({ fileType: 'csv' });
    expect(detectFileType('sheet.xlsx', undefined, 'csv')).toBeNull();
    expect(detectFileType('setup.exe', bytes('MZ'))).toBeNull();
  });

  it('a name without an extension: the schema type, else the first bytes, else refused', () => {
    expect(detectFileType('data', undefined, 'json')).toEqual({ fileType: 'json' });
    expect(detectFileType('data', bytes('\uFEFF \n [1]'))).toEqual({ fileType: 'json' });
    expect(detectFileType('data', bytes('a,b\n'))).toEqual({ fileType: 'csv' });
    expect(detectFileType('data')).toBeNull();
    expect(detectFileType('data', new Uint8Array())).toBeNull();
  });

  it('names and sniffs', () => {
    expect(fileNameKind('x.tar.gz')).toBe('other');
    expect(fileNameKind('.hidden/x')).toBe('none');
    expect(sniffFileType(bytes('{"a":1}'))).toBe('json');
    expect(sniffFileType(bytes('id\n'))).toBe('csv');
  });
});
