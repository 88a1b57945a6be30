// Date formats written with tokens (YYYY MM DD HH mm ss, plus Z for an RFC 3339 time-zone tail
// and z for an optional one),
// compiled once into a list of fixed-width segments that parse() walks with charCodeAt: no regex,
// no Date object, one small object allocated per accepted value.

export interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export interface DateFormat {
  readonly format: string;
  /** The value's parts when it matches the format exactly and is a real calendar date/time. */
  parse(value: string): DateParts | null;
  /** parse() of text[start, end), read where it lies (a CSV line). */
  parseSpan(text: string, start: number, end: number): DateParts | null;
  /** dateKey() of parseSpan(), or -1 when it is not a date: no object allocated per value. */
  keySpan(text: string, start: number, end: number): number;
  /**
   * Whether text[start, end) is written in the format's layout, real date or not: 2024-02-30
   * is, so a message can say "not a real date" rather than "wrong format".
   */
  fitsLayout(text: string, start: number, end: number): boolean;
}

export type CompiledDateFormat =
  { ok: true; dateFormat: DateFormat } | { ok: false; message: string };

export const DEFAULT_DATE_FORMAT = 'YYYY-MM-DD';
/** What JSON Schema's `date-time` and Table Schema's default `datetime` become. */
export const ISO_DATE_TIME_FORMAT = 'YYYY-MM-DDTHH:mm:ssZ';
/** Table Schema's default `datetime` and `time`: the zone and fraction may be left out. */
export const TABLE_DATE_TIME_FORMAT = 'YYYY-MM-DDTHH:mm:ssz';
export const TABLE_TIME_FORMAT = 'HH:mm:ssz';
export const MAX_DATE_FORMAT_LENGTH = 100;

// Segment kinds (plain numbers rather than an enum, so the file stays erasable TypeScript).
const LITERAL = 0;
const YEAR = 1;
const MONTH = 2;
const DAY = 3;
const HOUR = 4;
const MINUTE = 5;
const SECOND = 6;
const ZONE = 7;
/** `z`: the RFC 3339 tail made optional (fraction and zone each optional), as Table Schema's
 * datetime and time read values: `10:00:00`, `10:00:00.5` and `10:00:00Z` all fit `HH:mm:ssz`. */
const OPTIONAL_ZONE = 8;
type Kind = number;

const TOKENS: Record<string, Kind> = {
  YYYY: YEAR,
  MM: MONTH,
  DD: DAY,
  HH: HOUR,
  mm: MINUTE,
  ss: SECOND,
  Z: ZONE,
  z: OPTIONAL_ZONE,
};

/** Letters that are text, not tokens: the ISO 8601 date/time separator. */
const LITERAL_LETTERS = new Set(['T']);

const TOKEN_LIST =
  'YYYY, MM, DD, HH, mm, ss (and T between date and time, Z for a time zone, z for an optional one)';

interface Segment {
  kind: Kind;
  /** The character code of a literal. */
  code: number;
}

type CompiledSegments = { ok: true; segments: Segment[] } | { ok: false; message: string };

/**
 * Tokens: YYYY MM DD HH mm ss, and Z: an RFC 3339 tail, i.e. optional fractional seconds
 * (`.123`) then `Z` or an offset like `+02:00`. A run of one ASCII letter is a token; the letter T
 * alone is a literal; any other letter run is an unknown token. Everything else is literal text.
 */
function compileSegments(format: string): CompiledSegments {
  if (typeof format !== 'string' || format.length === 0) {
    return { ok: false, message: 'The date format is empty. Use tokens like YYYY-MM-DD' };
  }
  if (format.length > MAX_DATE_FORMAT_LENGTH) {
    return {
      ok: false,
      message: `The date format is longer than ${MAX_DATE_FORMAT_LENGTH} characters`,
    };
  }
  const segments: Segment[] = [];
  const seen = new Set<Kind>();
  let i = 0;
  while (i < format.length) {
    const c = format.charCodeAt(i);
    if (!isAsciiLetter(c)) {
      segments.push({ kind: LITERAL, code: c });
      i++;
      continue;
    }
    let end = i + 1;
    while (end < format.length && format.charCodeAt(end) === c) end++;
    const token = format.slice(i, end);
    i = end;
    const kind = TOKENS[token];
    if (kind === undefined) {
      if (LITERAL_LETTERS.has(token)) {
        segments.push({ kind: LITERAL, code: c });
        continue;
      }
      return {
        ok: false,
        message: `Unknown date token '${token}' in format '${format}'. Use ${TOKEN_LIST}`,
      };
    }
    if (
      seen.has(kind) ||
      (kind === ZONE && seen.has(OPTIONAL_ZONE)) ||
      (kind === OPTIONAL_ZONE && seen.has(ZONE))
    ) {
      return { ok: false, message: `The date format '${format}' uses ${token} twice` };
    }
    seen.add(kind);
    segments.push({ kind, code: 0 });
  }
  if (seen.size === 0) {
    return {
      ok: false,
      message: `The date format '${format}' has no date tokens. Use ${TOKEN_LIST}`,
    };
  }
  return { ok: true, segments };
}

/**
 * The format's parts, in order: a literal (kind 0, its character code) or a field of digits (1
 * YYYY, 2 MM, 3 DD, 4 HH, 5 mm, 6 ss); null when it has a zone or does not compile.
 */
export function plainDateSegments(format: string): readonly Segment[] | null {
  const compiled = compileSegments(format);
  if (!compiled.ok) return null;
  return compiled.segments.every((s) => s.kind <= SECOND) ? compiled.segments : null;
}

export function compileDateFormat(format: string): CompiledDateFormat {
  const compiled = compileSegments(format);
  if (!compiled.ok) return compiled;
  const segments = compiled.segments;

  const scratch: DateParts = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  const parseSpan = spanParser(segments, true, scratch);
  const layoutSpan = spanParser(segments, false, scratch);
  const copy = (found: DateParts | null): DateParts | null =>
    found === null ? null : { ...found };
  return {
    ok: true,
    dateFormat: {
      format,
      parse: (value) =>
        typeof value === 'string' ? copy(parseSpan(value, 0, value.length)) : null,
      parseSpan: (text, start, end) => copy(parseSpan(text, start, end)),
      keySpan: (text, start, end) => {
        const found = parseSpan(text, start, end);
        return found === null ? -1 : dateKey(found);
      },
      fitsLayout: (text, start, end) => layoutSpan(text, start, end) !== null,
    },
  };
}

/** `real`: also require a real calendar date and time (no 30 February, no 24:00). */
/** The parts go into `out` (reused: callers copy what they keep), which is returned. */
function spanParser(
  segments: Segment[],
  real: boolean,
  out: DateParts,
): (value: string, start: number, end: number) => DateParts | null {
  const count = segments.length;
  const kinds = Int8Array.from(segments, (s) => s.kind);
  const codes = Int32Array.from(segments, (s) => s.code);
  return (value, start, n) => {
    // A format without a year accepts 29 February, hence a leap year by default.
    let year = 2000;
    let month = 1;
    let day = 1;
    let hour = 0;
    let minute = 0;
    let second = 0;
    let pos = start;
    let zoned = false;
    for (let s = 0; s < count; s++) {
      const kind = kinds[s];
      if (kind === LITERAL) {
        const c = pos < n ? value.charCodeAt(pos) : -1;
        // RFC 3339 (5.6, note) allows a lowercase t between date and time.
        if (c !== codes[s] && !(codes[s] === 84 /* T */ && c === 116) /* t */) return null;
        pos++;
        continue;
      }
      if (kind === ZONE) {
        pos = zoneEnd(value, pos, n);
        if (pos < 0) return null;
        zoned = true;
        continue;
      }
      if (kind === OPTIONAL_ZONE) {
        // Only at the end of the value or before what the format has next: a tail if one is there.
        pos = optionalZoneEnd(value, pos, n);
        if (pos < 0) return null;
        zoned = lastOptionalZoned;
        continue;
      }
      const width = kind === YEAR ? 4 : 2;
      if (pos + width > n) return null;
      let v = 0;
      for (let k = 0; k < width; k++) {
        const d = value.charCodeAt(pos + k) - 48;
        if (d < 0 || d > 9) return null;
        v = v * 10 + d;
      }
      pos += width;
      if (kind === YEAR) year = v;
      else if (kind === MONTH) month = v;
      else if (kind === DAY) day = v;
      else if (kind === HOUR) hour = v;
      else if (kind === MINUTE) minute = v;
      else second = v;
    }
    if (pos !== n) return null;
    out.year = year;
    out.month = month;
    out.day = day;
    out.hour = hour;
    out.minute = minute;
    out.second = second;
    if (!real) return out;
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
    if (hour > 23 || minute > 59 || second > 60) return null;
    // A leap second (:60) exists only at 23:59 UTC, so only where the zone says which time is UTC.
    if (second === 60) {
      if (!zoned) return null;
      const utcMinute = (((hour * 60 + minute - lastOffsetMinutes) % 1440) + 1440) % 1440;
      if (utcMinute !== 23 * 60 + 59) return null;
    }
    return out;
  };
}

/** Whether the last optionalZoneEnd found a zone. */
let lastOptionalZoned = false;

/** Where an optional `[.fraction][Z|±HH:mm]` starting at `pos` ends, or -1 for a bad one. */
function optionalZoneEnd(value: string, pos: number, n: number): number {
  lastOptionalZoned = false;
  let p = pos;
  if (p < n && value.charCodeAt(p) === 46 /* . */) {
    const start = ++p;
    while (p < n && isDigit(value.charCodeAt(p))) p++;
    if (p === start) return -1;
  }
  if (p >= n) return p;
  const c = value.charCodeAt(p);
  if (c !== 90 && c !== 122 && c !== 43 && c !== 45) return p;
  lastOffsetMinutes = 0;
  const end = zoneEnd(value, p, n);
  if (end >= 0) lastOptionalZoned = true;
  return end;
}

/** The offset of the last zone zoneEnd read, in minutes east of UTC (no allocation per value). */
let lastOffsetMinutes = 0;

/**
 * Where an RFC 3339 tail (`[.fraction](Z|±HH:mm)`) starting at `pos` ends before n, or -1. The
 * fraction may have any number of digits (RFC 3339 sets no limit).
 */
function zoneEnd(value: string, pos: number, n: number): number {
  if (pos >= n) return -1;
  if (value.charCodeAt(pos) === 46 /* . */) {
    const start = ++pos;
    while (pos < n && isDigit(value.charCodeAt(pos))) pos++;
    if (pos === start || pos >= n) return -1;
  }
  const c = value.charCodeAt(pos);
  lastOffsetMinutes = 0;
  if (c === 90 /* Z */ || c === 122 /* z */) return pos + 1;
  if (c !== 43 /* + */ && c !== 45 /* - */) return -1;
  if (pos + 6 > n || value.charCodeAt(pos + 3) !== 58 /* : */) return -1;
  const h1 = value.charCodeAt(pos + 1);
  const h2 = value.charCodeAt(pos + 2);
  const m1 = value.charCodeAt(pos + 4);
  const m2 = value.charCodeAt(pos + 5);
  if (!isDigit(h1) || !isDigit(h2) || !isDigit(m1) || !isDigit(m2)) return -1;
  const offsetHours = (h1 - 48) * 10 + (h2 - 48);
  const offsetMinutes = (m1 - 48) * 10 + (m2 - 48);
  if (offsetHours > 23 || offsetMinutes > 59) return -1;
  lastOffsetMinutes = (c === 45 ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  return pos + 6;
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isAsciiLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (DAYS[month - 1] ?? 0);
}

const iso = compileDateFormat(DEFAULT_DATE_FORMAT);

/** A real calendar date written as YYYY-MM-DD (the form of minDate and maxDate), else null. */
export function parseIsoDate(s: string): DateParts | null {
  return iso.ok ? iso.dateFormat.parse(s) : null;
}

/** Orders date-times: a greater key is later. 2024-03-09 10:20:30 is 20240309102030. */
export function dateKey(parts: DateParts): number {
  return (
    ((((parts.year * 100 + parts.month) * 100 + parts.day) * 100 + parts.hour) * 100 +
      parts.minute) *
      100 +
    parts.second
  );
}

/** Orders calendar days, ignoring the time: 2024-03-09 is 20240309. */
export function dayKey(parts: DateParts): number {
  return (parts.year * 100 + parts.month) * 100 + parts.day;
}

/** The tokens a format uses, for callers that describe or translate it. */
export function dateFormatTokens(format: string): string[] | null {
  const compiled = compileDateFormat(format);
  if (!compiled.ok) return null;
  const tokens: string[] = [];
  let i = 0;
  while (i < format.length) {
    const c = format.charCodeAt(i);
    let end = i + 1;
    if (isAsciiLetter(c)) while (end < format.length && format.charCodeAt(end) === c) end++;
    tokens.push(format.slice(i, end));
    i = end;
  }
  return tokens;
}
