import { LosslessNumber } from '../model.ts';

/**
 * A literal with at most this many digits and an exponent of at most two digits always survives
 * the trip through a double (15 = DBL_DIG), so it needs no further check.
 */
export const SAFE_NUMBER_DIGITS = 15;

/**
 * The JSON number literal as a JS number when the double holds its exact decimal value (its
 * shortest form reads back as the same number), otherwise as a LosslessNumber with the literal as
 * written: 9007199254740993, 12345678901234567890, 1e400 (Infinity) and 1e-400 (0) all keep it.
 */
export function numberFromLiteral(raw: string): number | LosslessNumber {
  const value = Number(raw);
  if (!Number.isFinite(value)) return new LosslessNumber(raw);
  const shown = String(value);
  // The common case, a long integer id: JSON has no leading zeros, so equal text is equal value.
  if (shown === raw) return value;
  // Two integers written without leading zeros or exponent differ in value when they differ.
  if (CANONICAL_INTEGER.test(raw) && CANONICAL_INTEGER.test(shown)) return new LosslessNumber(raw);
  return decimalKey(shown) === decimalKey(raw) ? value : new LosslessNumber(raw);
}

const CANONICAL_INTEGER = /^-?[1-9]\d*$/;

/** Canonical form of a decimal: `-` sign, significant digits, `e`, position of the point. */
function decimalKey(text: string): string {
  let i = 0;
  const negative = text.charCodeAt(0) === 0x2d;
  if (negative) i++;
  let exponentAt = text.indexOf('e', i);
  if (exponentAt === -1) exponentAt = text.indexOf('E', i);
  const mantissaEnd = exponentAt === -1 ? text.length : exponentAt;
  const point = text.indexOf('.', i);
  const integerDigits =
    point === -1 || point > mantissaEnd ? text.slice(i, mantissaEnd) : text.slice(i, point);
  const fractionDigits =
    point === -1 || point > mantissaEnd ? '' : text.slice(point + 1, mantissaEnd);
  const exponent = exponentAt === -1 ? 0 : Number(text.slice(exponentAt + 1));
  let digits = integerDigits + fractionDigits;
  let pointPosition = integerDigits.length + exponent;
  let first = 0;
  while (first < digits.length && digits.charCodeAt(first) === 0x30) first++;
  let last = digits.length;
  while (last > first && digits.charCodeAt(last - 1) === 0x30) last--;
  if (first === last) return '0';
  pointPosition -= first;
  digits = digits.slice(first, last);
  return `${negative ? '-' : ''}${digits}e${pointPosition}`;
}

/**
 * The end of the well-formed number literal at text[i], or -1 when the literal is not what
 * String() writes for its value (`1.50`, `1e2`, `-0`, `0.0000001`).
 */
export function shortestNumberEnd(text: string, i: number): number {
  const start = i;
  if (text.charCodeAt(i) === 0x2d) i++;
  const intStart = i;
  while (isDigitAt(text, i)) i++;
  const zeroInt = i - intStart === 1 && text.charCodeAt(intStart) === 0x30;
  let digits = i - intStart;
  let fractionZeros = -1;
  if (text.charCodeAt(i) === 0x2e) {
    i++;
    const fractionStart = i;
    while (isDigitAt(text, i)) i++;
    digits += i - fractionStart;
    // 1.50 is written 1.5.
    if (text.charCodeAt(i - 1) === 0x30) return -1;
    fractionZeros = 0;
    while (text.charCodeAt(fractionStart + fractionZeros) === 0x30) fractionZeros++;
  }
  const c = text.charCodeAt(i);
  // An exponent is written otherwise (1e2: 100) but for big and small numbers.
  if (c === 0x65 || c === 0x45) return -1;
  if (zeroInt && fractionZeros < 0 && i - start === 2) return -1; // -0 is written 0
  // With at most 15 digits the literal is the double's shortest form, unless it is below 1e-6
  // (written with an exponent); longer ones are compared as JavaScript writes them.
  if (digits <= 15 && !(zeroInt && fractionZeros >= 6)) return i;
  const literal = text.slice(start, i);
  return String(Number(literal)) === literal ? i : -1;
}

const isDigitAt = (text: string, i: number) => {
  const c = text.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
};
