// What a field's type check read from the value it last accepted, kept for the cross-field rules
// that read the same field in the same row: the field checks run first (on the CSV fast path, the
// normal path and JSON alike), so a rule on a date, a number or an enum finds the value it is
// about to read already parsed, instead of reading it again.

import type { DecimalScan } from '../decimal.ts';

export class LastValue {
  text = '';
  /** -1: nothing held (the check has not accepted a value since its scan was last reused). */
  start = -1;
  end = -1;
  /** A date: its dateKey. */
  key = 0;
  /** A number: the check's own scan of it (valid until the check's next call). */
  scan: DecimalScan | undefined;

  hold(text: string, start: number, end: number, key: number): void {
    this.text = text;
    this.start = start;
    this.end = end;
    this.key = key;
  }

  /** Whether the value held is text[start, end): the same characters, so the same reading. */
  is(text: string, start: number, end: number): boolean {
    return start === this.start && end === this.end && text === this.text;
  }
}
