import { describe, expect, it } from 'vitest';
import { bytesSource } from '../src/archive/byte-source.ts';
import { openZip } from '../src/archive/zip.ts';
import { readSharedStrings } from '../src/xlsx/shared-strings.ts';
import { cuttingPlatform, nodePlatform } from './archive-platform.ts';
import { writeZip } from './zip-writer.ts';

// The shared-string table (decisions 209, 230, 221): every string comes back as written, escapes
// read, across block boundaries (blocks of 1,024, one of them past 64 KiB), wherever the inflater
// cuts the XML; a damaged reference reads as empty.

// Every escape a writer may use: named entities, character references and OOXML's _xHHHH_.
const xmlText = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, (_, at: number) => (at % 2 === 0 ? '&apos;' : '&#39;'))
    .replace(/\r/g, '_x000D_');

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
  // 20,000 strings fill blocks of 1,024; two of 800,000 characters make one block large.
  const strings = Array.from({ length: 20_000 }, (_, i) =>
    i % 97 === 0
      ? ''
      : i === 9_001 || i === 9_002
        ? `${i}`.repeat(200_000)
        : i % 41 === 0
          ? `naïve ☃ café ${i} 😀`
          : i % 13 === 0
            ? `R&D <${i}> "q" 'a' 'b'\r\n ${'x'.repeat(i % 50)}`
            : `item-${i}-${'é'.repeat(i % 3)}`,
  );

  it.each([
    ['whole', nodePlatform, strings],
    [
      'cut into 1,000-byte pieces',
      cuttingPlatform((n) => [...Array(Math.ceil(n / 1000)).keys()].map((k) => k * 1000)),
      strings,
    ],
    [
      'cut into 7-byte pieces',
      cuttingPlatform((n) => [...Array(Math.ceil(n / 7)).keys()].map((k) => k * 7)),
      strings.slice(0, 1500),
    ],
  ])('gives every string back as written (%s)', async (_, platform, written) => {
    const zip = await openZip(
      bytesSource(
        writeZip([{ name: 'xl/sharedStrings.xml', data: table(written), deflate: true }]),
      ),
      platform.inflateRaw,
      {},
      'book.xlsx',
    );
    const read = await readSharedStrings(zip, 'xl/sharedStrings.xml');
    expect(read.count).toBe(written.length);
    expect(Array.from({ length: read.count }, (_, i) => read.get(i))).toEqual(written);
    // Which strings CSV must quote, known without reading them again.
    expect(Array.from({ length: read.count }, (_, i) => read.needsQuotes(i))).toEqual(
      written.map((text) => /[,"\r\n]/.test(text)),
    );
    for (const bad of [-1, written.length, 1.5, Number.NaN]) expect(read.get(bad)).toBe('');
  });

  it('reads malformed UTF-8 as U+FFFD, and copies each string as the UTF-8 of its text', async () => {
    const head = '<?xml version="1.0" encoding="UTF-8"?><sst count="5">';
    const bytes = Buffer.concat([
      Buffer.from(`${head}<si><t>ok</t></si><si><t>a`),
      Buffer.from([0xff, 0x62, 0xc3]), // a stray byte, then a character cut short
      Buffer.from('</t></si><si><t>\u00e9t\u00e9 \u2603</t></si><si><t>'),
      Buffer.from([0xed, 0xa0, 0x80]), // a surrogate written as UTF-8
      Buffer.from('</t></si><si/></sst>'),
    ]);
    const zip = await openZip(
      bytesSource(writeZip([{ name: 'xl/sharedStrings.xml', data: bytes, deflate: true }])),
      nodePlatform.inflateRaw,
      {},
      'book.xlsx',
    );
    const read = await readSharedStrings(zip, 'xl/sharedStrings.xml');
    const texts = ['ok', 'a\ufffdb\ufffd', '\u00e9t\u00e9 \u2603', '\ufffd\ufffd\ufffd', ''];
    expect(Array.from({ length: read.count }, (_, i) => read.get(i))).toEqual(texts);
    texts.forEach((text, i) => {
      const out = new Uint8Array(read.byteLength(i));
      expect(read.copyInto(i, out, 0)).toBe(out.length);
      expect(new TextDecoder().decode(out)).toBe(text);
      expect(out).toEqual(new TextEncoder().encode(text));
    });
  });
});
