import { describe, expect, it } from 'vitest';
import {
  compileDateFormat,
  dateFormatTokens,
  dateKey,
  dayKey,
  ISO_DATE_TIME_FORMAT,
  parseIsoDate,
  type DateFormat,
} from './date-format.ts';

function format(f: string): DateFormat {
  const compiled = compileDateFormat(f);
  if (!compiled.ok) throw new Error(compiled.message);
  return compiled.dateFormat;
}

function refusal(f: string): string {
  const compiled = compileDateFormat(f);
  if (compiled.ok) throw new Error(`accepted ${f}`);
  return compiled.message;
}

describe('compileDateFormat', () => {
  it('refuses unknown letter tokens, naming the token and the format', () => {
    expect(refusal('YYYY-Q')).toBe(
      "Unknown date token 'Q' in format 'YYYY-Q'. Use YYYY, MM, DD, HH, mm, ss (and T between date and time, Z for a time zone, z for an optional one)",
    );
    expect(refusal('D/M/YYYY')).toMatch(/^Unknown date token 'D' in format 'D\/M\/YYYY'/);
    expect(refusal('YY-MM-DD')).toMatch(/^Unknown date token 'YY'/);
    expect(refusal('yyyy-MM-dd')).toMatch(/^Unknown date token 'yyyy'/);
    expect(refusal('YYYY-MM-DD at HH')).toMatch(
      /^Unknown date token 'a' in format 'YYYY-MM-DD at HH'/,
    );
  });

  it('refuses an empty format, a repeated token and a format with no tokens', () => {
    expect(refusal('')).toBe('The date format is empty. Use tokens like YYYY-MM-DD');
    expect(refusal('DD-MM-DD')).toBe("The date format 'DD-MM-DD' uses DD twice");
    expect(refusal('--/--')).toMatch(/has no date tokens/);
    expect(refusal('Y'.repeat(4) + '-'.repeat(200))).toMatch(/longer than 100/);
  });

  it('accepts T as a literal between date and time', () => {
    expect(format('YYYY-MM-DDTHH:mm:ss').parse('2024-02-29T23:59:59')).toEqual({
      year: 2024,
      month: 2,
      day: 29,
      hour: 23,
      minute: 59,
      second: 59,
    });
  });
});

describe('DateFormat.parse', () => {
  const iso = format('YYYY-MM-DD');

  it('accepts real calendar dates only, leap years included', () => {
    expect(iso.parse('2024-02-29')).not.toBeNull();
    expect(iso.parse('2000-02-29')).not.toBeNull();
    expect(iso.parse('2023-02-29')).toBeNull();
    expect(iso.parse('1900-02-29')).toBeNull();
    expect(iso.parse('2024-02-30')).toBeNull();
    expect(iso.parse('2024-04-31')).toBeNull();
    expect(iso.parse('2024-12-31')).not.toBeNull();
    expect(iso.parse('2024-13-01')).toBeNull();
    expect(iso.parse('2024-00-10')).toBeNull();
    expect(iso.parse('2024-01-00')).toBeNull();
  });

  it('requires the exact layout and widths', () => {
    for (const bad of [
      '2024-1-05',
      '2024-01-5',
      '24-01-05',
      '02024-01-05',
      '2024/01/05',
      '2024-01-05 ',
      ' 2024-01-05',
      '2024-01-0x',
      '',
      '2024-01-05T00:00:00',
    ]) {
      expect(iso.parse(bad), bad).toBeNull();
    }
  });

  it('reads other layouts with the same tokens', () => {
    expect(format('DD/MM/YYYY').parse('31/12/2024')).toMatchObject({
      year: 2024,
      month: 12,
      day: 31,
    });
    expect(format('DD/MM/YYYY').parse('12/31/2024')).toBeNull();
    expect(format('MM/DD/YYYY').parse('12/31/2024')).toMatchObject({ month: 12, day: 31 });
    expect(format('YYYYMMDD').parse('20240105')).toMatchObject({ year: 2024, month: 1, day: 5 });
    expect(format('DD.MM.YYYY').parse('05.01.2024')).toMatchObject({ day: 5 });
  });

  it('checks time parts: HH 00-23, mm and ss 00-59', () => {
    const f = format('YYYY-MM-DD HH:mm:ss');
    expect(f.parse('2024-01-05 00:00:00')).not.toBeNull();
    expect(f.parse('2024-01-05 23:59:59')).not.toBeNull();
    expect(f.parse('2024-01-05 24:00:00')).toBeNull();
    expect(f.parse('2024-01-05 10:60:00')).toBeNull();
    expect(f.parse('2024-01-05 10:00:60')).toBeNull();
    expect(f.parse('2024-01-05 1:00:00')).toBeNull();
  });

  it('accepts 29 February in a format without a year', () => {
    expect(format('DD/MM').parse('29/02')).not.toBeNull();
    expect(format('DD/MM').parse('30/02')).toBeNull();
  });

  it('reads the RFC 3339 tail with Z: fraction, then Z or an offset', () => {
    const f = format(ISO_DATE_TIME_FORMAT);
    for (const good of [
      '2024-01-05T10:20:30Z',
      '2024-01-05T10:20:30z',
      '2024-01-05T10:20:30.123Z',
      '2024-01-05T10:20:30.123456789+02:00',
      '2024-01-05T10:20:30-05:30',
      // RFC 3339 sets no limit on the fraction's digits.
      '2024-01-05T10:20:30.1234567890Z',
    ]) {
      expect(f.parse(good), good).toMatchObject({ year: 2024, hour: 10, minute: 20, second: 30 });
    }
    for (const bad of [
      '2024-01-05T10:20:30',
      '2024-01-05T10:20:30.Z',
      '2024-01-05T10:20:30+2:00',
      '2024-01-05T10:20:30+24:00',
      '2024-01-05T10:20:30+02:60',
      '2024-01-05T10:20:30+0200',
      '2024-01-05 10:20:30Z',
    ]) {
      expect(f.parse(bad), bad).toBeNull();
    }
  });
});

describe('parseIsoDate and keys', () => {
  it('parses minDate/maxDate text', () => {
    expect(parseIsoDate('2024-03-09')).toEqual({
      year: 2024,
      month: 3,
      day: 9,
      hour: 0,
      minute: 0,
      second: 0,
    });
    expect(parseIsoDate('2024-3-9')).toBeNull();
    expect(parseIsoDate('2023-02-29')).toBeNull();
  });

  it('orders dates and date-times', () => {
    const a = format('YYYY-MM-DD HH:mm:ss').parse('2024-03-09 10:20:30');
    const b = format('YYYY-MM-DD HH:mm:ss').parse('2024-03-10 00:00:00');
    if (a === null || b === null) throw new Error('unparsed');
    expect(dateKey(a)).toBe(20240309102030);
    expect(dateKey(a)).toBeLessThan(dateKey(b));
    expect(dayKey(a)).toBe(20240309);
    expect(dayKey(a)).toBeLessThan(dayKey(b));
    expect(
      dateKey({ year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59 }),
    ).toBeLessThan(Number.MAX_SAFE_INTEGER);
  });

  it('lists the tokens of a format', () => {
    expect(dateFormatTokens('DD/MM/YYYYTHH')).toEqual(['DD', '/', 'MM', '/', 'YYYY', 'T', 'HH']);
    expect(dateFormatTokens('Q')).toBeNull();
  });
});
