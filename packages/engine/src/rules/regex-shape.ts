// A light scan of RE2 pattern syntax: enough to see whether a pattern is `^X$` as a whole and
// whether it has a top-level `|`. It skips escapes, `\Q...\E` quotes and bracket classes the way
// RE2 reads them. Run it only on patterns RE2 has accepted.

export interface PatternShape {
  /** `|` outside every group and class. */
  topLevelAlternation: boolean;
  /** Starts with an unescaped `^`. */
  startAnchor: boolean;
  /** Ends with an unescaped `$` outside any class or quote. */
  endAnchor: boolean;
}

export function patternShape(p: string): PatternShape {
  const n = p.length;
  let depth = 0;
  let alternation = false;
  let endAnchor = false;
  let i = 0;
  while (i < n) {
    const c = p.charCodeAt(i);
    if (c === 92 /* \ */) {
      if (p.charCodeAt(i + 1) === 81 /* Q */) {
        const close = p.indexOf('\\E', i + 2);
        i = close < 0 ? n : close + 2;
      } else i += 2;
      continue;
    }
    if (c === 91 /* [ */) {
      i = classEnd(p, i + 1);
      continue;
    }
    if (c === 40 /* ( */) depth++;
    else if (c === 41 /* ) */) depth--;
    else if (c === 124 /* | */ && depth === 0) alternation = true;
    else if (c === 36 /* $ */ && i === n - 1 && depth === 0) endAnchor = true;
    i++;
  }
  return { topLevelAlternation: alternation, startAnchor: p.charCodeAt(0) === 94, endAnchor };
}

/** The index just after the `]` closing a class whose body starts at `i`. */
function classEnd(p: string, i: number): number {
  const n = p.length;
  if (p.charCodeAt(i) === 94 /* ^ */) i++;
  // RE2 reads a `]` right after `[` or `[^` as a literal.
  if (p.charCodeAt(i) === 93 /* ] */) i++;
  while (i < n) {
    const c = p.charCodeAt(i);
    if (c === 92 /* \ */) {
      i += 2;
      continue;
    }
    if (c === 91 /* [ */ && p.charCodeAt(i + 1) === 58 /* : */) {
      const close = p.indexOf(':]', i + 2);
      if (close >= 0) {
        i = close + 2;
        continue;
      }
    }
    if (c === 93 /* ] */) return i + 1;
    i++;
  }
  return n;
}

/** X when the pattern is `^X$` and X has no top-level `|` (so `^X$` means: the whole value is X). */
export function wholeValueBody(p: string): string | undefined {
  if (p.length < 2) return undefined;
  const shape = patternShape(p);
  if (!shape.startAnchor || !shape.endAnchor || shape.topLevelAlternation) return undefined;
  return p.slice(1, -1);
}
