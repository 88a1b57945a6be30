// Counts every issue, keeps the first `maxErrors`, passes all of them on, and tracks which data
// rows had any. Issues arrive in file order, rows in increasing order, so a row is finished as
// soon as an event for a later row arrives: no per-row set is kept.

import type { ErrorCode, Issue, ValidationResult, Warning } from '../model.ts';
import { detachedText } from './issue-value.ts';
import { messages } from './messages.ts';

export const DEFAULT_MAX_ERRORS = 1000;

/**
 * Distinct field names counted in errorsByField. Schema fields stay far below; only a file with
 * endless different unexpected property names gets near, and must not grow memory with them.
 */
export const MAX_COUNTED_FIELDS = 10_000;
/** Where errors of further field names are counted once the cap is reached. */
export const OTHER_FIELDS = '(other fields)';

/** Issues of one field, code and severity counted together: field, code, warning, count. */
export type TallyEntry = [field: string, code: ErrorCode, warning: boolean, count: number];

export class Collector {
  private readonly errors: Issue[] = [];
  private errorCount = 0;
  private readonly byField = new Map<string, number>();
  private readonly byCode = new Map<ErrorCode, number>();
  private readonly warnings = new Map<string, Warning>();
  private finishedRows = 0;
  private invalidRows = 0;
  private currentRow = 0;
  private currentInvalid = false;
  private readonly warningIssues: Issue[] = [];
  private warningCount = 0;

  constructor(
    private readonly maxErrors: number,
    private readonly onIssue: ((issue: Issue) => void) | undefined,
  ) {}

  /** Data rows seen so far, the current one included. */
  get rows(): number {
    return this.finishedRows + (this.currentRow === 0 ? 0 : 1);
  }

  /**
   * Makes `row` the current data row. Returns false, without starting it, when it would be row
   * number `limit + 1`.
   */
  startRow(row: number, limit: number): boolean {
    if (row === this.currentRow) return true;
    this.finishRow();
    if (this.finishedRows >= limit) return false;
    this.currentRow = row;
    return true;
  }

  /** How many more rows startRow would start before `limit`. */
  roomForRows(limit: number): number {
    return Math.max(0, limit - this.rows);
  }

  /**
   * startRow for `count` clean rows at once (count ≤ roomForRows), the last of them `lastRow`:
   * they are counted, and the last one stays current.
   */
  startCleanRows(lastRow: number, count: number): void {
    if (count === 0) return;
    this.finishRow();
    this.finishedRows += count - 1;
    this.currentRow = lastRow;
  }

  finishRow(): void {
    if (this.currentRow === 0) return;
    this.finishedRows++;
    if (this.currentInvalid) this.invalidRows++;
    this.currentRow = 0;
    this.currentInvalid = false;
  }

  /** An issue of the current row (it makes the row invalid, unless it is a warning). */
  rowIssue(issue: Issue): void {
    if (issue.severity === 'warning') {
      this.addWarning(issue);
      return;
    }
    this.currentInvalid = true;
    this.add(issue);
  }

  /** An issue of the file (header, structure): counted, but no data row becomes invalid. */
  add(issue: Issue): void {
    // Kept issues (here and by the sink) must not keep the text they were cut from alive.
    if (issue.value !== null) issue.value = detachedText(issue.value);
    issue.field = detachedText(issue.field);
    this.errorCount++;
    if (this.errors.length < this.maxErrors) this.errors.push(issue);
    this.countError(issue.field, issue.code, 1);
    this.onIssue?.(issue);
  }

  /**
   * Issues counted but not listed (a range's beyond its first `maxErrors`: they cannot be among
   * the file's first), in the order their keys first came; they do not reach onIssue.
   */
  addTally(entries: readonly TallyEntry[]): void {
    for (const [field, code, warning, count] of entries) {
      if (warning) {
        this.warningCount += count;
        continue;
      }
      this.errorCount += count;
      this.countError(detachedText(field), code, count);
    }
  }

  private countError(field: string, code: ErrorCode, count: number): void {
    if (field !== '') {
      const known = this.byField.get(field);
      if (known !== undefined) this.byField.set(field, known + count);
      else if (this.byField.size < MAX_COUNTED_FIELDS) this.byField.set(field, count);
      else this.byField.set(OTHER_FIELDS, (this.byField.get(OTHER_FIELDS) ?? 0) + count);
    }
    this.byCode.set(code, (this.byCode.get(code) ?? 0) + count);
  }

  /** A failure of a rule marked as a warning: listed and counted apart, never invalid. */
  private addWarning(issue: Issue): void {
    if (issue.value !== null) issue.value = detachedText(issue.value);
    issue.field = detachedText(issue.field);
    this.warningCount++;
    if (this.warningIssues.length < this.maxErrors) this.warningIssues.push(issue);
    this.onIssue?.(issue);
  }

  warn(warning: Warning): void {
    const key = `${warning.code}\u0000${warning.message}`;
    if (!this.warnings.has(key))
      this.warnings.set(key, { code: warning.code, message: warning.message });
  }

  result(rowLimitExceeded: boolean): ValidationResult {
    this.finishRow();
    if (this.errorCount > this.errors.length) {
      this.warn({
        code: 'errors_truncated',
        message: messages.errorsTruncated(this.errors.length, this.errorCount),
      });
    }
    const result: ValidationResult = {
      valid: this.errorCount === 0,
      totalRows: this.finishedRows,
      validRows: this.finishedRows - this.invalidRows,
      invalidRows: this.invalidRows,
      errorCount: this.errorCount,
      // fromEntries defines own properties, so a column named __proto__ is counted like any other.
      errorsByField: Object.fromEntries(this.byField),
      errorsByCode: Object.fromEntries(this.byCode),
      warnings: [...this.warnings.values()],
      errors: this.errors,
    };
    // Only when a rule marked as a warning failed, so results without any keep their shape.
    if (this.warningCount > 0) {
      result.warningCount = this.warningCount;
      result.warningIssues = this.warningIssues;
    }
    if (rowLimitExceeded) result.rowLimitExceeded = true;
    return result;
  }
}
