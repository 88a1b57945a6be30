import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LosslessNumber } from '../model.ts';
import { parseJsonText } from './json-text.ts';

describe('parseJsonText', () => {
  it('reads what JSON.parse reads', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const text = JSON.stringify(value, null, 2);
        const parsed = parseJsonText(text);
        expect(parsed.ok && JSON.stringify(parsed.value)).toBe(JSON.stringify(JSON.parse(text)));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps numbers a double cannot hold as LosslessNumber, and plain numbers as numbers', () => {
    const parsed = parseJsonText(
      '[9007199254740993, 1e400, 0.1, 1.50, -0, 12345678901234567890.5]',
    );
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.value).toEqual([
      new LosslessNumber('9007199254740993'),
      new LosslessNumber('1e400'),
      0.1,
      1.5,
      -0,
      new LosslessNumber('12345678901234567890.5'),
    ]);
  });

  it('keeps "__proto__" as an own key, as JSON.parse does', () => {
    const parsed = parseJsonText('{"__proto__": {"x": 1}}');
    if (!parsed.ok) throw new Error(parsed.message);
    expect(Object.keys(parsed.value as object)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(parsed.value)).toBe(Object.prototype);
  });

  it('accepts a byte order mark', () => {
    expect(parseJsonText('\uFEFF{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
  });

  it.each([
    ['', 'the schema ends too early (line 1, column 1)'],
    ['{"a":1,}', "a comma before '}' (trailing commas are not allowed) (line 1, column 7)"],
    ['[1,]', "a comma before ']' (trailing commas are not allowed) (line 1, column 3)"],
    ['{"a" 1}', "expected ':' after the property name but found '1' (line 1, column 6)"],
    ['{"a":1 "b":2}', "expected ',' or '}' but found '\"' (line 1, column 8)"],
    ['{\r\n  "a": tru\r\n}', "unexpected 't' (line 2, column 8)"],
    [
      '{"a":"x\ny"}',
      'a control character (such as a line break) inside a text value (line 1, column 8)',
    ],
    ['{"a":"\\q"}', 'an invalid escape \\q inside a text value (line 1, column 7)'],
    ['{"a":"open', 'a text value is not closed with " (line 1, column 6)'],
    ['{} x', "unexpected 'x' after the end of the schema (line 1, column 4)"],
    ['[01]', "expected ',' or ']' but found '1' (line 1, column 3)"],
  ])('%j → %s', (text, message) => {
    const parsed = parseJsonText(text);
    expect(parsed.ok ? 'parsed' : parsed.message).toBe(message);
  });

  it('refuses nesting deeper than 64 levels without a stack overflow', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const parsed = parseJsonText(deep);
    expect(parsed.ok ? 'parsed' : parsed.message).toBe(
      'the schema is nested more than 64 levels deep (line 1, column 66)',
    );
  });
});
