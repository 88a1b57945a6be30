// Dates are numbers in a workbook: days since an epoch, the time of day as the fraction. Only
// the cell's number format says that 45306 is 2024-01-15, so styles.xml is read once and each
// cell style classified as date, date-time, time or not a date.

/** 0 not a date; 1 date; 2 date and time; 3 time of day. */
export type DateKind = 0 | 1 | 2 | 3;

// Built-in number formats that are dates (ECMA-376 §18.8.30, plus the East Asian ids Excel uses).
const BUILT_IN: Record<number, DateKind> = {
  14: 1,
  15: 1,
  16: 1,
  17: 1,
  18: 3,
  19: 3,
  20: 3,
  21: 3,
  22: 2,
  27: 1,
  28: 1,
  29: 1,
  30: 1,
  31: 1,
  32: 3,
  33: 3,
  34: 3,
  35: 3,
  36: 1,
  45: 3,
  46: 3,
  47: 3,
  50: 1,
  51: 1,
  52: 1,
  53: 1,
  54: 1,
  55: 1,
  56: 1,
  57: 1,
  58: 1,
};

export function builtInDateKind(id: number): DateKind {
  return BUILT_IN[id] ?? 0;
}

/**
 * A custom format's kind: quoted text, escaped characters and [colour]/[$-locale] sections are
 * removed first (their letters are not codes); `m` is a month unless hours or seconds are there.
 * Only the first section (positive numbers) counts.
 */
export function customDateKind(code: string): DateKind {
  const first = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/_./g, '')
    .replace(/\[(?![hms]+\])[^\]]*\]/gi, '')
    .split(';')[0]!
    .toLowerCase();
  if (/^general$/.test(first.trim()) || first.includes('@')) return 0;
  const time = /[hs]|\[[hms]+\]|am\/pm|a\/p/.test(first);
  const date = /[yd]/.test(first) || (!time && first.includes('m'));
  if (date && time) return 2;
  if (date) return 1;
  return time ? 3 : 0;
}

export interface DateTimeParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const DAY_MS = 86_400_000;
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/**
 * The date a serial number stands for. In the 1900 system Excel counts 1900-02-29, a day that
 * never was (a Lotus 1-2-3 bug kept for compatibility): serial 60 is that day, and serials
 * below it are one day later than a plain count from 1899-12-30 gives.
 */
export function serialToParts(serial: number, date1904: boolean): DateTimeParts | null {
  if (!Number.isFinite(serial) || serial < 0 || serial >= 2_958_466) return null;
  let days = Math.floor(serial);
  // Rounded to the second, as Excel shows times.
  let seconds = Math.round((serial - days) * 86_400);
  if (seconds === 86_400) {
    days++;
    seconds = 0;
  }
  const hour = Math.floor(seconds / 3600);
  const minute = Math.floor((seconds % 3600) / 60);
  const second = seconds % 60;
  if (!date1904 && days === 60) return { year: 1900, month: 2, day: 29, hour, minute, second };
  if (!date1904 && days < 60) days++;
  const d = new Date((date1904 ? EPOCH_1904 : EPOCH_1900) + days * DAY_MS);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour,
    minute,
    second,
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** ISO 8601 text: `2024-01-15`, `2024-01-15 13:45:00` or `13:45:00` by the kind. */
export function isoText(p: DateTimeParts, kind: DateKind): string {
  const date = `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
  const time = `${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
  return kind === 3 ? time : kind === 2 ? `${date} ${time}` : date;
}

/** The tokens of a schema date format: text, the part it stands for (see partOf), its width. */
const TOKENS: [string, number, number][] = [
  ['YYYY', 0, 4],
  ['MM', 1, 2],
  ['DD', 2, 2],
  ['HH', 3, 2],
  ['mm', 4, 2],
  ['ss', 5, 2],
];

/**
 * A format read once into its pieces: literal text as strings, a token as its part * 8 + width.
 * A sheet's date column formats every day it holds (~11,000 on the bench's workbook): reading the
 * format again for each, with a search of the token list at every position, made that code hot
 * enough to be compiled, and large to compile.
 */
const formats = new Map<string, (string | number)[]>();
/** Formats kept at most: a schema has a few; more only start the map again. */
const MAX_FORMATS = 64;

function formatPieces(format: string): (string | number)[] {
  let pieces = formats.get(format);
  if (pieces !== undefined) return pieces;
  pieces = [];
  let text = '';
  for (let i = 0; i < format.length;) {
    const token = TOKENS.find(([t]) => format.startsWith(t, i));
    if (token) {
      if (text !== '') pieces.push(text);
      text = '';
      pieces.push(token[1] * 8 + token[2]);
      i += token[0].length;
    } else {
      if (format[i] !== 'z') text += format[i];
      i++;
    }
  }
  if (text !== '') pieces.push(text);
  if (formats.size >= MAX_FORMATS) formats.clear();
  formats.set(format, pieces);
  return pieces;
}

function partOf(p: DateTimeParts, part: number): number {
  switch (part) {
    case 0:
      return p.year;
    case 1:
      return p.month;
    case 2:
      return p.day;
    case 3:
      return p.hour;
    case 4:
      return p.minute;
    default:
      return p.second;
  }
}

/**
 * Text in a schema date format (tokens YYYY MM DD HH mm ss; Z written as `Z`, the optional z
 * left out), so that a real date in a date column reads as valid in the field's own format.
 */
export function formatDateParts(p: DateTimeParts, format: string): string {
  let out = '';
  for (const piece of formatPieces(format)) {
    out += typeof piece === 'string' ? piece : pad(partOf(p, piece >> 3), piece & 7);
  }
  return out;
}

/** `2024-01-15T13:45:00` (a t="d" cell) into parts, or null. */
export function isoToParts(text: string): DateTimeParts | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(text);
  if (!m) return null;
  return {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4] ?? 0),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
  };
}
