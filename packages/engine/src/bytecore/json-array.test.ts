// The byte core's scan of a JSON array against the JavaScript one it mirrors (parallel/
// json-plan.ts jsArrayStructure): for generated bodies, valid JSON or not (escaped quotes and
// backslashes, brackets inside strings, a backslash at a block's end, multibyte text, line feeds,
// stray closing brackets), cut into blocks of every size, with and without stopping at the first
// cut, both leave the same state after every block and read as far.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsArrayStructure } from '../parallel/json-plan.ts';
import {
  type ArrayRead,
  type ArrayState,
  type ArrayStructure,
  coreArrayStructure,
} from './json-array.ts';

const PIECES = [
  '{',
  '}',
  '[',
  ']',
  ',',
  '"',
  '\\',
  '\\"',
  '\\\\',
  ':',
  ' ',
  '\n',
  'a',
  '12',
  'é',
  '😀',
  '"x,y]"',
  '{"id":1,"s":"a\\"b"}',
  '[1,[2,{"k":"]"}]]',
];

const body = fc
  .array(fc.constantFrom(...PIECES), { maxLength: 120 })
  .map((parts) => new TextEncoder().encode(parts.join('')));

interface Step extends ArrayRead {
  state: ArrayState;
}

/** Scans `bytes` block by block as planJsonRanges does, each block from where the last read up to. */
function run(structure: ArrayStructure, bytes: Uint8Array, block: number, firstCut: boolean) {
  const state: ArrayState = { records: 0, inString: false, escaped: false, depth: 1 };
  const steps: Step[] = [];
  for (let pos = 0; pos < bytes.length;) {
    const piece = bytes.subarray(pos, Math.min(bytes.length, pos + block));
    const read = structure(state, piece, firstCut);
    steps.push({ state: { ...state }, ...read });
    // After a cut the next scan starts past it; otherwise at the block's end (what it left
    // unread lies after the array's end, which it read up to again and again).
    pos += read.cut ? read.read : piece.length;
  }
  return steps;
}

describe('the byte core on a JSON array', () => {
  const core = coreArrayStructure();

  it('is there wherever the engine runs in these tests', () => {
    expect(core).toBeDefined();
  });

  it('leaves the state the JavaScript scan leaves, block by block', () => {
    fc.assert(
      fc.property(body, fc.integer({ min: 1, max: 40 }), fc.boolean(), (bytes, block, firstCut) => {
        expect(run(core!, bytes, block, firstCut)).toEqual(
          run(jsArrayStructure, bytes, block, firstCut),
        );
      }),
      { numRuns: 600 },
    );
  });

  it('finds the elements of a large array and stops at its end', () => {
    const elements = Array.from({ length: 5000 }, (_, i) => `{"id":${i},"s":"a\\"],{b"}`);
    const bytes = new TextEncoder().encode(`${elements.join(',\n')}]  [1,2]`);
    for (const structure of [core!, jsArrayStructure]) {
      const state: ArrayState = { records: 0, inString: false, escaped: false, depth: 1 };
      const { read, cut, lineFeeds } = structure(state, bytes, false);
      expect({ records: state.records, depth: state.depth, cut, lineFeeds }).toEqual({
        records: 4999,
        depth: 0,
        cut: false,
        lineFeeds: 4999,
      });
      expect(new TextDecoder().decode(bytes.subarray(read))).toBe('  [1,2]');
    }
  });

  it('stops after the first comma between elements when asked', () => {
    const bytes = new TextEncoder().encode('{"a":[1,2],"b":"x,y"} , {"c":3}]');
    const state: ArrayState = { records: 0, inString: false, escaped: false, depth: 1 };
    const { read, cut } = core!(state, bytes, true);
    expect({ read, cut, records: state.records }).toEqual({ read: 23, cut: true, records: 1 });
    // Line feeds past the cut are not the block's yet.
    const lines = new TextEncoder().encode('1,\n2,\n3]');
    const fresh: ArrayState = { records: 0, inString: false, escaped: false, depth: 1 };
    expect(core!(fresh, lines, true)).toEqual({
      read: 2,
      cut: true,
      lineFeeds: 0,
      afterLineFeed: -1,
    });
    expect(core!(fresh, lines.subarray(2), false)).toEqual({
      read: 6,
      cut: false,
      lineFeeds: 2,
      afterLineFeed: 4,
    });
  });
});
