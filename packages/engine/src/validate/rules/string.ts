import { messages } from '../messages.ts';
import { failure, type RuleCheck } from './failure.ts';

/**
 * Code points of s[start, end), not UTF-16 units: an emoji is one character. A lone surrogate
 * counts as one.
 */
export function codePointLength(s: string, start: number, end: number): number {
  let n = end - start;
  for (let i = start; i < end - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/**
 * The UTF-16 length bounds the code-point length (cp ≤ len ≤ 2·cp), so most values are decided
 * without counting: only a value in the ambiguous band is walked.
 */
export function lengthRules(
  minLength: number | undefined,
  maxLength: number | undefined,
): RuleCheck | undefined {
  if (minLength === undefined && maxLength === undefined) return undefined;
  const min = minLength ?? 0;
  const max = maxLength ?? Infinity;
  const tooShort = failure('min_length', messages.minLength(min));
  const tooLong = failure('max_length', messages.maxLength(max));
  return (text, start, end, _row, out) => {
    const len = end - start;
    if (len < min) {
      out.push(tooShort);
      return;
    }
    if (len > 2 * max) {
      out.push(tooLong);
      return;
    }
    const needCount = len > max || len < 2 * min;
    if (!needCount) return;
    const cp = codePointLength(text, start, end);
    if (cp < min) out.push(tooShort);
    else if (cp > max) out.push(tooLong);
  };
}

/** Every code point of the value must be one of `allowed`'s. */
export function allowedCharsRule(allowed: string): RuleCheck {
  const ascii = new Uint8Array(128);
  const other = new Set<number>();
  for (const ch of allowed) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 128) ascii[cp] = 1;
    else other.add(cp);
  }
  const isAllowed = (cp: number) => (cp < 128 ? ascii[cp] === 1 : other.has(cp));
  return (text, start, end, _row, out) => {
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c < 128) {
        if (ascii[c] === 1) continue;
      } else {
        // A surrogate pair split by `end` cannot happen: cells end at ASCII delimiters.
        const cp = text.codePointAt(i) as number;
        if (isAllowed(cp)) {
          if (cp > 0xffff) i++;
          continue;
        }
      }
      const value = text.slice(start, end);
      out.push(failure('allowed_chars', messages.allowedChars(disallowed(value, isAllowed))));
      return;
    }
  };
}

const MAX_NAMED_CHARS = 10;

function disallowed(value: string, isAllowed: (cp: number) => boolean): string[] {
  const found: string[] = [];
  for (const ch of value) {
    if (!isAllowed(ch.codePointAt(0) as number) && !found.includes(ch)) {
      found.push(ch);
      if (found.length === MAX_NAMED_CHARS) break;
    }
  }
  return found;
}
