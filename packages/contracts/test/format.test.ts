import { describe, expect, it } from 'vitest';

import {
  formatBytes,
  formatCount,
  formatDateTime,
  formatLongDate,
  formatMoney,
} from '../src/format.ts';

// What a person reads on the pages and in the server's messages: one output for each value.
describe('format', () => {
  it('writes sizes in binary units with at most three figures', () => {
    expect(formatBytes(0)).toBe('0 Bytes');
    expect(formatBytes(1)).toBe('1 Byte');
    expect(formatBytes(342)).toBe('342 Bytes');
    expect(formatBytes(1023)).toBe('1,023 Bytes');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(12_345)).toBe('12.1 KB');
    expect(formatBytes(1024 * 1024)).toBe('1 MB');
    expect(formatBytes(2.25 * 1024 * 1024)).toBe('2.25 MB');
    expect(formatBytes(25 * 1024 * 1024)).toBe('25 MB');
    expect(formatBytes(100 * 1024 * 1024)).toBe('100 MB');
    expect(formatBytes(1.5 * 1024 ** 3)).toBe('1.5 GB');
  });

  it('writes pence as pounds with pence', () => {
    expect(formatMoney(0)).toBe('£0.00');
    expect(formatMoney(1200)).toBe('£12.00');
    expect(formatMoney(3950)).toBe('£39.50');
    expect(formatMoney(123_456)).toBe('£1,234.56');
    expect(formatMoney(-500)).toBe('-£5.00');
  });

  it('writes long dates as day, month and year in UTC', () => {
    expect(formatLongDate('2026-12-01T00:00:00.000Z')).toBe('1 December 2026');
    expect(formatLongDate(new Date(Date.UTC(2026, 0, 31, 23, 59)))).toBe('31 January 2026');
    expect(formatLongDate('not a date')).toBe('not a date');
    expect(formatLongDate(null)).toBe('');
  });

  it('writes moments in the same family, with the time in UTC', () => {
    expect(formatDateTime('2026-12-01T14:05:09.000Z')).toBe('1 December 2026, 14:05 UTC');
    expect(formatDateTime(new Date(Date.UTC(2026, 0, 31, 0, 4, 5)), { seconds: true })).toBe(
      '31 January 2026, 00:04:05 UTC',
    );
    expect(formatDateTime('not a date')).toBe('not a date');
    expect(formatDateTime(null)).toBe('');
  });

  it('groups counts by thousands', () => {
    expect(formatCount(500)).toBe('500');
    expect(formatCount(50_000)).toBe('50,000');
    expect(formatCount(1_234_567)).toBe('1,234,567');
  });
});
