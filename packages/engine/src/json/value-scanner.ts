// Finds where one JSON value ends, piece by piece, without parsing it: strings are skipped with
// indexOf, brackets are counted (and matched, so garbage stops early), everything else is passed
// over. Validation is left to JSON.parse on the value's text. Along the way it notes where the
// number literals are that a double might not hold (more than 15 characters, or a three-digit
// exponent), so that they can be kept as LosslessNumber (long-numbers.ts).
//
// The state survives between pieces, so a piece may end anywhere: inside a string, after a
// backslash, inside a number, between the two characters of a literal.

import { SAFE_NUMBER_DIGITS } from './numbers.ts';
import {
  QUOTE,
  BACKSLASH,
  OPEN_BRACKET,
  CLOSE_BRACKET,
  OPEN_BRACE,
  CLOSE_BRACE,
  COMMA,
} from './char-codes.ts';

/** scan() results besides an end offset. */
export const VALUE_CONTINUES = -1;
export const SCAN_STOPPED = -2;

const MODE_NONE = 0;
const MODE_CONTAINER = 1;
const MODE_STRING = 2;
const MODE_WORD = 3;

export class ValueScanner {
  /** The value holds a number literal that a double may not hold (see longNumbers). */
  hasLongNumbers = false;
  /** Start and end offsets of those literals in the value's text, in pairs. */
  readonly longNumbers: number[] = [];
  /** Added to offsets in the scanned text to make them offsets in the value's text. */
  offsetBase = 0;
  /** After SCAN_STOPPED: offset of the bracket that was too deep or did not match. */
  stoppedAt = -1;
  /**
   * Members seen so far: containers opened plus commas (each array element or object property
   * after a container's first). What building the value costs grows with it, not with its length.
   */
  members = 0;

  private mode = MODE_NONE;
  private depth = 0;
  private readonly brackets: Uint8Array;
  private inString = false;
  /** Inside a string that went on past the last piece, which ended in an odd run of backslashes. */
  private escapePending = false;
  private inNumber = false;
  private numberLength = 0;
  /** Digits after e/E in the current number, -1 before any. */
  private exponentDigits = -1;
  private numberStart = 0;

  constructor(private readonly maxDepth: number) {
    this.brackets = new Uint8Array(maxDepth + 2);
  }

  reset(): void {
    this.hasLongNumbers = false;
    this.stoppedAt = -1;
    this.members = 0;
    this.mode = MODE_NONE;
    this.depth = 0;
    this.inString = false;
    this.escapePending = false;
    this.inNumber = false;
    this.longNumbers.length = 0;
  }

  /** A number or bare word ends with the text, `valueLength` long; call at the end of the input. */
  finish(valueLength: number): void {
    if (this.inNumber) this.endNumber(valueLength);
  }

  /**
   * Inside an object or array: whether in a string, just after a backslash there, and the
   * brackets open (what the byte core's jsonArrayScan carries); undefined for other values.
   */
  containerState(): { inString: boolean; escaped: boolean; depth: number } | undefined {
    if (this.mode !== MODE_CONTAINER) return undefined;
    return { inString: this.inString, escaped: this.escapePending, depth: this.depth };
  }

  /** True while the value is a number or bare word, which the end of the input completes. */
  get endsWithInput(): boolean {
    return this.mode === MODE_WORD;
  }

  /**
   * Scans text from `pos` (the value's first character on the first call, the piece start after).
   * Returns the offset just after the value, VALUE_CONTINUES, or SCAN_STOPPED.
   */
  scan(text: string, pos: number): number {
    if (this.mode === MODE_NONE) {
      const first = text.charCodeAt(pos);
      if (first === OPEN_BRACE || first === OPEN_BRACKET) this.mode = MODE_CONTAINER;
      else if (first === QUOTE) {
        this.mode = MODE_STRING;
        this.inString = true;
        pos++;
      } else {
        this.mode = MODE_WORD;
        this.startNumber(pos);
        pos = this.continueNumber(text, pos + 1, true, first);
        return pos;
      }
    } else if (this.mode === MODE_WORD) {
      return this.continueNumber(text, pos, true, -1);
    }
    if (this.inString) {
      pos = this.skipString(text, pos);
      if (pos < 0 || this.mode === MODE_STRING) return pos;
    } else if (this.inNumber) {
      pos = this.continueNumber(text, pos, false, -1);
      if (pos < 0) return pos;
    }
    return this.scanContainer(text, pos);
  }

  private scanContainer(text: string, pos: number): number {
    const length = text.length;
    while (pos < length) {
      const c = text.charCodeAt(pos);
      if (c === QUOTE) {
        this.inString = true;
        pos = this.skipString(text, pos + 1);
        if (pos < 0) return pos;
        continue;
      }
      if (c === COMMA) {
        this.members++;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (++this.depth > this.maxDepth) return this.stop(pos);
        this.brackets[this.depth] = c;
        this.members++;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        // '{' + 2 === '}' and '[' + 2 === ']'
        if (this.depth === 0 || this.brackets[this.depth] !== c - 2) return this.stop(pos);
        if (--this.depth === 0) return pos + 1;
      } else if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
        this.startNumber(pos);
        pos = this.continueNumber(text, pos + 1, false, c);
        if (pos < 0) return pos;
        continue;
      }
      pos++;
    }
    return VALUE_CONTINUES;
  }

  /** From inside a string: the offset after its closing quote, or VALUE_CONTINUES. */
  private skipString(text: string, from: number): number {
    const carried = this.escapePending;
    this.escapePending = false;
    let quote = text.indexOf('"', from);
    while (quote !== -1) {
      let k = quote - 1;
      while (k >= from && text.charCodeAt(k) === BACKSLASH) k--;
      let run = quote - 1 - k;
      if (k < from && carried) run++;
      if ((run & 1) === 0) {
        this.inString = false;
        return quote + 1;
      }
      quote = text.indexOf('"', quote + 1);
    }
    let k = text.length - 1;
    while (k >= from && text.charCodeAt(k) === BACKSLASH) k--;
    let run = text.length - 1 - k;
    if (k < from && carried) run++;
    this.escapePending = (run & 1) === 1;
    return VALUE_CONTINUES;
  }

  private startNumber(pos: number): void {
    this.inNumber = true;
    this.numberStart = pos + this.offsetBase;
    this.numberLength = 0;
    this.exponentDigits = -1;
  }

  /**
   * Counts a number's characters (or, for a top-level word, any word characters), starting with
   * `first` when given. Returns the offset after it or VALUE_CONTINUES at the end of the text.
   */
  private continueNumber(text: string, pos: number, word: boolean, first: number): number {
    let length = this.numberLength;
    let exponent = this.exponentDigits;
    if (first >= 0) {
      length++;
      if ((first | 0x20) === 0x65) exponent = 0;
    }
    const end = text.length;
    for (; pos < end; pos++) {
      const c = text.charCodeAt(pos);
      if (c >= 0x30 && c <= 0x39) {
        length++;
        if (exponent >= 0) exponent++;
      } else if ((c | 0x20) === 0x65 /* e or E */) {
        length++;
        exponent = 0;
      } else if (c === 0x2e || c === 0x2b || c === 0x2d) {
        length++;
      } else if (word && (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) {
        length++;
      } else {
        break;
      }
    }
    this.numberLength = length;
    this.exponentDigits = exponent;
    if (pos === end) return VALUE_CONTINUES;
    this.endNumber(pos + this.offsetBase);
    return pos;
  }

  private endNumber(end: number): void {
    this.inNumber = false;
    if (this.numberLength > SAFE_NUMBER_DIGITS || this.exponentDigits >= 3) {
      this.hasLongNumbers = true;
      this.longNumbers.push(this.numberStart, end);
    }
  }

  private stop(pos: number): number {
    this.stoppedAt = pos;
    return SCAN_STOPPED;
  }
}
