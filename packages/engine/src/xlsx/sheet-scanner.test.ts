import { describe, expect, it } from 'vitest';
import { createSheetScanner } from './sheet-scanner.ts';

// Writers other than Excel: a namespace prefix (the Open XML SDK's x:), single quotes, rows and
// cells without references, phonetic runs, escapes; and the bytes cut anywhere, inside a
// character too.
const XML =
  `<?xml version="1.0"?><x:worksheet xmlns:x="urn:main"><x:cols><x:col min='1'/></x:cols><x:sheetData>` +
  `<x:row r='1'><x:c r='A1' t='inlineStr'><x:is><x:t>a&amp;b</x:t></x:is></x:c><x:c t='s'><x:v>0</x:v></x:c></x:row>` +
  `<x:row r="3" spans="1:3"/>` +
  `<x:row><x:c r="C4" s="2"><x:f>A1</x:f><x:v>1.5</x:v></x:c><x:c t="inlineStr"><x:is><x:r><x:t>漢</x:t></x:r><x:rPh sb="0" eb="1"><x:t>かん</x:t></x:rPh><x:r><x:t xml:space="preserve"> x_x000D_y</x:t></x:r></x:is></x:c></x:row>` +
  `<x:row r="6"><x:c r="A6" t="e"><x:v>#N/A</x:v></x:c><x:c r="B6" t="str"><x:f>B1</x:f><x:v>&lt;tag&gt;</x:v></x:c><x:c r="C6"><x:f>1/0</x:f></x:c><x:c r="D6" s="1"/></x:row>` +
  `</x:sheetData><x:mergeCells count="1"><x:mergeCell ref="A6:B6"/></x:mergeCells></x:worksheet>`;

const BYTES = new TextEncoder().encode(XML);

function scan(pieces: Uint8Array[]) {
  const events: unknown[] = [];
  const scanner = createSheetScanner(
    {
      rowStart: (r) => events.push(['row', r]),
      number: (col, style, bytes, from, to) =>
        events.push([col, '', style, new TextDecoder().decode(bytes.subarray(from, to)), false]),
      shared: (col, style, index) => events.push([col, 's', style, String(index), false]),
      cell: (col, type, style, value, formula) => events.push([col, type, style, value, formula]),
      rowEnd: () => events.push(['end']),
      merge: (range) => events.push(['merge', range]),
    },
    'test',
  );
  // The scanner may not keep a piece: each is overwritten once pushed, as the inflater's are.
  for (const piece of pieces) {
    const copy = piece.slice();
    scanner.push(copy);
    copy.fill(0);
  }
  scanner.end();
  return events;
}

describe('sheet scanner', () => {
  it('reads rows, cells, types, styles, formulas and merges', () => {
    expect(scan([BYTES])).toEqual([
      ['row', 1],
      [0, 'inlineStr', 0, 'a&b', false],
      [1, 's', 0, '0', false],
      ['end'],
      ['row', 3],
      ['end'],
      ['row', 4],
      [2, '', 2, '1.5', true],
      [3, 'inlineStr', 0, '漢 x\ry', false],
      ['end'],
      ['row', 6],
      [0, 'e', 0, '#N/A', false],
      [1, 'str', 0, '<tag>', true],
      [2, '', 0, null, true],
      [3, '', 1, null, false],
      ['end'],
      ['merge', 'A6:B6'],
    ]);
  });

  it('gives the same events wherever the bytes are cut, once or into two cuts', () => {
    const whole = scan([BYTES]);
    for (let i = 0; i <= BYTES.length; i++) {
      expect(scan([BYTES.subarray(0, i), BYTES.subarray(i)])).toEqual(whole);
    }
    for (let i = 0; i <= BYTES.length; i += 7) {
      for (let j = i; j <= BYTES.length; j += 13) {
        expect(scan([BYTES.subarray(0, i), BYTES.subarray(i, j), BYTES.subarray(j)])).toEqual(
          whole,
        );
      }
    }
  });
});
