// Cheap tests of what a sample value looks like. They only propose a type; the validator's own
// checks decide what passes, so a value these accept and the validator refuses shows up at once.

/** The WHATWG "valid e-mail address" shape, which browsers use for <input type=email>. */
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const MAX_EMAIL_LENGTH = 320;

export function looksLikeEmail(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && value.includes('@') && EMAIL.test(value);
}

/** An absolute http(s) URL with a host, written without spaces. */
export function looksLikeUrl(value: string): boolean {
  if (!/^https?:\/\/[^\s]+$/i.test(value) || value.length > 2048) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Leading zeros mark a code (zip, account number), which must stay text to keep its zeros. */
function hasLeadingZero(value: string): boolean {
  const digits = value.charCodeAt(0) === 43 || value.charCodeAt(0) === 45 ? value.slice(1) : value;
  return digits.length > 1 && digits.charCodeAt(0) === 48 && digits.charCodeAt(1) !== 46;
}

export function looksLikeInteger(value: string): boolean {
  return INTEGER.test(value) && !hasLeadingZero(value);
}

export function looksLikeDecimal(value: string): boolean {
  return DECIMAL.test(value) && !hasLeadingZero(value);
}

/** Digits after the point as written (1.50 has 2); undefined with an exponent. */
export function writtenDecimals(value: string): number | undefined {
  if (/[eE]/.test(value)) return undefined;
  const dot = value.indexOf('.');
  return dot < 0 ? 0 : value.length - dot - 1;
}
