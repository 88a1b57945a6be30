import type { FieldRules } from '../../model.ts';
import {
  compileDateFormat,
  dayKey,
  DEFAULT_DATE_FORMAT,
  parseIsoDate,
} from '../../rules/date-format.ts';
import { messages } from '../messages.ts';
import { failure, type Failure } from './failure.ts';
import type { LastValue } from './last-value.ts';

/** Today's calendar day in UTC, as a dayKey. */
export const utcDayKey = (now: Date) =>
  dayKey({
    year: now.getUTCFullYear(),
    month: now.getUTCMonth() + 1,
    day: now.getUTCDate(),
    hour: 0,
    minute: 0,
    second: 0,
  });

interface DayRule {
  fails: (key: number) => boolean;
  failure: Failure;
}

/**
 * Format check, then minDate/maxDate and allowFuture/allowPast. Every comparison is by calendar
 * day as written: a date-time on maxDate is within it, and today (UTC) is neither future nor past,
 * since the time zone a value was written in is often unknown. `last` holds each value accepted,
 * with its dateKey (cross-field rules read it there).
 */
export function dateCheck(
  rules: FieldRules,
  today: number,
  last?: LastValue,
): (text: string, start: number, end: number, row: number, out: Failure[]) => boolean {
  const format = rules.format ?? DEFAULT_DATE_FORMAT;
  const compiled = compileDateFormat(format);
  if (!compiled.ok) throw new TypeError(`Invalid date format '${format}': ${compiled.message}`);
  const dateFormat = compiled.dateFormat;
  const typeFailure = failure('type', messages.date(format));
  const notRealFailure = failure('type', messages.dateNotReal(format));

  const dayRules: DayRule[] = [];
  const bound = (text: string | undefined) => {
    const parts = text === undefined ? null : parseIsoDate(text);
    return parts === null ? undefined : dayKey(parts);
  };
  const min = bound(rules.minDate);
  const max = bound(rules.maxDate);
  if (min !== undefined) {
    dayRules.push({
      fails: (k) => k < min,
      failure: failure('date_min', messages.dateMin(rules.minDate as string)),
    });
  }
  if (max !== undefined) {
    dayRules.push({
      fails: (k) => k > max,
      failure: failure('date_max', messages.dateMax(rules.maxDate as string)),
    });
  }
  if (rules.allowFuture === false) {
    dayRules.push({
      fails: (k) => k > today,
      failure: failure('date_future', messages.dateFuture),
    });
  }
  if (rules.allowPast === false) {
    dayRules.push({ fails: (k) => k < today, failure: failure('date_past', messages.datePast) });
  }

  return (text, start, end, _row, out) => {
    // keySpan allocates nothing: most date cells are checked without an object of their own.
    const full = dateFormat.keySpan(text, start, end);
    if (full < 0) {
      out.push(dateFormat.fitsLayout(text, start, end) ? notRealFailure : typeFailure);
      return false;
    }
    if (last !== undefined) last.hold(text, start, end, full);
    if (dayRules.length === 0) return true;
    const key = Math.floor(full / 1_000_000);
    for (let i = 0; i < dayRules.length; i++) {
      const rule = dayRules[i] as DayRule;
      if (rule.fails(key)) out.push(rule.failure);
    }
    return true;
  };
}
