// The structure of a top-level JSON array on the byte core (decision 251): where the elements
// begin, for cutting the file into ranges (parallel/json-plan.ts). The core visits only the bytes
// that can matter, found sixteen at a time; json-plan.ts keeps the same scan in JavaScript for
// runtimes without WebAssembly, and tests hold the two to the same answers.
import { instantiateByteCore, type ByteCoreExports } from './load.ts';

/** Where a scan of an array's body stands between two blocks. */
export interface ArrayState {
  /** Elements begun: commas at depth 1. */
  records: number;
  inString: boolean;
  /** Just after a backslash in a string. */
  escaped: boolean;
  /** Brackets and braces open; the array's own is 1, and 0 once it has closed. */
  depth: number;
}

/** What a scan of a block read. */
export interface ArrayRead {
  /** Bytes read. */
  read: number;
  /** It stopped after a comma at depth 1. */
  cut: boolean;
  /** Line feeds among the bytes read (a raw one in a string too, as the reader's lines count). */
  lineFeeds: number;
  /** The offset after the last of them; -1: none. */
  afterLineFeed: number;
}

/**
 * Follows the array's structure over `bytes`, continuing `state`. Stops after the bracket that
 * closes the array, or with `firstCut` after the first comma at depth 1.
 */
export type ArrayStructure = (state: ArrayState, bytes: Uint8Array, firstCut: boolean) => ArrayRead;

interface JsonArrayExports extends ByteCoreExports {
  reserve(bytes: number): number;
  jsonArrayScan(state: number, input: number, len: number, firstCut: boolean): number;
}

/** The core's ArrayStructure, with a memory of its own; undefined without WebAssembly. */
export function coreArrayStructure(): ArrayStructure | undefined {
  const instance = instantiateByteCore();
  if (instance === undefined) return undefined;
  const core = instance.exports as JsonArrayExports;
  let capacity = -1;
  let base = 0;
  return (state, bytes, firstCut) => {
    if (bytes.length > capacity) {
      // Seven state words, then the input and the 16 bytes the core may read past it.
      base = core.reserve(32 + bytes.length + 16);
      if (base < 0) throw new RangeError('the byte core could not grow its memory');
      capacity = bytes.length;
    }
    const input = base + 32;
    new Uint8Array(core.memory.buffer).set(bytes, input);
    const words = new Int32Array(core.memory.buffer, base, 7);
    words[0] = state.records;
    words[1] = state.inString ? 1 : 0;
    words[2] = state.escaped ? 1 : 0;
    words[3] = state.depth;
    const found = core.jsonArrayScan(base, input, bytes.length, firstCut);
    state.records = words[0]!;
    state.inString = words[1] === 1;
    state.escaped = words[2] === 1;
    state.depth = words[3]!;
    return { read: words[4]!, cut: found >= 0, lineFeeds: words[5]!, afterLineFeed: words[6]! };
  };
}
