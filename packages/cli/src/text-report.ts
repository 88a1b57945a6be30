import type { ErrorCode, Issue, ValidationResult } from '@schemacheck/engine';
import { plural } from './io.ts';
import { formatBytes } from './progress.ts';

const SHOWN_ERRORS = 20;
const VALUE_CHARS = 40;
const ROW_LEVEL = '(row)';

/** Errors counted by column and code, for the summary of people-facing output. */
export class FieldCodeCounts {
  readonly byField = new Map<string, Map<ErrorCode, number>>();
  add(issue: Issue) {
    this.addCount(issue.field, issue.code, 1);
  }

  addCount(issueField: string, code: ErrorCode, count: number) {
    const field = issueField || ROW_LEVEL;
    let codes = this.byField.get(field);
    if (!codes) this.byField.set(field, (codes = new Map()));
    codes.set(code, (codes.get(code) ?? 0) + count);
  }
}

interface TextReportInput {
  name: string;
  result: ValidationResult;
  counts: FieldCodeCounts;
  bytes: number;
  seconds: number;
  color: boolean;
}

export function formatText({
  name,
  result,
  counts,
  bytes,
  seconds,
  color,
}: TextReportInput): string {
  const paint = (code: string, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const bold = (t: string) => paint('1', t);
  const dim = (t: string) => paint('2', t);
  const out: string[] = [];

  if (result.valid) {
    out.push(
      `${paint('32', '✓')} ${bold(name)} is valid: ${plural(result.totalRows, 'row')} checked.`,
    );
  } else {
    out.push(
      `${paint('31', '✗')} ${bold(name)}: ${plural(result.errorCount, 'error')} in ${plural(result.invalidRows, 'row')} of ${result.totalRows.toLocaleString('en-GB')}.`,
    );
  }
  if (result.rowLimitExceeded)
    out.push(paint('33', '! Stopped at the row limit; later rows were not checked.'));
  for (const warning of result.warnings)
    out.push(`${paint('33', '!')} ${visible(warning.message)}`);

  if (counts.byField.size > 0) {
    out.push('', bold('Errors by column'));
    const width = Math.min(
      30,
      Math.max(...[...counts.byField.keys()].map((f) => visible(f).length)),
    );
    const fields = [...counts.byField.entries()].sort((a, b) => total(b[1]) - total(a[1]));
    for (const [field, codes] of fields) {
      const detail = [...codes.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([code, n]) => `${code} ${n.toLocaleString('en-GB')}`)
        .join(', ');
      out.push(
        `  ${visible(field).padEnd(width)}  ${total(codes).toLocaleString('en-GB').padStart(9)}  ${dim(detail)}`,
      );
    }
  }

  if (result.errors.length > 0) {
    const shown = result.errors.slice(0, SHOWN_ERRORS);
    out.push('', bold(`First ${shown.length === 1 ? 'error' : `${shown.length} errors`}`));
    for (const issue of shown) {
      out.push(issueLine(issue, dim));
    }
    const rest = result.errorCount - shown.length;
    if (rest > 0)
      out.push(dim(`  … and ${plural(rest, 'more error')}. Use --format csv for the full report.`));
  }

  // Rules marked as warnings (docs/decisions/202): listed apart, never making the file invalid.
  const warned = result.warningIssues ?? [];
  if (warned.length > 0) {
    const shown = warned.slice(0, SHOWN_ERRORS);
    const count = result.warningCount ?? warned.length;
    out.push('', bold(`${plural(count, 'warning')} (rules marked as warnings)`));
    for (const issue of shown) {
      out.push(issueLine(issue, dim));
    }
    if (count > shown.length)
      out.push(dim(`  … and ${plural(count - shown.length, 'more warning')}.`));
  }

  const rate = seconds > 0 ? ` (${formatBytes(bytes / seconds)}/s)` : '';
  out.push('', dim(`Checked ${formatBytes(bytes)} in ${seconds.toFixed(2)} s${rate}.`), '');
  return out.join('\n');
}

function total(codes: Map<ErrorCode, number>): number {
  let sum = 0;
  for (const n of codes.values()) sum += n;
  return sum;
}

/** Control characters are shown escaped so a hostile cell cannot drive the terminal. */
function quote(value: string): string {
  const short = value.length > VALUE_CHARS ? `${value.slice(0, VALUE_CHARS)}…` : value;
  return JSON.stringify(short);
}

// C0, DEL and C1: escape sequences, line breaks and the like.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Text that may carry a cell, a header or a JSON property name (a rule's message quotes the other
 * field's value; a custom message its {value}): control characters escaped as `quote` does.
 */
function visible(text: string): string {
  return text.replace(CONTROL, (c) =>
    c === '\n'
      ? '\\n'
      : c === '\r'
        ? '\\r'
        : c === '\t'
          ? '\\t'
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * `  Row 3       category: Must be one of … "Expnese"`. A custom message may leave out the
 * engine's "Did you mean", so the suggestion is added when the message does not carry it.
 */
function issueLine(issue: Issue, dim: (text: string) => string): string {
  const where = visible(
    `${issue.cell ? `${issue.cell} ` : ''}${issue.path ?? (issue.field || ROW_LEVEL)}`,
  );
  const value = issue.value === null ? '' : `  ${dim(quote(issue.value))}`;
  const hint =
    issue.suggestion !== undefined && !issue.message.includes(quote(issue.suggestion))
      ? `  ${dim(`did you mean ${quote(issue.suggestion)}?`)}`
      : '';
  return `  Row ${String(issue.row).padEnd(7)} ${where}: ${visible(issue.message)}${value}${hint}`;
}
