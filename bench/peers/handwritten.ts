// Hand-written checks equivalent to the bench schema (bench/schema.ts), as a careful developer
// would write them for CSV cells without a validation library. Semantics follow docs/engine.md:
// no trimming; empty = `required`; integer = optional sign and digits; number = plain decimal
// with optional sign, fraction and exponent; precision = at most N decimal places; lengths in
// code points; date = real calendar date in YYYY-MM-DD; email = WHATWG valid e-mail address;
// url = absolute http(s) URL with a host (WHATWG URL parser); boolean = default truthy/falsy lists.

import { CATEGORIES, COLUMNS, SKU_PATTERN } from '../schema.ts';

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(?:\d+(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/;
const SKU = new RegExp(SKU_PATTERN);
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const CATEGORY_SET = new Set<string>(CATEGORIES);
const BOOLEANS = new Set(['true', '1', 'yes', 'on', 'false', '0', 'no', 'off']);

/** Code points, without allocating. */
function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

function decimalPlaces(m: RegExpExecArray): number {
  const fraction = (m[1] ?? m[2] ?? '').length;
  const exponent = m[3] ? Number(m[3]) : 0;
  return Math.max(0, fraction - exponent);
}

function isRealDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return day <= days;
}

function isHttpUrl(s: string): boolean {
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

/** Returns the error code for one cell, or null when it is valid. */
export type CellCheck = (value: string) => string | null;

const CHECKS: Record<(typeof COLUMNS)[number], CellCheck> = {
  id: (v) => (!INTEGER.test(v) ? 'type' : Number(v) < 1 ? 'minimum' : null),
  sku: (v) => (SKU.test(v) ? null : 'pattern'),
  name: (v) => {
    const n = codePointLength(v);
    return n < 2 ? 'min_length' : n > 100 ? 'max_length' : null;
  },
  price: (v) => {
    const m = NUMBER.exec(v);
    if (!m) return 'type';
    if (Number(v) < 0) return 'minimum';
    return decimalPlaces(m) > 2 ? 'precision' : null;
  },
  stock: (v) => (!INTEGER.test(v) ? 'type' : Number(v) < 0 ? 'minimum' : null),
  category: (v) => (CATEGORY_SET.has(v) ? null : 'enum'),
  email: (v) => (EMAIL.test(v) ? null : 'type'),
  url: (v) => (isHttpUrl(v) ? null : 'type'),
  date: (v) => (isRealDate(v) ? null : 'type'),
  active: (v) => (BOOLEANS.has(v.toLowerCase()) ? null : 'type'),
};

/**
 * Builds a row checker for a header. `onError(fieldIndex, code)` is called for each bad cell;
 * a missing column is reported by the returned `missing` list.
 */
export function rowChecker(header: string[]) {
  const plan = COLUMNS.map((name) => ({ name, index: header.indexOf(name), check: CHECKS[name] }));
  const missing = plan.filter((p) => p.index < 0).map((p) => p.name);
  const present = plan.filter((p) => p.index >= 0);
  return {
    missing,
    check(cells: string[], onError: (field: string, code: string, value: string) => void): void {
      for (let i = 0; i < present.length; i++) {
        const p = present[i]!;
        const value = cells[p.index];
        if (value === undefined || value === '') {
          onError(p.name, 'required', value ?? '');
          continue;
        }
        const code = p.check(value);
        if (code !== null) onError(p.name, code, value);
      }
    },
  };
}
