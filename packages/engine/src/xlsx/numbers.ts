// Numbers as Excel shows them: Excel keeps 15 significant digits, so a stored
// 0.30000000000000004 is 0.3 on screen, and a 19-digit ID is 1234567890123456800 in the file but
// 1234567890123450000 in Excel. Values are written as plain decimals (no exponent) so the
// engine's integer and number rules read them as they read CSV.

/** The cell's number as Excel shows it, in plain decimal notation. */
export function excelNumberText(v: string): string {
  if (isShortPlainDecimal(v)) return v;
  const n = Number(v);
  if (!Number.isFinite(n)) return v;
  if (n === 0) return '0';
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  return plainDecimal(n.toPrecision(15));
}

/** Up to 15 digits, optional sign and fraction, no exponent, no trailing fraction zeros. */
function isShortPlainDecimal(v: string): boolean {
  let digits = 0;
  let dot = -1;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if (c === 46 && dot < 0 && i > 0) dot = i;
    else if (!(c === 45 && i === 0)) return false;
  }
  if (digits === 0 || digits > 15) return false;
  if (v.charCodeAt(v[0] === '-' ? 1 : 0) === 48 && v.length > 1 && dot !== (v[0] === '-' ? 2 : 1))
    return false; // a leading zero that is not "0."
  return dot < 0 || (dot < v.length - 1 && v.charCodeAt(v.length - 1) !== 48);
}

/** 1 for a digit, 2 for a point, 0 for any other byte of a stored number. */
const NUMBER_BYTE = new Uint8Array(256);
NUMBER_BYTE.fill(1, 48, 58);
NUMBER_BYTE[46] = 2;

/** isShortPlainDecimal on a stored number's bytes[from, to): its bytes are then its text. */
export function isShortPlainDecimalAt(bytes: Uint8Array, from: number, to: number): boolean {
  // Every comparison here runs on every usual call: one first met late (a minus sign, a leading
  // zero) had no type feedback yet and threw away the optimized sheet code this is inlined into
  // (the sheet reader's number handler was compiled 3 times on the bench's workbook, not 1).
  const first = from + (bytes[from] === 45 ? 1 : 0);
  let digits = 0;
  let points = 0;
  let dot = -1;
  for (let i = first; i < to; i++) {
    const k = NUMBER_BYTE[bytes[i]!]!;
    if (k === 0) return false;
    digits += k & 1;
    points += k >> 1;
    dot = k === 2 ? i : dot;
  }
  if (digits === 0 || digits > 15 || points > 1 || dot === from) return false;
  const zeroFirst = bytes[first] === 48;
  const long = to - from > 1;
  const zeroPoint = dot === first + 1;
  if (zeroFirst && long && !zeroPoint) return false; // a leading zero that is not "0."
  const pointLast = dot === to - 1;
  const zeroLast = bytes[to - 1] === 48;
  return dot < 0 || (!pointLast && !zeroLast);
}

/** `1.23450000000000e+18` → `1234500000000000000`; `5.00000000000000e-7` → `0.0000005`. */
export function plainDecimal(text: string): string {
  const m = /^(-?)(\d)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(text);
  if (!m) return text;
  const sign = m[1]!;
  const digits = (m[2]! + (m[3] ?? '')).replace(/0+$/, '') || '0';
  const exp = Number(m[4] ?? '0'); // the point sits after the first digit, shifted by exp
  const point = 1 + exp;
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return out === '0' ? '0' : sign + out;
}

/** Significant digits of a stored number as written in the file (`12345678901234567` → 17). */
export function significantDigits(v: string): number {
  const mantissa = v
    .replace(/^[-+]/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '');
  return mantissa.replace(/^0+/, '').replace(/0+$/, '').length;
}
