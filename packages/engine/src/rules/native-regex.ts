// A fast path for the simplest user patterns: a native RegExp, used only when it provably gives
// RE2's verdict in linear time. re2js stays the judge of what is accepted (this code runs only on
// patterns re2js compiled); this only picks a faster engine for the same answer.
//
// Accepted shape: an optional `^`, then a flat sequence of single-character items (literal, `.`, `\d` `\D` `\w`
// `\W`, a bracket class of those, an escaped punctuation or `\xHH`/`\x{H}` code point), each with
// an optional greedy quantifier (`?` `*` `+` `{n}` `{n,}` `{n,m}`), unquantified `(?:...)` or
// `(...)` groups (flattened), and an optional final `$`. No alternation, no other escapes or flags.
//
// Same verdict: for a regular expression, whether some match exists does not depend on the
// engine's choice among matches, so only the meaning of each item must agree. The native pattern
// is rebuilt from code-point ranges with the `u` flag, so `.` becomes `[^\n]` (RE2's dot) and
// lone surrogates count as one character in both engines. `^`/`$` without the m flag mean start
// and end of input in both.
//
// Linear time: every item whose length can vary must not share a character with what may come
// right after it (the following items up to and including the first mandatory one). Then a
// backtracking engine never has a real choice: every shorter alternative fails at the next
// character, so one attempt costs O(length of value × number of items), and `^` rules out every
// start position but the first. Without `^` every start position is tried, so each attempt must
// also be short: every item needs an upper bound, and together at most MAX_UNANCHORED_SPAN.

type Ranges = number[];

export interface Item {
  /** Sorted, disjoint, non-adjacent [lo, hi] code-point pairs, flattened. */
  set: Ranges;
  min: number;
  max: number;
}

const MAX_CODE_POINT = 0x10ffff;
const MAX_UNANCHORED_SPAN = 256;
const DIGIT: Ranges = [48, 57];
const WORD: Ranges = [48, 57, 65, 90, 95, 95, 97, 122];
const NOT_NEWLINE: Ranges = [0, 9, 11, MAX_CODE_POINT];

/**
 * The pattern as a flat sequence of items in which greed never takes a character a later item
 * needed (see "Linear time" above), so one greedy pass over a value gives RE2's verdict; or null.
 */
export function deterministicItems(pattern: string): Parsed | null {
  const parsed = parseSubset(pattern);
  return parsed === null || !deterministic(parsed.items) ? null : parsed;
}

/** A native RegExp with RE2's verdict on every input, or null when that cannot be shown. */
export function nativeEquivalent(pattern: string): RegExp | null {
  const parsed = deterministicItems(pattern);
  if (parsed === null) return null;
  if (!parsed.startAnchor) {
    let span = 0;
    for (const item of parsed.items) span += item.max;
    if (!(span <= MAX_UNANCHORED_SPAN)) return null;
  }
  let source = parsed.startAnchor ? '^' : '';
  for (const item of parsed.items) source += emitSet(item.set) + emitQuantifier(item);
  if (parsed.endAnchor) source += '$';
  try {
    return new RegExp(source, 'u');
  } catch {
    return null;
  }
}

export interface Parsed {
  items: Item[];
  startAnchor: boolean;
  endAnchor: boolean;
}

function parseSubset(p: string): Parsed | null {
  const startAnchor = p.charCodeAt(0) === 94; /* ^ */
  const items: Item[] = [];
  let depth = 0;
  let i = startAnchor ? 1 : 0;
  const n = p.length;
  while (i < n) {
    const c = p.codePointAt(i) as number;
    if (c === 36 /* $ */) {
      if (i !== n - 1) return null;
      if (depth !== 0) return null;
      return { items, startAnchor, endAnchor: true };
    }
    if (c === 40 /* ( */) {
      if (p.charCodeAt(i + 1) === 63 /* ? */) {
        if (p.charCodeAt(i + 2) !== 58 /* : */) return null;
        i += 3;
      } else i++;
      depth++;
      continue;
    }
    if (c === 41 /* ) */) {
      depth--;
      i++;
      if (depth < 0 || isQuantifierStart(p.charCodeAt(i))) return null;
      continue;
    }
    let set: Ranges | null;
    if (c === 46 /* . */) {
      set = NOT_NEWLINE;
      i++;
    } else if (c === 91 /* [ */) {
      const cls = parseClass(p, i + 1);
      if (cls === null) return null;
      set = cls.set;
      i = cls.end;
    } else if (c === 92 /* \ */) {
      const esc = parseEscape(p, i + 1);
      if (esc === null) return null;
      set = esc.set;
      i = esc.end;
    } else if (c === 124 /* | */ || c === 94 /* ^ */ || isQuantifierStart(c) || c === 93 /* ] */) {
      return null;
    } else {
      set = [c, c];
      i += c > 0xffff ? 2 : 1;
    }
    const q = parseQuantifier(p, i);
    if (q === null) return null;
    i = q.end;
    items.push({ set, min: q.min, max: q.max });
  }
  return depth === 0 ? { items, startAnchor, endAnchor: false } : null;
}

function isQuantifierStart(c: number): boolean {
  return c === 42 /* * */ || c === 43 /* + */ || c === 63 /* ? */ || c === 123; /* { */
}

function parseQuantifier(p: string, i: number): { min: number; max: number; end: number } | null {
  const c = p.charCodeAt(i);
  let min = 1;
  let max = 1;
  let end = i;
  if (c === 42) [min, max, end] = [0, Infinity, i + 1];
  else if (c === 43) [min, max, end] = [1, Infinity, i + 1];
  else if (c === 63) [min, max, end] = [0, 1, i + 1];
  else if (c === 123) {
    const m = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(p.slice(i, i + 12));
    if (m === null) return null;
    min = Number(m[1]);
    max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    if (max < min) return null;
    end = i + m[0].length;
  }
  // Lazy, possessive or stacked quantifiers are left to re2js.
  if (end !== i && isQuantifierStart(p.charCodeAt(end))) return null;
  return { min, max, end };
}

/** An escape after the backslash at `i - 1`: a class shorthand or one literal code point. */
function parseEscape(p: string, i: number): { set: Ranges; end: number; literal: boolean } | null {
  const c = p.charCodeAt(i);
  if (Number.isNaN(c)) return null;
  const shorthand = { d: DIGIT, D: complement(DIGIT), w: WORD, W: complement(WORD) }[
    String.fromCharCode(c)
  ];
  if (shorthand !== undefined) return { set: shorthand, end: i + 1, literal: false };
  const control = { a: 7, t: 9, n: 10, v: 11, f: 12, r: 13 }[String.fromCharCode(c)];
  if (control !== undefined) return { set: [control, control], end: i + 1, literal: true };
  if (c === 120 /* x */) {
    const m = /^x(?:\{([0-9A-Fa-f]{1,6})\}|([0-9A-Fa-f]{2}))/.exec(p.slice(i, i + 10));
    if (m === null) return null;
    const cp = parseInt(m[1] ?? m[2] ?? '', 16);
    if (!(cp <= MAX_CODE_POINT)) return null;
    return { set: [cp, cp], end: i + m[0].length, literal: true };
  }
  const isPunct = c < 128 && !/[0-9A-Za-z\s]/.test(String.fromCharCode(c));
  if (isPunct && c > 32 && c !== 127) return { set: [c, c], end: i + 1, literal: true };
  return null;
}

/** A bracket class whose body starts at `i` (after `[`). */
function parseClass(p: string, i: number): { set: Ranges; end: number } | null {
  let negate = false;
  if (p.charCodeAt(i) === 94 /* ^ */) {
    negate = true;
    i++;
  }
  // RE2 reads a `]` right after `[` as a literal; JS would not: leave such classes to re2js.
  if (p.charCodeAt(i) === 93 /* ] */) return null;
  let set: Ranges = [];
  let first = true;
  for (;;) {
    if (i >= p.length) return null;
    const c = p.codePointAt(i) as number;
    if (c === 93 /* ] */) break;
    if (c === 91 /* [ */) return null;
    let lo: number;
    if (c === 92 /* \ */) {
      const esc = parseEscape(p, i + 1);
      if (esc === null) return null;
      i = esc.end;
      if (!esc.literal) {
        if (p.charCodeAt(i) === 45 /* - */ && p.charCodeAt(i + 1) !== 93) return null;
        set = union(set, esc.set);
        first = false;
        continue;
      }
      lo = esc.set[0] as number;
    } else if (c === 45 /* - */ && !first && p.charCodeAt(i + 1) !== 93) {
      return null;
    } else {
      lo = c;
      i += c > 0xffff ? 2 : 1;
    }
    first = false;
    let hi = lo;
    if (p.charCodeAt(i) === 45 /* - */ && p.charCodeAt(i + 1) !== 93 /* ] */) {
      const h = p.codePointAt(i + 1) as number;
      if (h === 92) {
        const esc = parseEscape(p, i + 2);
        if (esc === null || !esc.literal) return null;
        hi = esc.set[0] as number;
        i = esc.end;
      } else if (h === 91) {
        return null;
      } else {
        hi = h;
        i += 1 + (h > 0xffff ? 2 : 1);
      }
      if (hi < lo) return null;
    }
    set = union(set, [lo, hi]);
  }
  return { set: negate ? complement(set) : set, end: i + 1 };
}

function deterministic(items: Item[]): boolean {
  // Walking back from the end: what may start right after item i is item i+1's set, plus what
  // may follow i+1 when i+1 can be empty.
  let follow: Ranges = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as Item;
    if (item.min !== item.max && intersects(item.set, follow)) return false;
    follow = item.min >= 1 ? item.set : union(follow, item.set);
  }
  return true;
}

function union(a: Ranges, b: Ranges): Ranges {
  const pairs: [number, number][] = [];
  for (let k = 0; k < a.length; k += 2) pairs.push([a[k] as number, a[k + 1] as number]);
  for (let k = 0; k < b.length; k += 2) pairs.push([b[k] as number, b[k + 1] as number]);
  pairs.sort((x, y) => x[0] - y[0]);
  const out: Ranges = [];
  for (const [lo, hi] of pairs) {
    const last = out.length - 1;
    if (out.length > 0 && lo <= (out[last] as number) + 1)
      out[last] = Math.max(out[last] as number, hi);
    else out.push(lo, hi);
  }
  return out;
}

function complement(a: Ranges): Ranges {
  const out: Ranges = [];
  let next = 0;
  for (let k = 0; k < a.length; k += 2) {
    if ((a[k] as number) > next) out.push(next, (a[k] as number) - 1);
    next = (a[k + 1] as number) + 1;
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
  return out;
}

function intersects(a: Ranges, b: Ranges): boolean {
  let x = 0;
  let y = 0;
  while (x < a.length && y < b.length) {
    const aLo = a[x] as number;
    const aHi = a[x + 1] as number;
    const bLo = b[y] as number;
    const bHi = b[y + 1] as number;
    if (aLo <= bHi && bLo <= aHi) return true;
    if (aHi < bHi) x += 2;
    else y += 2;
  }
  return false;
}

const hex = (cp: number) => `\\u{${cp.toString(16)}}`;

function emitSet(set: Ranges): string {
  if (set.length === 2 && set[0] === set[1]) return hex(set[0] as number);
  let s = '[';
  for (let k = 0; k < set.length; k += 2) {
    const lo = set[k] as number;
    const hi = set[k + 1] as number;
    s += lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`;
  }
  return `${s}]`;
}

function emitQuantifier(item: Item): string {
  if (item.min === 1 && item.max === 1) return '';
  if (item.max === Infinity) return `{${item.min},}`;
  if (item.min === item.max) return `{${item.min}}`;
  return `{${item.min},${item.max}}`;
}
