// Decimal literals as the engine reads them, and exact comparison of their values.
//
// Numbers are checked as text so that integers beyond 2^53 and long decimals compare exactly.
// The scan is a charCodeAt loop that writes into one reused object: checking a number cell
// allocates nothing. Values with at most 15 digits and no exponent also get their double,
// computed during the scan (an exact integer mantissa divided by an exact power of ten is
// correctly rounded), so the common case compares doubles; everything else compares digits.

/** The most digits whose decimal value a double keeps apart from every other such value. */
const FAST_DIGITS = 15;
/** Exact powers of ten, 10^0 to 10^15. */
export const POW10 = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/** What a scan found. Positions are indexes into the scanned text. */
export interface DecimalScan {
  negative: boolean;
  intStart: number;
  intEnd: number;
  /** Fraction digits are [fracStart, fracEnd); equal when there are none. */
  fracStart: number;
  fracEnd: number;
  /** The written exponent (0 without one); may be huge, so kept as a double. */
  exponent: number;
  hasExponent: boolean;
  /** The value as a double when `fast` (≤ 15 digits, no exponent); otherwise meaningless. */
  approx: number;
  fast: boolean;
}

export function newScan(): DecimalScan {
  return {
    negative: false,
    intStart: 0,
    intEnd: 0,
    fracStart: 0,
    fracEnd: 0,
    exponent: 0,
    hasExponent: false,
    approx: 0,
    fast: false,
  };
}

/**
 * Reads s[start, end) as an integer (`[+-]?[0-9]+`) when `integerOnly`, otherwise as a plain
 * decimal (`[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?`). Anything else is refused: no
 * spaces, no thousands separators, no hex, no NaN or Infinity. The span may lie inside a longer
 * text (a CSV line), so a character at `end` is never read as part of the number.
 */
export function scanDecimal(
  s: string,
  start: number,
  end: number,
  integerOnly: boolean,
  out: DecimalScan,
): boolean {
  const n = end;
  let i = start;
  let c = i < n ? s.charCodeAt(i) : -1;
  out.negative = false;
  if (c === 45 /* - */ || c === 43 /* + */) {
    out.negative = c === 45;
    c = ++i < n ? s.charCodeAt(i) : -1;
  }
  let mantissa = 0;
  out.intStart = i;
  while (c >= 48 && c <= 57) {
    mantissa = mantissa * 10 + (c - 48);
    c = ++i < n ? s.charCodeAt(i) : -1;
  }
  out.intEnd = i;
  out.fracStart = i;
  out.fracEnd = i;
  out.exponent = 0;
  out.hasExponent = false;
  if (integerOnly) {
    if (i !== n || i === out.intStart) return false;
    out.fast = i - out.intStart <= FAST_DIGITS;
    out.approx = out.negative ? -mantissa : mantissa;
    return true;
  }
  if (c === 46 /* . */) {
    c = ++i < n ? s.charCodeAt(i) : -1;
    out.fracStart = i;
    while (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      c = ++i < n ? s.charCodeAt(i) : -1;
    }
    out.fracEnd = i;
  }
  if (out.intEnd === out.intStart && out.fracEnd === out.fracStart) return false;
  if (c === 101 /* e */ || c === 69 /* E */) {
    c = ++i < n ? s.charCodeAt(i) : -1;
    let expNegative = false;
    if (c === 45 || c === 43) {
      expNegative = c === 45;
      c = ++i < n ? s.charCodeAt(i) : -1;
    }
    const expStart = i;
    let exponent = 0;
    while (c >= 48 && c <= 57) {
      exponent = exponent * 10 + (c - 48);
      c = ++i < n ? s.charCodeAt(i) : -1;
    }
    if (i === expStart) return false;
    out.exponent = expNegative ? -exponent : exponent;
    out.hasExponent = true;
  }
  if (i !== n) return false;
  const fracDigits = out.fracEnd - out.fracStart;
  out.fast = !out.hasExponent && out.intEnd - out.intStart + fracDigits <= FAST_DIGITS;
  if (out.fast) {
    const magnitude = mantissa / (POW10[fracDigits] as number);
    out.approx = out.negative ? -magnitude : magnitude;
  }
  return true;
}

/** Decimal places of the value as written: `1.50` has 2, `1.5e1` has 0, `1e-3` has 3. */
export function decimalPlaces(scan: DecimalScan): number {
  const places = scan.fracEnd - scan.fracStart - scan.exponent;
  return places > 0 ? places : 0;
}

/**
 * An exact decimal: value = 0.d₁d₂…dₙ × 10^point, with no leading or trailing zeros in `digits`
 * ("" for zero, whatever its sign).
 */
export interface Decimal {
  negative: boolean;
  digits: string;
  point: number;
}

export function toDecimal(s: string, scan: DecimalScan): Decimal {
  let digits = s.slice(scan.intStart, scan.intEnd) + s.slice(scan.fracStart, scan.fracEnd);
  let point = scan.intEnd - scan.intStart + scan.exponent;
  let lead = 0;
  while (lead < digits.length && digits.charCodeAt(lead) === 48) lead++;
  let end = digits.length;
  while (end > lead && digits.charCodeAt(end - 1) === 48) end--;
  digits = digits.slice(lead, end);
  point -= lead;
  return {
    negative: scan.negative && digits.length > 0,
    digits,
    point: digits.length > 0 ? point : 0,
  };
}

/** Parses decimal text (schema bounds); undefined when it is not a plain decimal. */
export function parseDecimal(s: string): Decimal | undefined {
  const scan = newScan();
  return scanDecimal(s, 0, s.length, false, scan) ? toDecimal(s, scan) : undefined;
}

export function compareDecimals(a: Decimal, b: Decimal): number {
  if (a.negative !== b.negative) return a.negative ? -1 : 1;
  const sign = a.negative ? -1 : 1;
  return sign * compareMagnitudes(a, b);
}

function compareMagnitudes(a: Decimal, b: Decimal): number {
  if (a.digits.length === 0 || b.digits.length === 0) {
    return (a.digits.length > 0 ? 1 : 0) - (b.digits.length > 0 ? 1 : 0);
  }
  if (a.point !== b.point) return a.point > b.point ? 1 : -1;
  return a.digits < b.digits ? -1 : a.digits > b.digits ? 1 : 0;
}

/** True when the value has no fractional part (`1.0`, `1e3` and `9007199254740993` do). */
export function isIntegral(d: Decimal): boolean {
  return d.point >= d.digits.length;
}

/**
 * A bound from the schema, ready for both comparison paths. `fast` is set when the bound's
 * double orders exactly like its decimal against every ≤15-digit value (≤15 significant digits,
 * far from overflow and underflow).
 */
export interface Bound {
  text: string;
  decimal: Decimal;
  fast: number | undefined;
}

export function toBound(text: string): Bound | undefined {
  const decimal = parseDecimal(text);
  if (decimal === undefined) return undefined;
  const safe = decimal.digits.length <= FAST_DIGITS && decimal.point > -290 && decimal.point < 290;
  return { text, decimal, fast: safe ? Number(text) : undefined };
}

/** Compares the scanned value with a bound: negative, zero or positive. */
export function compareToBound(s: string, scan: DecimalScan, bound: Bound): number {
  if (scan.fast && bound.fast !== undefined) {
    const a = scan.approx;
    return a < bound.fast ? -1 : a > bound.fast ? 1 : 0;
  }
  return compareDecimals(toDecimal(s, scan), bound.decimal);
}
