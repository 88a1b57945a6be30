// Excel-damage warnings: what a trip through Excel does to data that no type check sees on its own.
// Counted per column while the sheet is read (a few numbers per column, no per-row memory) and
// turned into one warning per kind and column, each with the first cell where it was seen.

import type { Warning } from '../model.ts';
import { columnName } from './cell-ref.ts';

interface Seen {
  count: number;
  cell: string;
  value: string;
}

class ColumnDamage {
  leadingZeroText?: Seen;
  wholeNumbers?: Seen;
  scientificText?: Seen;
  longNumbers?: Seen;
  wideIntegers?: Seen;
  dates?: Seen;
  dateText?: Seen;
  serialsInDateColumn?: Seen;
}

/** Counts one more; the cell reference and value text are built only for the first. */
type Ref = (col: number, row: number) => string;
const note = (
  seen: Seen | undefined,
  ref: Ref,
  col: number,
  row: number,
  value: string | (() => string),
): Seen => {
  if (seen) {
    seen.count++;
    return seen;
  }
  return { count: 1, cell: ref(col, row), value: typeof value === 'string' ? value : value() };
};

const LEADING_ZERO = /^0\d+$/;
const SCIENTIFIC = /^[+-]?\d+(\.\d+)?E[+-]?\d+$/i;
const DATE_TEXT =
  /^(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})([ T]\d{1,2}:\d{2}(:\d{2})?)?$/;
/** Most warnings kept per sheet: a wide damaged sheet must not drown the report in them. */
const MAX_WARNINGS = 50;

function asciiText(bytes: Uint8Array, from: number, to: number): string {
  let text = '';
  for (let i = from; i < to; i++) text += String.fromCharCode(bytes[i]!);
  return text;
}

export class DamageReport {
  private readonly columns: ColumnDamage[] = [];
  private errorValues?: Seen;
  private uncached?: Seen;
  private merged?: Seen;

  constructor(private readonly ref: (col: number, row: number) => string) {}

  private column(col: number): ColumnDamage {
    return (this.columns[col] ??= new ColumnDamage());
  }

  text(col: number, row: number, value: string): void {
    if (value.length < 2 || value.length > 40) return;
    const c = value.charCodeAt(0);
    if (c === 48 && LEADING_ZERO.test(value)) {
      const d = this.column(col);
      d.leadingZeroText = note(d.leadingZeroText, this.ref, col, row, value);
    } else if (c >= 48 && c <= 57) {
      if (SCIENTIFIC.test(value)) {
        const d = this.column(col);
        d.scientificText = note(d.scientificText, this.ref, col, row, value);
      } else if (DATE_TEXT.test(value)) {
        const d = this.column(col);
        d.dateText = note(d.dateText, this.ref, col, row, value);
      }
    }
  }

  /** A number cell (not a date): `raw` as stored, `shown` as read. */
  number(
    col: number,
    row: number,
    raw: string,
    shown: string,
    digits: number,
    dateColumn: boolean,
  ): void {
    if (dateColumn) {
      const d = this.column(col);
      d.serialsInDateColumn = note(d.serialsInDateColumn, this.ref, col, row, shown);
      return;
    }
    const whole = shown.indexOf('.') < 0 && shown.charCodeAt(0) !== 45;
    if (digits > 15) {
      const d = this.column(col);
      d.longNumbers = note(d.longNumbers, this.ref, col, row, () => `${shown} (stored as ${raw})`);
      if (whole) d.wholeNumbers = note(d.wholeNumbers, this.ref, col, row, shown);
    } else this.shownNumber(col, row, whole, shown.length, shown);
  }

  /**
   * A number cell of at most 15 digits shown as stored, its ASCII bytes[from, to) (made text only
   * if it is the first seen: this runs for every number cell): `whole` when it has no fraction
   * and no sign.
   */
  plainNumber(
    col: number,
    row: number,
    whole: boolean,
    bytes: Uint8Array,
    from: number,
    to: number,
    dateColumn: boolean,
  ): void {
    if (!dateColumn && !whole) return;
    const d = this.column(col);
    const first = dateColumn
      ? d.serialsInDateColumn === undefined
      : d.wholeNumbers === undefined || (to - from >= 12 && d.wideIntegers === undefined);
    const shown = first ? asciiText(bytes, from, to) : '';
    if (dateColumn) {
      d.serialsInDateColumn = note(d.serialsInDateColumn, this.ref, col, row, shown);
      return;
    }
    this.shownNumber(col, row, whole, to - from, shown);
  }

  private shownNumber(
    col: number,
    row: number,
    whole: boolean,
    length: number,
    shown: string | (() => string),
  ): void {
    if (!whole) return;
    const d = this.column(col);
    if (length >= 12) d.wideIntegers = note(d.wideIntegers, this.ref, col, row, shown);
    d.wholeNumbers = note(d.wholeNumbers, this.ref, col, row, shown);
  }

  date(col: number, row: number, shown: string): void {
    const d = this.column(col);
    d.dates = note(d.dates, this.ref, col, row, shown);
  }

  errorValue(col: number, row: number, value: string): void {
    this.errorValues = note(this.errorValues, this.ref, col, row, value);
  }

  formulaWithoutValue(col: number, row: number): void {
    this.uncached = note(this.uncached, this.ref, col, row, '');
  }

  mergedRange(range: string, sheetPrefix: string): void {
    this.merged = note(this.merged, () => `${sheetPrefix}${range}`, 0, 0, range);
  }

  warnings(header: readonly string[]): Warning[] {
    const out: Warning[] = [];
    const name = (col: number) =>
      header[col] ? `Column "${header[col]}" (${columnName(col)})` : `Column ${columnName(col)}`;
    // "1 cell holds", "3 cells hold": the count and its verb agree.
    const cells = (n: number, verb = 'hold') =>
      n === 1 ? `1 cell ${verb}s` : `${n.toLocaleString('en-GB')} cells ${verb}`;
    this.columns.forEach((d, col) => {
      if (!d) return;
      const lz = d.leadingZeroText;
      const nums = d.wholeNumbers;
      if (lz && nums) {
        out.push({
          code: 'excel_leading_zeros',
          message: `${name(col)}: ${cells(nums.count)} numbers where others hold text with leading zeros (${nums.cell} is ${nums.value}, ${lz.cell} is ${lz.value}): Excel drops leading zeros when it reads such values as numbers`,
        });
      }
      if (d.scientificText) {
        const s = d.scientificText;
        out.push({
          code: 'excel_scientific',
          message: `${name(col)}: ${cells(s.count)} text in scientific notation (${s.cell} is ${s.value}): an ID that went through Excel as a number has lost its digits`,
        });
      }
      if (d.wideIntegers) {
        const s = d.wideIntegers;
        out.push({
          code: 'excel_scientific',
          message: `${name(col)}: ${cells(s.count)} numbers of 12 or more digits (${s.cell} is ${s.value}), which Excel shows in scientific notation (1.23457E+11) and writes that way to CSV: store IDs as text`,
        });
      }
      if (d.longNumbers) {
        const s = d.longNumbers;
        out.push({
          code: 'excel_long_number',
          message: `${name(col)}: ${cells(s.count)} numbers beyond 15 significant digits (${s.cell} is ${s.value}): Excel keeps only 15, so the last digits are already lost; store IDs as text`,
        });
      }
      if (d.dates && d.dateText) {
        out.push({
          code: 'excel_mixed_dates',
          message: `${name(col)}: ${cells(d.dateText.count)} dates typed as text (${d.dateText.cell} is ${d.dateText.value}) while ${cells(d.dates.count)} real dates (${d.dates.cell})`,
        });
      }
      if (d.serialsInDateColumn) {
        const s = d.serialsInDateColumn;
        out.push({
          code: 'excel_mixed_dates',
          message: `${name(col)}: ${cells(s.count)} plain numbers in a date column (${s.cell} is ${s.value}): a date whose cell lost its date format shows as its serial number`,
        });
      }
    });
    if (this.errorValues) {
      const s = this.errorValues;
      out.push({
        code: 'excel_error_value',
        message: `${cells(s.count)} Excel error values (${s.cell} is ${s.value}): a formula failed when the workbook was last calculated`,
      });
    }
    if (this.uncached) {
      out.push({
        code: 'excel_no_cached_value',
        message: `${cells(this.uncached.count)} formulas without a calculated value (first ${this.uncached.cell}): they read as empty; open and save the workbook in Excel to calculate them`,
      });
    }
    if (this.merged) {
      out.push({
        code: 'excel_merged_cells',
        message: `The sheet has ${this.merged.count === 1 ? '1 merged range' : `${this.merged.count.toLocaleString('en-GB')} merged ranges`} (first ${this.merged.cell}): only the top-left cell of each holds the value, the others read as empty`,
      });
    }
    return out.slice(0, MAX_WARNINGS);
  }
}
