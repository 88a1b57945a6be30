import { describe, expect, it } from 'vitest';
import { customDateKind, formatDateParts, isoText, serialToParts } from './dates.ts';
import { excelNumberText, plainDecimal } from './numbers.ts';

describe('numbers as Excel shows them', () => {
  it('keeps short decimals as stored and rounds to 15 significant digits', () => {
    expect(excelNumberText('12.5')).toBe('12.5');
    expect(excelNumberText('0.30000000000000004')).toBe('0.3');
    expect(excelNumberText('1.234567890123457e+19')).toBe('12345678901234600000');
    expect(excelNumberText('12345678901234567')).toBe('12345678901234600');
    expect(excelNumberText('-1.5e-07')).toBe('-0.00000015');
    expect(excelNumberText('1E3')).toBe('1000');
    expect(excelNumberText('007')).toBe('7');
    expect(excelNumberText('-0')).toBe('0');
    expect(plainDecimal('5.00000000000000e-7')).toBe('0.0000005');
  });
});

describe('dates from serial numbers', () => {
  const iso = (serial: number, system1904 = false, kind: 1 | 2 | 3 = 1) =>
    isoText(serialToParts(serial, system1904)!, kind);
  it('counts the 1900 system with its phantom 1900-02-29', () => {
    expect(iso(1)).toBe('1900-01-01');
    expect(iso(59)).toBe('1900-02-28');
    expect(iso(60)).toBe('1900-02-29');
    expect(iso(61)).toBe('1900-03-01');
    expect(iso(45306)).toBe('2024-01-15');
    expect(iso(45306.572916666664, false, 2)).toBe('2024-01-15 13:45:00');
    expect(iso(0.99999999, false, 3)).toBe('00:00:00');
    expect(iso(0.5, false, 3)).toBe('12:00:00');
  });
  it('counts the 1904 system from 1904-01-01', () => {
    expect(iso(0, true)).toBe('1904-01-01');
    expect(iso(43844, true)).toBe('2024-01-15');
  });
  it('writes a date in a schema date format', () => {
    const parts = serialToParts(45306.5, false)!;
    expect(formatDateParts(parts, 'DD/MM/YYYY')).toBe('15/01/2024');
    expect(formatDateParts(parts, 'YYYY-MM-DDTHH:mm:ssZ')).toBe('2024-01-15T12:00:00Z');
    expect(formatDateParts(parts, 'HH:mm:ssz')).toBe('12:00:00');
  });
  it('tells date formats from number formats', () => {
    expect(customDateKind('yyyy-mm-dd')).toBe(1);
    expect(customDateKind('[$-409]d-mmm-yy;@')).toBe(1);
    expect(customDateKind('dd/mm/yyyy hh:mm')).toBe(2);
    expect(customDateKind('h:mm AM/PM')).toBe(3);
    expect(customDateKind('[h]:mm:ss')).toBe(3);
    expect(customDateKind('#,##0.00 "EUR"')).toBe(0);
    expect(customDateKind('0.00%')).toBe(0);
    expect(customDateKind('[Red]0.00')).toBe(0);
    expect(customDateKind('"Day" 0')).toBe(0);
    expect(customDateKind('General')).toBe(0);
  });
});
