// The slow, exact JSON parser (RFC 8259, strict). It runs only on records that JSON.parse cannot
// give us faithfully: ones that fail (to say where and why), ones with long number literals (to
// keep them as LosslessNumber), and prefixes of records that grow large without ending (to stop
// early on garbage). Nesting is tracked on an explicit stack, so depth never touches the JS stack.

import { numberFromLiteral, SAFE_NUMBER_DIGITS } from './numbers.ts';
import { describeCharAt } from './text-position.ts';
import {
  TAB,
  LINE_FEED,
  CARRIAGE_RETURN,
  SPACE,
  QUOTE,
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
} from './char-codes.ts';

export type ExactParseResult =
  | { ok: true; value: unknown }
  | {
      ok: false;
      /** Offset in the text where the problem is. */
      offset: number;
      reason: string;
      /** `end`: the text stopped before the value was complete (more text might have fixed it). */
      kind: 'syntax' | 'depth' | 'end';
    };
type Failure = Extract<ExactParseResult, { ok: false }>;

export interface ExactParseOptions {
  maxDepth: number;
  /** How messages name the end of the text: "the file ends …" or "the line ends …". */
  endName: 'file' | 'line';
  /** Check the syntax only; nothing is built (used on prefixes of large records). */
  validateOnly?: boolean;
  /** The text is an element of the top-level array: what may follow it is ',' or ']'. */
  arrayElement?: boolean;
}

const LITERALS = ['true', 'false', 'null'] as const;
const LITERAL_VALUES = [true, false, null] as const;
const LONGEST_WORD_SHOWN = 30;

/** Parses text[start, end) as exactly one JSON value with optional surrounding whitespace. */
export function parseExact(
  text: string,
  start: number,
  end: number,
  options: ExactParseOptions,
): ExactParseResult {
  return new ExactParser(text, start, end, options).parse();
}

/** Gives a property named `__proto__` its own property instead of setting the prototype. */
export function setOwnProperty(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    target[key] = value;
  }
}

class ExactParser {
  private pos: number;
  private failure: Failure | undefined;
  private readonly build: boolean;

  constructor(
    private readonly text: string,
    start: number,
    private readonly end: number,
    private readonly options: ExactParseOptions,
  ) {
    this.pos = start;
    this.build = options.validateOnly !== true;
  }

  parse(): ExactParseResult {
    const containers: unknown[] = [];
    const inArray: boolean[] = [];
    const keys: string[] = [];
    const build = this.build;
    let value: unknown;
    let c = this.skipWhitespace();

    value: for (;;) {
      let item: unknown;
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (containers.length >= this.options.maxDepth) {
          return { ok: false, offset: this.pos, reason: '', kind: 'depth' };
        }
        const array = c === OPEN_BRACKET;
        this.pos++;
        const next = this.skipWhitespace();
        if (next === (array ? CLOSE_BRACKET : CLOSE_BRACE)) {
          this.pos++;
          item = build ? (array ? [] : {}) : null;
        } else {
          containers.push(build ? (array ? [] : {}) : null);
          inArray.push(array);
          if (array) {
            c = next;
            continue value;
          }
          const key = this.readKey(next, 'where a property name was expected');
          if (key === undefined) return this.failure!;
          keys.push(key);
          c = this.skipWhitespace();
          continue value;
        }
      } else if (c === QUOTE) {
        item = this.readString();
      } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
        item = this.readNumber();
      } else if (c < 0) {
        return this.failEnd('where a value was expected');
      } else {
        item = this.readWord(c);
      }
      if (this.failure) return this.failure;

      // Attach the finished item, closing every container that ends right after it.
      for (;;) {
        const depth = containers.length;
        if (depth === 0) {
          value = item;
          break value;
        }
        const parent = containers[depth - 1];
        const array = inArray[depth - 1]!;
        if (build) {
          if (array) (parent as unknown[]).push(item);
          else setOwnProperty(parent as Record<string, unknown>, keys[keys.length - 1]!, item);
        }
        const next = this.skipWhitespace();
        if (next === COMMA) {
          this.pos++;
          const after = this.skipWhitespace();
          if (array) {
            if (after === CLOSE_BRACKET) {
              return this.fail(
                this.pos,
                "expected a value after ',' (trailing commas are not allowed)",
              );
            }
            c = after;
            continue value;
          }
          if (after === CLOSE_BRACE) {
            return this.fail(
              this.pos,
              "expected a property name after ',' (trailing commas are not allowed)",
            );
          }
          const key = this.readKey(after, 'where a property name was expected');
          if (key === undefined) return this.failure!;
          keys[keys.length - 1] = key;
          c = this.skipWhitespace();
          continue value;
        }
        if (next === (array ? CLOSE_BRACKET : CLOSE_BRACE)) {
          this.pos++;
          item = parent;
          containers.pop();
          inArray.pop();
          if (!array) keys.pop();
          continue;
        }
        if (next < 0) {
          return this.failEnd(
            array ? "before the array is closed with ']'" : "before the object is closed with '}'",
          );
        }
        return this.fail(
          this.pos,
          array
            ? `expected ',' or ']' after an array element, found ${describeCharAt(this.text, this.pos)}`
            : `expected ',' or '}' after a property value, found ${describeCharAt(this.text, this.pos)}`,
        );
      }
    }

    if (this.skipWhitespace() >= 0) {
      const found = describeCharAt(this.text, this.pos);
      return this.fail(
        this.pos,
        this.options.arrayElement
          ? `expected ',' or ']' after an array element, found ${found}`
          : `unexpected ${found} after the JSON value`,
      );
    }
    return { ok: true, value };
  }

  /** Reads `"name"` and the `:` after it; leaves pos after the colon. */
  private readKey(c: number, whereEnded: string): string | undefined {
    if (c < 0) {
      this.failEnd(whereEnded);
      return undefined;
    }
    if (c !== QUOTE) {
      this.fail(
        this.pos,
        `expected a property name in double quotes, found ${describeCharAt(this.text, this.pos)}`,
      );
      return undefined;
    }
    const key = this.readString();
    if (this.failure) return undefined;
    const colon = this.skipWhitespace();
    if (colon === COLON) {
      this.pos++;
      return key;
    }
    if (colon < 0) this.failEnd("where ':' was expected");
    else
      this.fail(
        this.pos,
        `expected ':' after a property name, found ${describeCharAt(this.text, this.pos)}`,
      );
    return undefined;
  }

  private readString(): string {
    const text = this.text;
    const end = this.end;
    let i = this.pos + 1;
    let out = '';
    let segment = i;
    for (;;) {
      if (i >= end) {
        this.failEnd('inside a string');
        return '';
      }
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        this.pos = i + 1;
        return this.build ? out + text.slice(segment, i) : '';
      }
      if (c === BACKSLASH) {
        if (this.build) out += text.slice(segment, i);
        if (i + 1 >= end) {
          this.failEnd('inside a string');
          return '';
        }
        const escape = text.charCodeAt(i + 1);
        const simple = simpleEscape(escape);
        if (simple !== undefined) {
          out += simple;
          i += 2;
        } else if (escape === 0x75 /* u */) {
          let code = 0;
          for (let k = i + 2; k < i + 6; k++) {
            if (k >= end) {
              this.failEnd('inside a string');
              return '';
            }
            const digit = hexValue(text.charCodeAt(k));
            if (digit < 0) {
              this.fail(i, '\\u in a string must be followed by four hexadecimal digits');
              return '';
            }
            code = code * 16 + digit;
          }
          if (this.build) out += String.fromCharCode(code);
          i += 6;
        } else {
          const shown =
            escape > SPACE && escape < 0x7f
              ? `'\\${String.fromCharCode(escape)}'`
              : `(a backslash followed by ${describeCharAt(text, i + 1)})`;
          this.fail(i, `invalid escape ${shown} in a string`);
          return '';
        }
        segment = i;
        continue;
      }
      if (c < SPACE) {
        this.fail(i, `${describeCharAt(text, i)} must be escaped inside a string`);
        return '';
      }
      i++;
    }
  }

  private readNumber(): unknown {
    const text = this.text;
    const end = this.end;
    const start = this.pos;
    let i = start;
    if (text.charCodeAt(i) === MINUS) i++;
    if (i >= end) return this.failEnd('inside a number');
    let digits = 0;
    const first = text.charCodeAt(i);
    if (first === ZERO) {
      i++;
      digits = 1;
      if (i < end && isDigit(text.charCodeAt(i))) {
        return this.fail(start, 'numbers must not have leading zeros');
      }
    } else if (first > ZERO && first <= NINE) {
      while (i < end && isDigit(text.charCodeAt(i))) {
        i++;
        digits++;
      }
    } else {
      return this.fail(i, `expected a digit after '-', found ${describeCharAt(text, i)}`);
    }
    if (i < end && text.charCodeAt(i) === DOT) {
      i++;
      if (i >= end) return this.failEnd('inside a number');
      if (!isDigit(text.charCodeAt(i))) {
        return this.fail(
          i,
          `expected a digit after the decimal point, found ${describeCharAt(text, i)}`,
        );
      }
      while (i < end && isDigit(text.charCodeAt(i))) {
        i++;
        digits++;
      }
    }
    let exponentDigits = 0;
    if (i < end && (text.charCodeAt(i) | 0x20) === 0x65 /* e or E */) {
      i++;
      if (i < end && (text.charCodeAt(i) === 0x2b || text.charCodeAt(i) === MINUS)) i++;
      if (i >= end) return this.failEnd('inside a number');
      if (!isDigit(text.charCodeAt(i))) {
        return this.fail(i, `expected a digit in the exponent, found ${describeCharAt(text, i)}`);
      }
      while (i < end && isDigit(text.charCodeAt(i))) {
        i++;
        exponentDigits++;
      }
    }
    this.pos = i;
    if (!this.build) return null;
    const raw = text.slice(start, i);
    return digits <= SAFE_NUMBER_DIGITS && exponentDigits <= 2
      ? Number(raw)
      : numberFromLiteral(raw);
  }

  /** true, false, null — or a precise complaint about whatever word stands there instead. */
  private readWord(c: number): unknown {
    const text = this.text;
    const start = this.pos;
    if (!isAsciiLetter(c)) {
      return this.fail(start, `expected a value, found ${describeCharAt(text, start)}`);
    }
    let i = start + 1;
    while (i < this.end && isAsciiLetter(text.charCodeAt(i))) i++;
    const word = text.slice(start, i);
    const index = (LITERALS as readonly string[]).indexOf(word);
    if (index >= 0) {
      this.pos = i;
      return LITERAL_VALUES[index];
    }
    const shown = word.length > LONGEST_WORD_SHOWN ? `${word.slice(0, LONGEST_WORD_SHOWN)}…` : word;
    const reason = `invalid value '${shown}' (only true, false and null are allowed without quotes)`;
    // A word that runs into the end of the text may go on after it (in a prefix, or before bad
    // bytes): the same word, whole, is what a later message must name.
    if (i === this.end) {
      this.failure = { ok: false, offset: start, reason, kind: 'end' };
      return undefined;
    }
    return this.fail(start, reason);
  }

  /** Skips JSON whitespace; the next character code, or -1 at the end. */
  private skipWhitespace(): number {
    const text = this.text;
    let i = this.pos;
    while (i < this.end) {
      const c = text.charCodeAt(i);
      if (c !== SPACE && c !== LINE_FEED && c !== CARRIAGE_RETURN && c !== TAB) {
        this.pos = i;
        return c;
      }
      i++;
    }
    this.pos = i;
    return -1;
  }

  private fail(offset: number, reason: string): Failure {
    this.failure = { ok: false, offset, reason, kind: 'syntax' };
    return this.failure;
  }

  private failEnd(where: string): Failure {
    this.failure = {
      ok: false,
      offset: this.end,
      reason: `the ${this.options.endName} ends ${where}`,
      kind: 'end',
    };
    return this.failure;
  }
}

function simpleEscape(c: number): string | undefined {
  switch (c) {
    case QUOTE:
      return '"';
    case BACKSLASH:
      return '\\';
    case 0x2f:
      return '/';
    case 0x62:
      return '\b';
    case 0x66:
      return '\f';
    case 0x6e:
      return '\n';
    case 0x72:
      return '\r';
    case 0x74:
      return '\t';
    default:
      return undefined;
  }
}

function hexValue(c: number): number {
  if (c >= ZERO && c <= NINE) return c - ZERO;
  const lower = c | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

function isAsciiLetter(c: number): boolean {
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}
