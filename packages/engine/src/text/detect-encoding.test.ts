import { describe, expect, it } from 'vitest';
import { detectEncoding } from './detect-encoding.ts';
import { incompleteUtf8Tail } from './utf8.ts';

const bytes = (...b: number[]) => Uint8Array.from(b);
const ascii = (text: string) => [...new TextEncoder().encode(text)];

describe('detectEncoding', () => {
  it('follows a byte order mark', () => {
    expect(detectEncoding(bytes(0xef, 0xbb, 0xbf, 0x61), true)).toEqual({
      encoding: 'utf-8',
      bomLength: 3,
    });
    expect(detectEncoding(bytes(0xff, 0xfe, 0x61, 0), true)).toEqual({
      encoding: 'utf-16le',
      bomLength: 2,
    });
    expect(detectEncoding(bytes(0xfe, 0xff, 0, 0x61), true)).toEqual({
      encoding: 'utf-16be',
      bomLength: 2,
    });
    // The BOM wins even over bytes that are not UTF-8.
    expect(detectEncoding(bytes(0xef, 0xbb, 0xbf, 0xe9), true).encoding).toBe('utf-8');
  });

  it('reads ASCII and valid UTF-8 as UTF-8', () => {
    expect(detectEncoding(bytes(...ascii('id,name\n1,x\n')), true)).toEqual({
      encoding: 'utf-8',
      bomLength: 0,
    });
    expect(detectEncoding(bytes(...ascii('a,'), 0xc3, 0xa9), true).encoding).toBe('utf-8');
    expect(detectEncoding(bytes(), true).encoding).toBe('utf-8');
  });

  it('takes bytes that are not UTF-8, without any multi-byte UTF-8 character, as Windows-1252', () => {
    expect(detectEncoding(bytes(...ascii('name\nCaf'), 0xe9, 0x0a), true).encoding).toBe(
      'windows-1252',
    );
    expect(detectEncoding(bytes(...ascii('price\n5'), 0x80, 0x0a), true).encoding).toBe(
      'windows-1252',
    );
  });

  it('keeps UTF-8 when the sample also holds a well-formed multi-byte character', () => {
    expect(detectEncoding(bytes(0xc3, 0xa9, 0x2c, 0xe9), true).encoding).toBe('utf-8');
  });

  it('does not hold a character cut by the end of a partial sample against UTF-8', () => {
    expect(detectEncoding(bytes(0x61, 0xe2, 0x82), false).encoding).toBe('utf-8');
    // At the end of the file the same bytes are broken, and nothing else is multi-byte.
    expect(detectEncoding(bytes(0x61, 0xe2, 0x82), true).encoding).toBe('windows-1252');
  });
});

describe('incompleteUtf8Tail', () => {
  it('counts the bytes of a character that the next chunk may complete', () => {
    expect(incompleteUtf8Tail(bytes(0x61))).toBe(0);
    expect(incompleteUtf8Tail(bytes(0x61, 0xc3))).toBe(1);
    expect(incompleteUtf8Tail(bytes(0xc3, 0xa9))).toBe(0);
    expect(incompleteUtf8Tail(bytes(0xe2, 0x82))).toBe(2);
    expect(incompleteUtf8Tail(bytes(0xf0, 0x9f, 0x98))).toBe(3);
    expect(incompleteUtf8Tail(bytes(0xf0, 0x9f, 0x98, 0x80))).toBe(0);
    // Lone continuation bytes and bytes that never start a character are not carried.
    expect(incompleteUtf8Tail(bytes(0x80, 0x80, 0x80))).toBe(0);
    expect(incompleteUtf8Tail(bytes(0x61, 0xff))).toBe(0);
  });
});
