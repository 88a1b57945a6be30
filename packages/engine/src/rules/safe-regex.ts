// User patterns run on re2js (RE2 semantics: linear time, no backtracking), in the browser and
// on the server alike, so a pattern gets the same verdict everywhere and can never stall a run.
// Refusals name the construct in plain English. For speed, a pattern of the form `^X$` is run as
// an anchored match of X (re2js then uses its DFA instead of the slower one-pass matcher), and the
// simplest patterns run natively when native-regex.ts can prove the same verdict in linear time.
import { RE2JS, RE2JSSyntaxException } from 're2js';
import { deterministicItems, nativeEquivalent, type Parsed } from './native-regex.ts';
import { wholeValueBody } from './regex-shape.ts';

/** A user pattern compiled for linear-time matching (RE2 semantics), the same in browser and server. */
export interface SafeRegex {
  readonly source: string;
  /** Size of the compiled program: the work per character, and roughly the compile time. */
  readonly cost: number;
  /** Search semantics, like RegExp.prototype.test and JSON Schema `pattern`: anchor with ^ and $. */
  test(value: string): boolean;
}

export type CompiledRegex = { ok: true; regex: SafeRegex } | { ok: false; message: string };

export const MAX_PATTERN_LENGTH = 1000;
/**
 * RE2's cost per character grows with the compiled program; this bounds the slowest case
 * (measured ≈ 1.5 ns per instruction per character) while leaving room for `^.{1,1000}$`.
 */
export const MAX_PATTERN_PROGRAM = 2500;

const CACHE_SIZE = 256;
const cache = new Map<string, CompiledRegex>();

export function compileSafeRegex(pattern: string): CompiledRegex {
  if (typeof pattern !== 'string') return { ok: false, message: 'The pattern must be text' };
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return {
      ok: false,
      message: `The pattern is ${pattern.length} characters long; the limit is ${MAX_PATTERN_LENGTH}`,
    };
  }
  // Schemas are checked when saved and compiled again for every run: compile each pattern once.
  const hit = cache.get(pattern);
  if (hit !== undefined) return hit;
  const compiled = compileUncached(pattern);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, compiled);
  return compiled;
}

function compileUncached(pattern: string): CompiledRegex {
  const translated = translateUnicodeEscapes(pattern);
  if (typeof translated !== 'string') return translated;
  const engine = compileRe2(translated);
  if (!engine.ok) return engine;
  const { re, whole } = engine;
  const cost = re.re2().numberOfInstructions();
  if (cost > MAX_PATTERN_PROGRAM) {
    return {
      ok: false,
      message:
        'The pattern is too complex to check quickly. Use smaller repetition counts like {1,100}',
    };
  }
  const native = nativeEquivalent(translated);
  const test = native
    ? (value: string) => native.test(value)
    : whole
      ? (value: string) => re.testExact(value)
      : (value: string) => re.test(value);
  return { ok: true, regex: { source: pattern, cost, test } };
}

/**
 * `^X$` means "the whole value is X", so X alone is compiled and run as an anchored match: that
 * skips re2js's one-pass analysis (half the compile time) and runs on its DFA (faster than the
 * one-pass matcher). Not when X sets the m flag, which changes what the final `$` means.
 */
function compileRe2(
  pattern: string,
): { ok: true; re: RE2JS; whole: boolean } | { ok: false; message: string } {
  const body = wholeValueBody(pattern);
  if (body !== undefined && !/\(\?[A-Za-z-]*m/.test(body)) {
    try {
      return { ok: true, re: RE2JS.compile(body), whole: true };
    } catch {
      // Such as `^*x$`: judge the pattern as written.
    }
  }
  try {
    return { ok: true, re: RE2JS.compile(pattern), whole: false };
  } catch (error) {
    return { ok: false, message: describeError(error) };
  }
}

/**
 * JavaScript and JSON Schema patterns write code points as `\u0041` or `\u{1F600}`; RE2 spells them
 * `\x{...}`. A surrogate pair written as two escapes becomes its one code point.
 */
/**
 * A pattern's items for a single greedy pass (rules/native-regex.ts deterministicItems), read as
 * compileSafeRegex reads it; null when the pattern does not compile or has no such form.
 */
export function patternItems(pattern: string): Parsed | null {
  if (!compileSafeRegex(pattern).ok) return null;
  const translated = translateUnicodeEscapes(pattern);
  return typeof translated === 'string' ? deterministicItems(translated) : null;
}

function translateUnicodeEscapes(p: string): string | { ok: false; message: string } {
  if (!p.includes('\\u')) return p;
  let out = '';
  let i = 0;
  while (i < p.length) {
    const c = p.charCodeAt(i);
    if (c !== 92 /* \ */) {
      out += p[i];
      i++;
      continue;
    }
    const next = p[i + 1];
    if (next === 'Q') {
      const close = p.indexOf('\\E', i + 2);
      const end = close < 0 ? p.length : close + 2;
      out += p.slice(i, end);
      i = end;
      continue;
    }
    if (next !== 'u') {
      out += p.slice(i, i + 2);
      i += 2;
      continue;
    }
    const braced = /^\\u\{([0-9A-Fa-f]{1,6})\}/.exec(p.slice(i, i + 10));
    const four = /^\\u([0-9A-Fa-f]{4})/.exec(p.slice(i, i + 6));
    if (braced === null && four === null) {
      return { ok: false, message: 'Unicode escapes must be written like \\u0041 or \\u{1F600}' };
    }
    let cp = parseInt((braced ?? four)?.[1] ?? '', 16);
    i += (braced ?? four)?.[0].length ?? 0;
    if (four !== null && cp >= 0xd800 && cp <= 0xdbff) {
      const low = /^\\u([dD][c-fC-F][0-9A-Fa-f]{2})/.exec(p.slice(i, i + 6));
      if (low !== null) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (parseInt(low[1] ?? '', 16) - 0xdc00);
        i += 6;
      }
    }
    if (cp > 0x10ffff)
      return { ok: false, message: `The code point \\u{${cp.toString(16)}} is beyond Unicode` };
    out += `\\x{${cp.toString(16)}}`;
  }
  return out;
}

/** RE2's complaint, said so that someone who is not a regex expert can fix the pattern. */
function describeError(error: unknown): string {
  if (!(error instanceof RE2JSSyntaxException)) return 'This is not a valid regular expression';
  const what = error.error;
  const at = error.input ?? '';
  switch (what) {
    case 'invalid escape sequence':
      return escapeMessage(at);
    case 'invalid or unsupported Perl syntax':
      if (at.startsWith('(?=')) return 'Lookahead (?=...) is not supported';
      if (at.startsWith('(?!')) return 'Negative lookahead (?!...) is not supported';
      if (at.startsWith('(?#')) return 'Comments (?#...) are not supported';
      if (at.startsWith('(?P')) return 'Named backreferences like (?P=name) are not supported';
      if (at.startsWith('(?>')) return 'Atomic groups (?>...) are not supported';
      if (/^\(\?[A-Za-z-]*$/.test(at)) {
        return `The flags group ${at} is not valid; the flags i, m, s and U are supported, like (?i)`;
      }
      return `The group syntax ${at} is not supported`;
    case 'invalid named capture':
      if (at.startsWith('(?<=')) return 'Lookbehind (?<=...) is not supported';
      if (at.startsWith('(?<!')) return 'Negative lookbehind (?<!...) is not supported';
      return `The group name in ${at} is not valid`;
    case 'invalid repeat count':
      return repeatMessage(at);
    case 'invalid character class range':
      if (/^\\[pP]/.test(at)) {
        return `The Unicode class ${at} is not supported. Use a short name like \\p{L} (letter), \\p{Lu}, \\p{N} or a script like \\p{Greek}`;
      }
      if (at.startsWith('[:')) {
        return `The character class ${at} is not known; POSIX classes like [:alpha:] and [:digit:] are supported`;
      }
      return `The character range ${at} is out of order`;
    case 'missing closing ]': {
      const hint = /^\[\^?\]/.test(at) ? ' (a ] right after [ or [^ is read as a character)' : '';
      return `Unterminated character class [ : a closing ] is missing in ${at}${hint}`;
    }
    case 'missing closing )':
      return `Unclosed group ( : a closing ) is missing in ${at}`;
    case 'unexpected )':
      return 'There is a ) without a matching (';
    case 'missing argument to repetition operator':
      return `There is nothing before ${at} to repeat`;
    case 'invalid nested repetition operator':
      return `A repetition cannot be repeated directly (${at}); possessive forms like a++ are not supported`;
    case 'trailing backslash at end of expression':
      return 'The pattern ends with a lone backslash \\';
    case 'duplicate capture group name':
      return `The group name '${at}' is used twice`;
    case 'expression nests too deeply':
      return 'Groups are nested too deeply';
    case 'expression too large':
      return 'The pattern is too large. Use smaller repetition counts';
    default:
      return `This is not a valid regular expression (${what}${at ? `: ${at}` : ''})`;
  }
}

function escapeMessage(at: string): string {
  if (/^\\[1-9]/.test(at)) return `Backreferences like ${at} are not supported`;
  if (at === '\\k') return 'Named backreferences like \\k<name> are not supported';
  if (at === '\\c')
    return 'Control-character escapes like \\cC are not supported; write the code, e.g. \\x03';
  if (at === '\\Z') return '\\Z is not supported; use $ for the end of the value';
  if (/^\\[dDwWsSpP]/.test(at))
    return `${at} cannot be used here, for example as the end of a range like a-\\d`;
  if (at.startsWith('\\x'))
    return `The escape ${at}... is not a valid code point; write \\x41 or \\x{1F600}`;
  return `The escape ${at} is not supported`;
}

function repeatMessage(at: string): string {
  const counts = at.match(/\d+/g)?.map(Number) ?? [];
  if (counts.some((n) => n > 1000)) return `Repetition count above 1000 is not supported (${at})`;
  if (counts.length === 2 && (counts[0] as number) > (counts[1] as number)) {
    return `The repetition ${at} has its minimum above its maximum`;
  }
  return `Nested repetitions like (a{100}){100} multiply beyond 1000; use smaller counts (${at})`;
}
