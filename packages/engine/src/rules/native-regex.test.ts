import { describe, expect, it } from 'vitest';
import { nativeEquivalent } from './native-regex.ts';

describe('nativeEquivalent', () => {
  it.each([
    '^[A-Z]{3}-\\d{4}$',
    '^(?:[A-Z]{3}-\\d{4})$',
    '^TXN\\d{6}$',
    '^[a-z]+-[0-9]+$',
    '^.{1,100}$',
    '^\\w+@\\w+\\.\\w+$',
    '[A-Z]{3}-\\d{4}',
    '\\d{3}$',
  ])('takes the fast path for %s', (p) => {
    expect(nativeEquivalent(p)).toBeInstanceOf(RegExp);
  });

  it.each([
    ['^\\d+\\d+$', 'two overlapping variable items would backtrack'],
    ['^[a-z]*[a-c]$', 'a variable item overlaps the item after it'],
    ['^a*a?b$', 'an optional item overlaps'],
    ['[a-z]+-', 'unanchored with an unbounded item'],
    ['^a|b$', 'alternation'],
    ['^(ab)+$', 'a quantified group'],
    ['^\\s+$', '\\s differs between engines'],
    ['^\\bx$', 'word boundaries are left to re2js'],
    ['^a+?b$', 'lazy quantifier'],
    ['^[]a]$', 'RE2 reads ] first in a class as a literal'],
    ['^[[:alpha:]]$', 'POSIX classes'],
    ['(?i)^abc$', 'flags'],
    ['^\\p{L}$', 'Unicode classes'],
    ['^[\\d-z]$', 'a range from a shorthand'],
  ])('leaves %s to re2js (%s)', (p) => {
    expect(nativeEquivalent(p)).toBeNull();
  });

  it("translates RE2's dot, which matches \\r and U+2028 unlike JavaScript's", () => {
    const re = nativeEquivalent('^.$');
    expect(re?.test('\r')).toBe(true);
    expect(re?.test('\u2028')).toBe(true);
    expect(re?.test('\n')).toBe(false);
    expect(re?.test('😀')).toBe(true);
  });

  it('stays linear on the longest values for a deterministic pattern', () => {
    const re = nativeEquivalent('^[a-z]*-[0-9]*x$');
    const value = `${'a'.repeat(200_000)}-${'1'.repeat(200_000)}`;
    const started = performance.now();
    for (let i = 0; i < 20; i++) expect(re?.test(value)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
