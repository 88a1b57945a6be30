// Schema files are small, but their errors must point at a line and column (JSON.parse messages
// differ between engines and often give neither), and their big integers must survive: a number
// a double cannot hold exactly arrives as a LosslessNumber, as in the engine's JSON reader.
import { LosslessNumber } from '../model.ts';
import { canonicalDecimal, numberToDecimal } from './decimal-text.ts';

export const MAX_SCHEMA_DEPTH = 64;

export type JsonTextResult =
  { ok: true; value: unknown } | { ok: false; message: string; line: number; column: number };

class JsonSyntaxError {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

export function parseJsonText(text: string): JsonTextResult {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const parser = new Parser(text, start);
  try {
    parser.skipSpace();
    const value = parser.value(0);
    parser.skipSpace();
    if (parser.pos < text.length)
      parser.fail(`unexpected ${describe(text, parser.pos)} after the end of the schema`);
    return { ok: true, value };
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    const { line, column } = position(text, error.offset);
    return {
      ok: false,
      message: `${error.message} (line ${line}, column ${column})`,
      line,
      column,
    };
  }
}

class Parser {
  constructor(
    readonly text: string,
    public pos: number,
  ) {}

  fail(message: string, at = this.pos): never {
    throw new JsonSyntaxError(message, at);
  }

  skipSpace(): void {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.pos++;
      else return;
    }
  }

  value(depth: number): unknown {
    if (depth > MAX_SCHEMA_DEPTH)
      this.fail(`the schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
    const c = this.text.charCodeAt(this.pos);
    if (c === 123 /* { */) return this.object(depth);
    if (c === 91 /* [ */) return this.array(depth);
    if (c === 34 /* " */) return this.string();
    if (c === 45 || (c >= 48 && c <= 57)) return this.number();
    for (const [word, value] of LITERALS) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    return this.fail(
      this.pos >= this.text.length
        ? 'the schema ends too early'
        : `unexpected ${describe(this.text, this.pos)}`,
    );
  }

  object(depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.pos++;
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === 125 /* } */) {
      this.pos++;
      return out;
    }
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== 34) this.expected('a property name in double quotes');
      const key = this.string();
      this.skipSpace();
      if (this.text.charCodeAt(this.pos) !== 58 /* : */)
        this.expected("':' after the property name");
      this.pos++;
      this.skipSpace();
      const value = this.value(depth + 1);
      // An own property even for "__proto__", as JSON.parse does.
      Object.defineProperty(out, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipSpace();
      const comma = this.pos;
      const c = this.text.charCodeAt(this.pos);
      this.pos++;
      if (c === 125) return out;
      if (c !== 44 /* , */) this.expected("',' or '}'", comma);
      this.skipSpace();
      if (this.text.charCodeAt(this.pos) === 125)
        this.fail("a comma before '}' (trailing commas are not allowed)", comma);
    }
  }

  array(depth: number): unknown[] {
    const out: unknown[] = [];
    this.pos++;
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === 93 /* ] */) {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.skipSpace();
      const comma = this.pos;
      const c = this.text.charCodeAt(this.pos);
      this.pos++;
      if (c === 93) return out;
      if (c !== 44) this.expected("',' or ']'", comma);
      this.skipSpace();
      if (this.text.charCodeAt(this.pos) === 93)
        this.fail("a comma before ']' (trailing commas are not allowed)", comma);
    }
  }

  string(): string {
    const t = this.text;
    const open = this.pos;
    let i = open + 1;
    let out = '';
    let chunk = i;
    for (;;) {
      if (i >= t.length) this.fail('a text value is not closed with "', open);
      const c = t.charCodeAt(i);
      if (c === 34) break;
      if (c < 32) this.fail('a control character (such as a line break) inside a text value', i);
      if (c !== 92) {
        i++;
        continue;
      }
      out += t.slice(chunk, i);
      const e = t[i + 1];
      const simple = e === undefined ? undefined : ESCAPES[e];
      if (simple !== undefined) {
        out += simple;
        i += 2;
      } else if (e === 'u' && /^[0-9A-Fa-f]{4}$/.test(t.slice(i + 2, i + 6))) {
        out += String.fromCharCode(parseInt(t.slice(i + 2, i + 6), 16));
        i += 6;
      } else {
        this.fail(`an invalid escape \\${e ?? ''} inside a text value`, i);
      }
      chunk = i;
    }
    out += t.slice(chunk, i);
    this.pos = i + 1;
    return out;
  }

  number(): number | LosslessNumber {
    const m = NUMBER.exec(this.text.slice(this.pos, this.pos + 1100));
    if (m === null) return this.fail(`an invalid number`);
    const literal = m[0];
    this.pos += literal.length;
    const n = Number(literal);
    const exact = Number.isFinite(n) && numberToDecimal(n) === canonicalDecimal(literal);
    return exact ? n : new LosslessNumber(literal);
  }

  expected(what: string, at = this.pos): never {
    const found = at >= this.text.length ? 'the end of the schema' : describe(this.text, at);
    return this.fail(`expected ${what} but found ${found}`, at);
  }
}

const LITERALS: [string, unknown][] = [
  ['true', true],
  ['false', false],
  ['null', null],
];

const ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/;

function describe(text: string, at: number): string {
  const ch = String.fromCodePoint(text.codePointAt(at) ?? 0);
  return /^[\x21-\x7e]$/.test(ch)
    ? `'${ch}'`
    : `character U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
