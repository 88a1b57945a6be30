import { describe, expect, it } from 'vitest';
import { bytesSource } from '../src/archive/byte-source.ts';
import { openZip } from '../src/archive/zip.ts';
import { readSharedStrings } from '../src/xlsx/shared-strings.ts';
import { cuttingPlatform, nodePlatform } from './archive-platform.ts';
import { writeZip } from './zip-writer.ts';

// The shared-string table held in blocks (decision 209): every string comes back as written,
// across block boundaries, with Latin-1 and wider text kept apart, wherever the inflater cuts
// the XML; a damaged reference reads as empty.

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function table(strings: string[]): string {
  const items = strings.map((s, i) =>
    s === ''
      ? '<si/>'
      : i % 7 === 3
        ? `<si><r><t>${xmlText(s.slice(0, 2))}</t></r><r><t xml:space="preserve">${xmlText(s.slice(2))}</t></r></si>`
        : `<si><t>${xmlText(s)}</t></si>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}">${items.join('')}</sst>`;
}

describe('the shared-string table', () => {
  const strings = Array.from({ length: 1500 }, (_, i) =>
    i % 97 === 0
      ? ''
      : i % 41 === 0
        ? `naïve ☃ café ${i} 😀`
        : i % 13 === 0
          ? `R&D <${i}> ${'x'.repeat(i % 50)}`
          : `item-${i}-${'é'.repeat(i % 3)}`,
  );

  it.each([
    ['whole', nodePlatform],
    [
      'cut into 1,000-byte pieces',
      cuttingPlatform((n) => [...Array(Math.ceil(n / 1000)).keys()].map((k) => k * 1000)),
    ],
  ])('gives every string back as written (%s)', async (_, platform) => {
    const zip = await openZip(
      bytesSource(
        writeZip([{ name: 'xl/sharedStrings.xml', data: table(strings), deflate: true }]),
      ),
      platform.inflateRaw,
      {},
      'book.xlsx',
    );
    const read = await readSharedStrings(zip, 'xl/sharedStrings.xml');
    expect(read.count).toBe(strings.length);
    expect(Array.from({ length: read.count }, (_, i) => read.get(i))).toEqual(strings);
    for (const bad of [-1, strings.length, 1.5, Number.NaN]) expect(read.get(bad)).toBe('');
  });
});
