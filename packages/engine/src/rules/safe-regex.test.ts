import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { nativeEquivalent } from './native-regex.ts';
import { compileSafeRegex, MAX_PATTERN_LENGTH } from './safe-regex.ts';

function accept(pattern: string) {
  const compiled = compileSafeRegex(pattern);
  if (!compiled.ok) throw new Error(`refused ${pattern}: ${compiled.message}`);
  return compiled.regex;
}

function refusal(pattern: string): string {
  const compiled = compileSafeRegex(pattern);
  if (compiled.ok) throw new Error(`accepted ${pattern}`);
  return compiled.message;
}

describe('compileSafeRegex refuses what RE2 cannot run, naming the construct', () => {
  it.each([
    ['(a)\\1', 'Backreferences like \\1 are not supported'],
    ['(?<n>a)\\k<n>', 'Named backreferences like \\k<name> are not supported'],
    ['(?P<n>a)(?P=n)', 'Named backreferences like (?P=name) are not supported'],
    ['a(?=b)', 'Lookahead (?=...) is not supported'],
    ['a(?!b)', 'Negative lookahead (?!...) is not supported'],
    ['(?<=a)b', 'Lookbehind (?<=...) is not supported'],
    ['(?<!a)b', 'Negative lookbehind (?<!...) is not supported'],
    ['a{1001}', 'Repetition count above 1000 is not supported ({1001})'],
    ['a{2,1001}', 'Repetition count above 1000 is not supported ({2,1001})'],
    ['a{5,2}', 'The repetition {5,2} has its minimum above its maximum'],
    ['\\cC', 'Control-character escapes like \\cC are not supported; write the code, e.g. \\x03'],
    ['[a-z', 'Unterminated character class [ : a closing ] is missing in [a-z'],
    ['(ab', 'Unclosed group ( : a closing ) is missing in (ab'],
    ['ab)', 'There is a ) without a matching ('],
    ['*a', 'There is nothing before * to repeat'],
    [
      'a++',
      'A repetition cannot be repeated directly (++); possessive forms like a++ are not supported',
    ],
    ['ab\\', 'The pattern ends with a lone backslash \\'],
    ['\\Z', '\\Z is not supported; use $ for the end of the value'],
    ['(?#note)a', 'Comments (?#...) are not supported'],
    ['(?<x>a)(?<x>b)', "The group name 'x' is used twice"],
    ['[z-a]', 'The character range z-a is out of order'],
    ['\\u12', 'Unicode escapes must be written like \\u0041 or \\u{1F600}'],
    [
      '[[:letter:]]',
      'The character class [:letter:] is not known; POSIX classes like [:alpha:] and [:digit:] are supported',
    ],
    ['(?z)a', 'The flags group (?z is not valid; the flags i, m, s and U are supported, like (?i)'],
    [
      '[]a',
      'Unterminated character class [ : a closing ] is missing in []a (a ] right after [ or [^ is read as a character)',
    ],
    ['[a-\\d]', '\\d cannot be used here, for example as the end of a range like a-\\d'],
  ])('%s → %s', (pattern, message) => {
    expect(refusal(pattern)).toBe(message);
  });

  it('names the unsupported Unicode class and suggests the short names', () => {
    expect(refusal('\\p{Letter}+')).toMatch(
      /^The Unicode class \\p\{Letter\} is not supported\. Use a short name like \\p\{L\}/,
    );
  });

  it('refuses nested counts that multiply beyond RE2 limits', () => {
    expect(refusal('((a{100}){100}){100}')).toMatch(/^Nested repetitions/);
  });

  it(`refuses patterns longer than ${MAX_PATTERN_LENGTH} characters`, () => {
    expect(compileSafeRegex('a'.repeat(MAX_PATTERN_LENGTH)).ok).toBe(true);
    expect(refusal('a'.repeat(MAX_PATTERN_LENGTH + 1))).toBe(
      `The pattern is ${MAX_PATTERN_LENGTH + 1} characters long; the limit is ${MAX_PATTERN_LENGTH}`,
    );
  });

  it('refuses patterns whose compiled program would make every value slow to check', () => {
    expect(compileSafeRegex('^.{1,1000}$').ok).toBe(true);
    expect(refusal('\\pL{1000}\\pN{1000}\\pL{1000}')).toMatch(/too complex/);
  });
});

describe('compileSafeRegex matching', () => {
  it('searches like RegExp.test: unanchored unless the pattern anchors itself', () => {
    expect(accept('\\d{3}').test('abc123def')).toBe(true);
    expect(accept('^\\d{3}$').test('abc123def')).toBe(false);
    expect(accept('^\\d{3}$').test('123')).toBe(true);
    expect(accept('^\\d{3}').test('123abc')).toBe(true);
    expect(accept('\\d{3}$').test('abc123')).toBe(true);
    expect(accept('').test('anything')).toBe(true);
  });

  it('keeps alternation semantics when the pattern is ^a|b$', () => {
    const re = accept('^a|b$');
    expect(re.test('ax')).toBe(true);
    expect(re.test('xb')).toBe(true);
    expect(re.test('xa')).toBe(false);
  });

  it('reads \\u escapes as code points, as JavaScript and JSON Schema write them', () => {
    expect(accept('^\\u0041$').test('A')).toBe(true);
    expect(accept('^\\u{1F600}$').test('😀')).toBe(true);
    expect(accept('^\\uD83D\\uDE00$').test('😀')).toBe(true);
    expect(accept('^\\\\u0041$').test('\\u0041')).toBe(true);
  });

  it('uses RE2 semantics: \\s is ASCII-only and . is any character but a newline', () => {
    expect(accept('^\\s$').test('\u00a0')).toBe(false);
    expect(accept('^.$').test('\r')).toBe(true);
    expect(accept('^.$').test('\n')).toBe(false);
    expect(accept('^.$').test('😀')).toBe(true);
  });

  it('keeps the m flag meaning of a final $ inside ^...$', () => {
    const reference = RE2JS.compile('^(?m)a$');
    expect(accept('^(?m)a$').test('a\nb')).toBe(reference.test('a\nb'));
    expect(accept('^(?m)a$').test('a\nb')).toBe(true);
  });

  it('returns the source as written', () => {
    expect(accept('^\\u0041$').source).toBe('^\\u0041$');
  });

  it('runs a catastrophic-backtracking pattern in linear time (ReDoS guard)', () => {
    const evil = ['^(a+)+$', '([a-zA-Z]+)*$', '^(a|aa)+$', '^(a|a?)+$', '(.*a){11}$'];
    const value = `${'a'.repeat(30)}!`;
    for (const pattern of evil) {
      const re = accept(pattern);
      const started = performance.now();
      for (let i = 0; i < 50_000; i++) re.test(value);
      expect(performance.now() - started, pattern).toBeLessThan(2000);
    }
  });

  it('stays linear on a long value for a nested quantifier', () => {
    const re = accept('^(a+)+$');
    const started = performance.now();
    expect(re.test(`${'a'.repeat(100_000)}!`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

// The differential check: whatever engine compileSafeRegex picks, its verdict is re2js's.
const atom = fc.oneof(
  fc.constantFrom(
    'a',
    'b',
    'z',
    '-',
    '\\.',
    '\\d',
    '\\w',
    '\\D',
    '\\W',
    '.',
    '\\x41',
    '\\x{e9}',
    'é',
    '😀',
    '(?m)$',
    '(?s).',
    '(?i)a',
  ),
  fc.constantFrom(
    '[a-c]',
    '[^a]',
    '[\\d_]',
    '[ab-]',
    '[^\\n]',
    '[x-z0-9]',
    '[\\w.]',
    '[^\\d\\s]',
    '\\s',
    '\\b',
  ),
);
const quantifier = fc.constantFrom('', '', '?', '*', '+', '{2}', '{1,3}', '{0,}', '{2,}', '*?');
const item = fc.tuple(atom, quantifier).map(([a, q]) => a + q);
const sequence = fc.array(item, { minLength: 0, maxLength: 5 }).map((xs) => xs.join(''));
const pattern = fc
  .tuple(
    fc.boolean(),
    sequence,
    fc.oneof(
      fc.constant(''),
      sequence.map((s) => `(?:${s})`),
      sequence.map((s) => `(${s})`),
    ),
    sequence,
    fc.boolean(),
    fc.boolean(),
  )
  .map(
    ([start, a, group, b, alt, end]) =>
      `${start ? '^' : ''}${a}${group}${b}${alt ? '|ab' : ''}${end ? '$' : ''}`,
  );
const value = fc
  .array(
    fc.constantFrom(
      'a',
      'b',
      'z',
      'A',
      '-',
      '.',
      '_',
      '0',
      '7',
      ' ',
      '\n',
      '\r',
      'é',
      '😀',
      '\ud800',
      'x',
    ),
    {
      maxLength: 12,
    },
  )
  .map((xs) => xs.join(''));

// Patterns shaped like the native fast path's subset, so that about half of them take it.
const nativeAtom = fc.constantFrom(
  'a',
  'b',
  '-',
  '\\d',
  '[ab]',
  '[^a]',
  '.',
  '\\w',
  '[x-z]',
  '😀',
  '\\x{e9}',
  '[^\\d-]',
);
const nativeQuantifier = fc.constantFrom('', '?', '*', '+', '{2}', '{1,3}', '{2,}');
const nativePattern = fc
  .tuple(
    fc.boolean(),
    fc.array(
      fc.tuple(nativeAtom, nativeQuantifier).map(([a, q]) => a + q),
      { minLength: 1, maxLength: 4 },
    ),
    fc.boolean(),
  )
  .map(([start, items, end]) => `${start ? '^' : ''}${items.join('')}${end ? '$' : ''}`);

function sameVerdicts(p: string, values: string[]) {
  let reference: RE2JS;
  try {
    reference = RE2JS.compile(p);
  } catch {
    return;
  }
  const compiled = compileSafeRegex(p);
  if (!compiled.ok) return;
  for (const v of values)
    expect(compiled.regex.test(v), `${p} on ${JSON.stringify(v)}`).toBe(reference.test(v));
}

describe('compileSafeRegex gives re2js verdicts, whichever engine it picks', () => {
  it('on generated patterns and values', () => {
    fc.assert(fc.property(pattern, fc.array(value, { minLength: 1, maxLength: 8 }), sameVerdicts), {
      numRuns: 800,
    });
  });

  it('on patterns that take the native fast path', () => {
    let native = 0;
    fc.assert(
      fc.property(nativePattern, fc.array(value, { minLength: 1, maxLength: 8 }), (p, values) => {
        if (nativeEquivalent(p) !== null) native++;
        sameVerdicts(p, values);
      }),
      { numRuns: 800 },
    );
    expect(native).toBeGreaterThan(150);
  });
});
