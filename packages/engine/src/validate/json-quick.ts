// The JSON fast path: most records of a real file are well-formed objects with nothing to report,
// and building each of them with JSON.parse only to look at a few properties was most of the
// engine's JSON time. This walks a record's text once, checks its syntax as strictly as
// JSON.parse, matches keys to schema fields without allocating, and hands each schema field's
// value to the same compiled check the normal path uses. It answers only "this record is clean,
// it ends here"; at the first thing it would have to report, or does not handle (escaped keys, long
// numbers, deep nesting, a value that is an object or array of a checked field), it gives up and
// the record is read the normal way, which then says everything there is to say. So the two paths
// cannot disagree about a record with issues: only one of them ever reports.

import { QUICK_RECORD_MAX_DEPTH, type QuickRecord } from '../json/reader.ts';
import { SAFE_NUMBER_DIGITS } from '../json/numbers.ts';
import type { CompiledField, Failure } from './compile.ts';
import { slotText, type JsonNode, type SlotReading } from './json-fields.ts';
import { ABSENT, RowView, type CompiledRules, type RuleFailure } from './cross-field.ts';
import {
  TAB,
  LINE_FEED,
  CARRIAGE_RETURN,
  SPACE,
  QUOTE,
  PLUS,
  COMMA,
  MINUS,
  DOT,
  ZERO,
  NINE,
  COLON,
  OPEN_BRACKET,
  BACKSLASH,
  CLOSE_BRACKET,
  OPEN_BRACE,
  CLOSE_BRACE,
  LOWER_F,
  LOWER_N,
  LOWER_T,
} from '../json/char-codes.ts';

const GIVE_UP = -1;
/** What may follow a backslash besides `u`: " \ / b f n r t. */
const SIMPLE_ESCAPES = [0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74];
/** Raw control characters JSON strings may not hold, besides line feed, return and tab. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const OTHER_CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f]/;

/** A schema node with what the walk needs at hand. */
interface QuickNode {
  key: string;
  /** Slot in the walk's `seenIn` table. */
  slot: number;
  /** Position among its parent's children. */
  index: number;
  /** The key in quotes as JSON writes it when it needs no escape, else ''. */
  quoted: string;
  field: CompiledField | undefined;
  children: QuickNode[];
  /** Required fields or objects at or below it: its absence (or null) is something to report. */
  required: boolean;
  /** As an object, a property the schema does not describe is something to report. */
  strict: boolean;
  /** The cross-field rules' slot its value fills (-1: none), and how a rule reads it. */
  ruleSlot: number;
  reading: SlotReading | undefined;
}

/** The schema's cross-field rules, and each rule slot's property path and reading. */
export interface QuickJsonRules {
  rules: CompiledRules;
  slotKeys: readonly (readonly string[])[];
  slotReadings: readonly SlotReading[];
}

/** `"key"` as JSON writes a key that needs no escape; '' for one that does. */
function quotedKey(key: string): string {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < SPACE || c === QUOTE || c === BACKSLASH) return '';
  }
  return `"${key}"`;
}

function quickTree(node: JsonNode, index: number, nextSlot: { n: number }): QuickNode {
  return {
    key: node.key,
    slot: nextSlot.n++,
    index,
    quoted: quotedKey(node.key),
    field: node.field,
    children: node.children.map((child, k) => quickTree(child, k, nextSlot)),
    required: node.requiredBelow.length > 0,
    strict: node.strict,
    ruleSlot: -1,
    reading: undefined,
  };
}

/** Marks the node of each rule slot; false when a slot's path is not a field of the tree. */
function markSlots(tree: QuickNode, rules: QuickJsonRules): boolean {
  for (let s = 0; s < rules.slotKeys.length; s++) {
    let node: QuickNode | undefined = tree;
    for (const key of rules.slotKeys[s] as readonly string[])
      node = node?.children.find((c) => c.key === key);
    // Two fields on one property: left to the normal path, which reads each.
    if (node?.field === undefined || node.ruleSlot >= 0) return false;
    node.ruleSlot = s;
    node.reading = rules.slotReadings[s];
  }
  return true;
}

/**
 * `startRow` is the run's: a record past the row limit is left to the normal path, which ignores it.
 * In a strict node (JsonNode.strict), a property the schema does not describe is something to report.
 */
export function createQuickRecord(root: JsonNode, startRow: (row: number) => boolean): QuickRecord;
/** With rules, undefined where the rules' slots cannot be told apart by property (two fields on one). */
export function createQuickRecord(
  root: JsonNode,
  startRow: (row: number) => boolean,
  quickRules: QuickJsonRules | undefined,
): QuickRecord | undefined;
export function createQuickRecord(
  root: JsonNode,
  startRow: (row: number) => boolean,
  quickRules?: QuickJsonRules,
): QuickRecord | undefined {
  const slots = { n: 0 };
  const tree = quickTree(root, 0, slots);
  if (quickRules !== undefined && !markSlots(tree, quickRules)) return undefined;
  // With rules: each rule slot's value as a rule reads it (json-records.ts readSlot), filled as
  // the walk meets the values, for the rules to run once the record is otherwise clean.
  const rules = quickRules?.rules;
  const view = new RowView(quickRules?.slotKeys.length ?? 0);
  const ruleFailures: RuleFailure[] = [];
  /** The object visit in which each node's key was last seen: a duplicate key gives up. */
  const seenIn = new Float64Array(slots.n);
  let visits = 0;
  const out: Failure[] = [];
  // Checks that remember values across rows (unique) run only once the record is otherwise clean.
  const deferredFields: CompiledField[] = [];
  const deferredValues: unknown[] = [];
  let row = 0;

  // The piece being read and, for the strings in it, the next backslash, line feed, carriage
  // return and tab at or after where each was last searched: found with indexOf once per piece,
  // not looked for character by character in every string (a charCodeAt loop costs several times
  // more here). Control characters other than those three make the whole piece go the normal way.
  let text = '';
  /** Where the record must end: the piece's end, or its line's. */
  let n = 0;
  let controls = false;
  let nextBackslash = -1;
  let nextLineFeed = -1;
  let nextReturn = -1;
  let nextTab = -1;
  /** The furthest position searched from: the positions found hold for any start at or past it. */
  let reached = 0;
  /** Set by stringEnd. */
  let escaped = false;

  /** An equal text has the same positions, so only going back before `reached` needs new searches. */
  function usePiece(piece: string, start: number, mayHaveControls: boolean): void {
    if (piece === text && start >= reached) return;
    text = piece;
    // The reader has mostly looked already, on the bytes (text/controls.ts).
    controls = mayHaveControls && OTHER_CONTROLS.test(piece);
    nextBackslash = nextLineFeed = nextReturn = nextTab = -1;
    reached = 0;
  }

  function next(char: string, from: number): number {
    if (from > reached) reached = from;
    const at = text.indexOf(char, from);
    return at < 0 ? text.length : at;
  }

  function skipWhitespace(i: number): number {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c !== SPACE && c !== LINE_FEED && c !== CARRIAGE_RETURN && c !== TAB) return i;
      i++;
    }
    return i;
  }

  /**
   * i is after the opening quote; returns the index of the closing quote. `escaped` tells whether
   * the string holds escapes (its text is then not its value).
   */
  function stringEnd(i: number): number {
    const quote = text.indexOf('"', i);
    if (quote < 0 || quote >= n) return GIVE_UP;
    if (nextBackslash < i) nextBackslash = next('\\', i);
    escaped = nextBackslash < quote;
    if (escaped) return escapedStringEnd(i);
    // A raw control character: left to the normal path, which reports it.
    if (nextLineFeed < i) nextLineFeed = next('\n', i);
    if (nextLineFeed < quote) return GIVE_UP;
    if (nextReturn < i) nextReturn = next('\r', i);
    if (nextReturn < quote) return GIVE_UP;
    if (nextTab < i) nextTab = next('\t', i);
    if (nextTab < quote) return GIVE_UP;
    return quote;
  }

  /** A string with escapes, read character by character from i: its closing quote. */
  function escapedStringEnd(i: number): number {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) return i;
      if (c < SPACE) return GIVE_UP;
      if (c !== BACKSLASH) {
        i++;
        continue;
      }
      const e = text.charCodeAt(i + 1);
      if (e === 0x75) {
        // \uXXXX
        for (let k = i + 2; k < i + 6; k++) {
          const h = text.charCodeAt(k) | 0x20;
          if (!((h >= ZERO && h <= NINE) || (h >= 0x61 && h <= 0x66))) return GIVE_UP;
        }
        i += 6;
      } else if (SIMPLE_ESCAPES.includes(e)) {
        i += 2;
      } else {
        return GIVE_UP;
      }
    }
    return GIVE_UP;
  }

  function digitsEnd(i: number): number {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c < ZERO || c > NINE) return i;
      i++;
    }
    return i;
  }

  /** The end of the number literal at i (any JSON number), or GIVE_UP. */
  function numberEnd(i: number): number {
    if (i < n && text.charCodeAt(i) === MINUS) i++;
    if (i >= n) return GIVE_UP;
    const first = text.charCodeAt(i);
    if (first === ZERO) i++;
    else if (first > ZERO && first <= NINE) i = digitsEnd(i + 1);
    else return GIVE_UP;
    if (i < n && text.charCodeAt(i) === DOT) {
      const fraction = i + 1;
      i = digitsEnd(fraction);
      if (i === fraction) return GIVE_UP;
    }
    if (i < n && (text.charCodeAt(i) | 0x20) === 0x65) {
      i++;
      if (i < n && (text.charCodeAt(i) === PLUS || text.charCodeAt(i) === MINUS)) i++;
      const exponent = i;
      i = digitsEnd(exponent);
      if (i === exponent) return GIVE_UP;
    }
    return i;
  }

  /**
   * The value of the number literal [start, end) as JSON.parse gives it, or NaN when that takes
   * more than this: an exponent, or more digits than a double holds exactly (the normal path keeps
   * those as LosslessNumber). With at most 15 digits the digits are an exact integer and a power of
   * ten up to 10^15 is exact, so one division rounds once, exactly like parsing the text.
   */
  function numberValue(start: number, end: number): number {
    if (end - start > SAFE_NUMBER_DIGITS) return NaN;
    let i = start;
    const negative = text.charCodeAt(i) === MINUS;
    if (negative) i++;
    let digits = 0;
    let scale = 1;
    let inFraction = false;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === DOT) inFraction = true;
      else if (c >= ZERO && c <= NINE) {
        digits = digits * 10 + (c - ZERO);
        if (inFraction) scale *= 10;
      } else return NaN;
    }
    const value = digits / scale;
    return negative ? -value : value;
  }

  /** The end of `word` at i, or GIVE_UP. */
  function literalEnd(i: number, word: string): number {
    if (i + word.length > n) return GIVE_UP;
    for (let k = 0; k < word.length; k++) {
      if (text.charCodeAt(i + k) !== word.charCodeAt(k)) return GIVE_UP;
    }
    return i + word.length;
  }

  /** Any JSON value at i, checked for syntax only; returns its end. */
  function skipValue(i: number, depth: number): number {
    if (i >= n) return GIVE_UP;
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(i + 1);
      return end < 0 ? GIVE_UP : end + 1;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (depth >= QUICK_RECORD_MAX_DEPTH) return GIVE_UP;
      const close = c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
      i = skipWhitespace(i + 1);
      if (text.charCodeAt(i) === close) return i + 1;
      for (;;) {
        if (close === CLOSE_BRACE) {
          if (text.charCodeAt(i) !== QUOTE) return GIVE_UP;
          const keyEnd = stringEnd(i + 1);
          if (keyEnd < 0) return GIVE_UP;
          i = skipWhitespace(keyEnd + 1);
          if (text.charCodeAt(i) !== COLON) return GIVE_UP;
          i = skipWhitespace(i + 1);
        }
        i = skipValue(i, depth + 1);
        if (i < 0) return GIVE_UP;
        i = skipWhitespace(i);
        const next = text.charCodeAt(i);
        if (next === close) return i + 1;
        if (next !== COMMA) return GIVE_UP;
        i = skipWhitespace(i + 1);
      }
    }
    if (c === LOWER_T) return literalEnd(i, 'true');
    if (c === LOWER_F) return literalEnd(i, 'false');
    if (c === LOWER_N) return literalEnd(i, 'null');
    return numberEnd(i);
  }

  /** False when the value has something to report (nothing is reported here). */
  function passes(field: CompiledField, value: unknown): boolean {
    if (field.stateful) {
      deferredFields.push(field);
      deferredValues.push(value);
      return true;
    }
    return passesNow(field, value);
  }

  function passesNow(field: CompiledField, value: unknown): boolean {
    field.checkJson(value, row, out);
    if (out.length === 0) return true;
    out.length = 0;
    return false;
  }

  /** The value at i of a property the schema describes; returns its end. */
  function nodeValue(node: QuickNode, i: number, depth: number): number {
    if (i >= n) return GIVE_UP;
    const field = node.field;
    const c = text.charCodeAt(i);
    if (c === OPEN_BRACE) {
      // A checked field's object value, or anything not an object where nested fields are
      // expected, is a type error: left to the normal path, which reports it.
      if (field !== undefined || depth >= QUICK_RECORD_MAX_DEPTH) return GIVE_UP;
      return object(node, i, depth + 1);
    }
    // null is no value: fine unless something below is required.
    if (c === LOWER_N) {
      const end = literalEnd(i, 'null');
      return end < 0 || node.required ? GIVE_UP : end;
    }
    if (field === undefined) return GIVE_UP;
    let end: number;
    let value: unknown;
    if (c === QUOTE) {
      end = stringEnd(i + 1);
      if (end < 0) return GIVE_UP;
      // Most strings are checked where they lie, as CSV cells are: no string cut per value.
      const inPlace = field.checkJsonString;
      if (!escaped && inPlace !== undefined && !field.stateful) {
        inPlace(text, i + 1, end, row, out);
        if (out.length !== 0) {
          out.length = 0;
          return GIVE_UP;
        }
        if (node.ruleSlot >= 0) {
          if ((node.reading as SlotReading).strings && end > i + 1)
            view.set(node.ruleSlot, text, i + 1, end);
          else view.opaque(node.ruleSlot);
        }
        return end + 1;
      }
      // JSON.parse itself turns escapes into the value, as the normal path would.
      value = escaped ? JSON.parse(text.slice(i, end + 1)) : text.slice(i + 1, end);
      end++;
    } else if (c === LOWER_T) {
      end = literalEnd(i, 'true');
      value = true;
    } else if (c === LOWER_F) {
      end = literalEnd(i, 'false');
      value = false;
    } else {
      end = numberEnd(i);
      if (end < 0) return GIVE_UP;
      value = numberValue(i, end);
      if (value !== value) return GIVE_UP;
    }
    if (end < 0 || !passes(field, value)) return GIVE_UP;
    if (node.ruleSlot >= 0) {
      const ruleText = slotText(node.reading as SlotReading, value);
      // A JSON "" is a value, unlike an empty CSV cell: present, as the field checks read it.
      if (ruleText === undefined || ruleText === '') view.opaque(node.ruleSlot);
      else view.set(node.ruleSlot, ruleText, 0, ruleText.length);
    }
    return end;
  }

  /** The child of `node` whose key is text[start, end), if any. */
  function childAt(node: QuickNode, start: number, end: number, hint: number): QuickNode | null {
    const children = node.children;
    const length = end - start;
    const count = children.length;
    // Records usually list properties in the schema's order: try the one after the last first.
    for (let k = 0, at = hint; k < count; k++, at++) {
      const child = children[at < count ? at : at - count] as QuickNode;
      if (child.key.length === length && text.startsWith(child.key, start)) return child;
    }
    return null;
  }

  /** The object at i (a `{`) described by `node`; returns its end. */
  function object(node: QuickNode, i: number, depth: number): number {
    const visit = ++visits;
    const children = node.children;
    let hint = 0;
    i = skipWhitespace(i + 1);
    if (text.charCodeAt(i) !== CLOSE_BRACE) {
      for (;;) {
        if (text.charCodeAt(i) !== QUOTE) return GIVE_UP;
        let child: QuickNode | null;
        let keyEnd: number;
        // Usually the key is the next one in the schema's order, written as it is.
        const expected = hint < children.length ? (children[hint] as QuickNode) : undefined;
        if (
          expected !== undefined &&
          expected.quoted !== '' &&
          text.startsWith(expected.quoted, i)
        ) {
          child = expected;
          keyEnd = i + expected.quoted.length - 1;
        } else {
          keyEnd = stringEnd(i + 1);
          // An escaped key would have to be decoded to be matched: rare, left to the normal path.
          if (keyEnd < 0 || escaped) return GIVE_UP;
          child = childAt(node, i + 1, keyEnd, hint);
        }
        i = skipWhitespace(keyEnd + 1);
        if (text.charCodeAt(i) !== COLON) return GIVE_UP;
        i = skipWhitespace(i + 1);
        if (child === null) {
          if (node.strict) return GIVE_UP;
          i = skipValue(i, depth);
        } else {
          // A repeated key: JSON.parse keeps the last value; not worth following here.
          if (seenIn[child.slot] === visit) return GIVE_UP;
          seenIn[child.slot] = visit;
          hint = child.index + 1;
          i = nodeValue(child, i, depth);
        }
        if (i < 0) return GIVE_UP;
        i = skipWhitespace(i);
        const c = text.charCodeAt(i);
        if (c === CLOSE_BRACE) break;
        if (c !== COMMA) return GIVE_UP;
        i = skipWhitespace(i + 1);
      }
    }
    for (let k = 0; k < children.length; k++) {
      const child = children[k] as QuickNode;
      if (child.required && seenIn[child.slot] !== visit) return GIVE_UP;
    }
    return i + 1;
  }

  function walk(start: number, line: boolean): number {
    if (text.charCodeAt(start) !== OPEN_BRACE) return GIVE_UP;
    if (rules !== undefined) view.starts.fill(ABSENT);
    const after = object(tree, start, 1);
    if (after < 0) return GIVE_UP;
    if (line) {
      for (let i = after; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c !== SPACE && c !== TAB && c !== CARRIAGE_RETURN) return GIVE_UP;
      }
    }
    for (let k = 0; k < deferredFields.length; k++) {
      if (!passesNow(deferredFields[k] as CompiledField, deferredValues[k])) return GIVE_UP;
    }
    // The rules last, uniqueTogether after the others, as the normal path runs them.
    if (rules !== undefined) {
      rules.checkRow(view, row, ruleFailures);
      if (ruleFailures.length === 0 && rules.stateful) rules.checkKeys(view, row, ruleFailures);
      if (ruleFailures.length !== 0) {
        ruleFailures.length = 0;
        return GIVE_UP;
      }
    }
    return after;
  }

  return (piece, start, end, recordRow, line, mayHaveControls) => {
    if (!startRow(recordRow)) return GIVE_UP;
    usePiece(piece, start, mayHaveControls);
    if (controls) return GIVE_UP;
    // Nothing at or past n is read as part of the record, except the single character at n when
    // a comparison needs one: a line's line feed (never a JSON token) or NaN past the piece.
    n = end;
    row = recordRow;
    const after = walk(start, line);
    // Setting an array's length is a runtime call: only when there is something to drop.
    if (out.length !== 0) out.length = 0;
    if (deferredFields.length !== 0) {
      deferredFields.length = 0;
      deferredValues.length = 0;
    }
    return after;
  };
}
