// Whether a JSON file can be validated in ranges (decision 247), and where the ranges start: the
// plan decided on the file's first bytes, and the boundary scan that cuts the file.
//
// NDJSON is cut just after a line feed: a raw LF cannot occur inside a JSON string, so every LF
// ends a line. A top-level array is cut just after a comma between two elements, found by a scan
// that follows strings (with their escapes) and brackets; quote parity alone would take `"\""` for
// two strings. Each cut carries what a reader resumed there needs: the records before it (NDJSON:
// the lines that are not blank; an array: the commas at depth 1), and its line and column.
//
// Nothing here has to be right for the result to be right: the range before a cut checks, once it
// has read its whole range, that its reader stands at a record boundary with exactly the records
// the scan counted (ranges.ts); otherwise it reads on to the end of the file. What is not checked
// is derived from bytes that reader has verified: lines are line feeds, and a column on a line of
// valid UTF-8 is its code points (the bytes that are not continuation bytes).

import {
  type ArrayState,
  type ArrayStructure,
  coreArrayStructure,
} from '../bytecore/json-array.ts';
import type { JsonResume } from '../json/reader.ts';
import { detectEncoding, ENCODING_SAMPLE_BYTES } from '../text/detect-encoding.ts';
import type { PlannedChunk } from './merge.ts';
import { rangesBetween, type ReadAt } from './ranges.ts';

/** How many of the file's first bytes planJsonSplit needs (all of a smaller file). */
export const JSON_PLAN_SAMPLE_BYTES = ENCODING_SAMPLE_BYTES;

export interface JsonSplitPlan {
  shape: 'array' | 'ndjson';
  /** The shape the caller forced (ValidateOptions.jsonShape), for the first range. */
  forced: 'array' | 'ndjson' | undefined;
  /** The file's bytes [0, bodyStart): its BOM, and for an array everything up to its `[`. */
  bodyStart: number;
  /** A UTF-8 byte order mark: not counted in columns. */
  bomLength: number;
}

export type JsonSplitDecision = { ok: true; plan: JsonSplitPlan } | { ok: false; reason: string };

const LF = 0x0a;
const CR = 0x0d;
const TAB = 0x09;
const SPACE = 0x20;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * `sample` is the file's first JSON_PLAN_SAMPLE_BYTES bytes, or the whole file when smaller;
 * `shape` the one the caller forces, if any. A file ranges could read otherwise than the whole
 * file is refused with the reason, and validated in one piece: UTF-16, one JSON value, nothing
 * in it, or NDJSON (not forced) whose first line is not one whole, valid value (the reader would
 * then decide the file's shape from what follows).
 */
export function planJsonSplit(
  sample: Uint8Array,
  shape?: 'array' | 'object' | 'ndjson',
): JsonSplitDecision {
  if (shape === 'object') return { ok: false, reason: 'the file is one JSON value' };
  // The reader reads UTF-8 whatever the bytes (invalid ones are its encoding errors, which
  // ranges report as it does); a UTF-16 byte order mark makes the whole file one error.
  const encoding = detectEncoding(sample, sample.length < JSON_PLAN_SAMPLE_BYTES);
  if (encoding.encoding === 'utf-16le' || encoding.encoding === 'utf-16be')
    return { ok: false, reason: `the file is ${encoding.encoding}` };
  const bomLength = encoding.bomLength;
  let p = bomLength;
  while (p < sample.length && isWhitespace(sample[p]!)) p++;
  if (p === sample.length) return { ok: false, reason: 'nothing but blanks in the first bytes' };
  if (shape === 'array' || (shape === undefined && sample[p] === OPEN_BRACKET)) {
    if (sample[p] !== OPEN_BRACKET) return { ok: false, reason: 'the array does not start with [' };
    return { ok: true, plan: { shape: 'array', forced: shape, bodyStart: p + 1, bomLength } };
  }
  // Forced NDJSON (a .ndjson name) is read line by line from the start: nothing to detect.
  if (shape === 'ndjson')
    return { ok: true, plan: { shape: 'ndjson', forced: shape, bodyStart: bomLength, bomLength } };
  const lineEnd = sample.indexOf(LF, p);
  if (lineEnd < 0) return { ok: false, reason: 'the first line does not end in the first bytes' };
  try {
    JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(sample.subarray(p, lineEnd)));
  } catch {
    return { ok: false, reason: 'the first line is not one valid JSON value' };
  }
  return { ok: true, plan: { shape: 'ndjson', forced: shape, bodyStart: bomLength, bomLength } };
}

function isWhitespace(b: number): boolean {
  return b === SPACE || b === LF || b === CR || b === TAB;
}

/** A range of a JSON file; lineBreaksBefore and predictedEndRow count records (see planJsonRanges). */
export interface JsonRange extends PlannedChunk {
  /** Line and column of the range's first character. */
  line: number;
  column: number;
}

/** Where the boundary scan stands between two blocks of the file. */
interface JsonScan extends ArrayState {
  /** Records before `at` (NDJSON: lines with something but blanks; array: elements begun). */
  records: number;
  lineFeeds: number;
  /** File offset just after the last line feed (0 before any). */
  lineStart: number;
  // NDJSON: the current line has something but blanks.
  lineHasData: boolean;
}

/**
 * Scans `bytes` (the file's bytes at offset `base` on), continuing `scan`; with `firstCut`, stops
 * just after the first byte a range may start after (NDJSON: once `minRecords` records are
 * before it) and returns its file offset, or -1 when there is none in `bytes`.
 */
type ScanStep = (
  scan: JsonScan,
  bytes: Uint8Array,
  base: number,
  firstCut: boolean,
  minRecords: number,
) => number;

const scanNdjson: ScanStep = (scan, bytes, base, firstCut, minRecords) => {
  const n = bytes.length;
  let p = 0;
  while (p < n) {
    // The line's first byte that is not a blank, if it has one before its line feed.
    if (!scan.lineHasData) {
      while (p < n) {
        const b = bytes[p]!;
        if (b === SPACE || b === TAB || b === CR) p++;
        else break;
      }
      if (p === n) break;
      if (bytes[p] !== LF) scan.lineHasData = true;
    }
    const lf = bytes.indexOf(LF, p);
    if (lf < 0) break;
    if (scan.lineHasData) scan.records++;
    scan.lineHasData = false;
    p = lf + 1;
    // Columns are not counted: an NDJSON range starts a line.
    newLine(scan, base + p);
    if (firstCut && scan.records >= minRecords) return base + p;
  }
  return -1;
};

/**
 * The array's structure in JavaScript, for runtimes without the byte core (which mirrors it:
 * bytecore/json-array.ts).
 */
export const jsArrayStructure: ArrayStructure = (state, bytes, firstCut) => {
  const n = bytes.length;
  let { inString, escaped, depth } = state;
  let cut = false;
  let p = 0;
  while (p < n && depth > 0) {
    if (inString) {
      if (escaped) {
        escaped = false;
        p++;
        continue;
      }
      // To the next quote or backslash, a byte at a time: most strings are short, and a call
      // of indexOf per string cost more than this loop (0.81x the scan's CPU, 6 paired rounds).
      let b = 0;
      while (p < n) {
        b = bytes[p]!;
        if (b === QUOTE || b === BACKSLASH) break;
        p++;
      }
      if (p === n) break;
      p++;
      if (b === QUOTE) inString = false;
      else escaped = true;
      continue;
    }
    const b = bytes[p++]!;
    if (b === QUOTE) inString = true;
    else if (b === OPEN_BRACKET || b === OPEN_BRACE) depth++;
    else if (b === CLOSE_BRACKET || b === CLOSE_BRACE) depth--;
    else if (b === COMMA && depth === 1) {
      state.records++;
      if (firstCut) {
        cut = true;
        break;
      }
    }
  }
  state.inString = inString;
  state.escaped = escaped;
  state.depth = depth;
  let lineFeeds = 0;
  let afterLineFeed = -1;
  for (let lf = bytes.indexOf(LF); lf >= 0 && lf < p; lf = bytes.indexOf(LF, lf + 1)) {
    lineFeeds++;
    afterLineFeed = lf + 1;
  }
  return { read: p, cut, lineFeeds, afterLineFeed };
};

function arrayStep(structure: ArrayStructure): ScanStep {
  return (scan, bytes, base, firstCut) => {
    const { read, cut, lineFeeds, afterLineFeed } = structure(scan, bytes, firstCut);
    if (lineFeeds > 0) {
      scan.lineFeeds += lineFeeds;
      scan.lineStart = base + afterLineFeed;
    }
    return cut ? base + read : -1;
  };
}

function newLine(scan: JsonScan, lineStart: number): void {
  scan.lineFeeds++;
  scan.lineStart = lineStart;
}

/** Code points in the file's bytes [from, to), which are valid UTF-8. */
function codePoints(read: ReadAt, from: number, to: number, blockBytes: number): number {
  let count = 0;
  for (let pos = from; pos < to;) {
    const bytes = read(pos, Math.min(blockBytes, to - pos));
    for (let i = 0; i < bytes.length; i++) if ((bytes[i]! & 0xc0) !== 0x80) count++;
    pos += bytes.length;
  }
  return count;
}

/**
 * Cuts the file into at most `count` ranges of about equal size, scanning it from its start up to
 * the last cut. The first range holds at least two NDJSON records, so that its reader (which
 * detects the shape) has settled on NDJSON at its end. A range that would be empty is joined to
 * the one before, and nothing is cut after the end of an array. An array's structure is followed
 * by the byte core where there is one.
 */
export function planJsonRanges(
  plan: JsonSplitPlan,
  read: ReadAt,
  size: number,
  count: number,
  blockBytes = 1 << 20,
): JsonRange[] {
  const step =
    plan.shape === 'array' ? arrayStep(coreArrayStructure() ?? jsArrayStructure) : scanNdjson;
  const scan: JsonScan = {
    records: 0,
    lineFeeds: 0,
    lineStart: 0,
    lineHasData: false,
    inString: false,
    escaped: false,
    depth: 1,
  };
  const minRecords = plan.forced === 'ndjson' ? 1 : 2;
  const starts: (JsonResume & { at: number })[] = [
    { at: 0, row: 0, line: 1, column: 1, shape: plan.shape, byteOffset: 0 },
  ];
  // The body is scanned: a BOM is no line's data, and an array's `[` opened the depth the scan
  // starts at (before it, blanks).
  let pos = plan.bodyStart;
  const head = read(0, plan.bodyStart);
  for (let p = plan.bomLength; p < head.length; p++) {
    if (head[p] !== LF) continue;
    newLine(scan, p + 1);
  }
  for (let i = 1; i < count && pos < size; i++) {
    const target = Math.max(pos, Math.floor((size * i) / count));
    while (pos < target) {
      const n = Math.min(blockBytes, target - pos);
      step(scan, read(pos, n), pos, false, 0);
      pos += n;
    }
    let found = -1;
    while (pos < size && found < 0 && scan.depth > 0) {
      const n = Math.min(blockBytes, size - pos);
      found = step(scan, read(pos, n), pos, true, minRecords);
      pos = found >= 0 ? found : pos + n;
    }
    if (found < 0 || found >= size) break;
    starts.push({
      at: found,
      row: scan.records,
      line: scan.lineFeeds + 1,
      // Code points since the line's start (NDJSON: none), less a BOM (the reader skips it).
      column:
        1 +
        codePoints(read, scan.lineStart, found, blockBytes) -
        (scan.lineStart === 0 && plan.bomLength > 0 ? 1 : 0),
      shape: plan.shape,
      byteOffset: found,
    });
  }
  return rangesBetween(
    starts.map((s) => ({ at: s.at, before: s.row })),
    size,
  ).map((range, i) => ({ ...range, line: starts[i]!.line, column: starts[i]!.column }));
}
