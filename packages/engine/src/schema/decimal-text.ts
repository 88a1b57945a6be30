// Numeric rule bounds as canonical decimal text: no exponent, no leading or trailing zeros, '-'
// only when below zero. Kept as text so that 9007199254740993 stays itself.

const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
/** Beyond this an exponent would only spell a number of absurd length. */
const MAX_EXPONENT = 400;

/** The canonical text of a decimal literal (`+1.50e2` → `150`), or null when it is not one. */
export function canonicalDecimal(text: string): string | null {
  const m = DECIMAL.exec(text);
  if (m === null) return null;
  const intDigits = m[2] ?? '';
  const fracDigits = m[3] ?? '';
  if (intDigits === '' && fracDigits === '') return null;
  const exponent = m[4] === undefined ? 0 : Number(m[4]);
  if (Math.abs(exponent) > MAX_EXPONENT) return null;
  let digits = intDigits + fracDigits;
  let point = intDigits.length + exponent;
  let lead = 0;
  while (lead < digits.length && digits.charCodeAt(lead) === 48) lead++;
  digits = digits.slice(lead);
  point -= lead;
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === 48) end--;
  digits = digits.slice(0, end);
  if (digits === '') return '0';
  let body: string;
  if (point <= 0) body = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) body = digits + '0'.repeat(point - digits.length);
  else body = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return m[1] === '-' ? `-${body}` : body;
}

/** A finite double as canonical decimal text (its shortest round-trip spelling). */
export function numberToDecimal(n: number): string | null {
  return Number.isFinite(n) ? canonicalDecimal(String(n)) : null;
}

/** Compares two canonical decimals: negative, zero or positive like a sort comparator. */
export function compareDecimal(a: string, b: string): number {
  const aNeg = a.charCodeAt(0) === 45;
  const bNeg = b.charCodeAt(0) === 45;
  if (aNeg !== bNeg) return aNeg ? -1 : 1;
  const abs = compareMagnitude(aNeg ? a.slice(1) : a, bNeg ? b.slice(1) : b);
  return aNeg ? 0 - abs : abs;
}

function compareMagnitude(a: string, b: string): number {
  const aDot = a.indexOf('.');
  const bDot = b.indexOf('.');
  const aInt = aDot < 0 ? a : a.slice(0, aDot);
  const bInt = bDot < 0 ? b : b.slice(0, bDot);
  if (aInt.length !== bInt.length) return aInt.length - bInt.length;
  if (aInt !== bInt) return aInt < bInt ? -1 : 1;
  const aFrac = aDot < 0 ? '' : a.slice(aDot + 1);
  const bFrac = bDot < 0 ? '' : b.slice(bDot + 1);
  const n = Math.max(aFrac.length, bFrac.length);
  for (let i = 0; i < n; i++) {
    const x = i < aFrac.length ? aFrac.charCodeAt(i) : 48;
    const y = i < bFrac.length ? bFrac.charCodeAt(i) : 48;
    if (x !== y) return x - y;
  }
  return 0;
}

/** Digits after the point of a canonical decimal. */
export function decimalPlaces(canonical: string): number {
  const dot = canonical.indexOf('.');
  return dot < 0 ? 0 : canonical.length - dot - 1;
}

/** The double nearest to a canonical decimal, exactly that decimal when the double holds it. */
export function decimalToNumberIfExact(canonical: string): number | undefined {
  const n = Number(canonical);
  return numberToDecimal(n) === canonical ? n : undefined;
}
