// Output for CI systems: GitHub Actions workflow commands and JUnit XML. Both list the errors the
// result keeps (--max-errors), and say how many more there were.
import type { FileType, Issue, ValidationResult } from '@schemacheck/engine';
import { plural } from './io.ts';

export interface FileOutcome {
  name: string;
  fileType: FileType;
  result: ValidationResult;
  seconds: number;
}

/** Workflow-command escaping: data escapes % CR LF; properties also : and , */
const escapeData = (s: string) =>
  s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** ` (value: "Expnese", suggestion: "Expense")`: the cell and the "did you mean", when there are. */
function detail(issue: Issue): string {
  const parts: string[] = [];
  if (issue.value !== null) parts.push(`value: ${JSON.stringify(issue.value)}`);
  if (issue.suggestion !== undefined) parts.push(`suggestion: ${JSON.stringify(issue.suggestion)}`);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

function where(issue: Issue): string {
  if (issue.path) return issue.path;
  const at = issue.field ? `row ${issue.row}, ${issue.field}` : `row ${issue.row}`;
  return issue.cell ? `${at} (${issue.cell})` : at;
}

/**
 * `::error file=data/a.csv,line=3,title=type::id: Must be a whole number`. For CSV the line is the
 * row as a spreadsheet shows it (the header is row 1), which is the file's line unless a quoted
 * cell spans lines; JSON errors carry their path in the message instead of a line.
 */
export function formatGithub(outcomes: FileOutcome[]): string {
  const out: string[] = [];
  for (const { name, fileType, result } of outcomes) {
    for (const warning of result.warnings) {
      out.push(`::warning file=${escapeProperty(name)}::${escapeData(warning.message)}`);
    }
    for (const issue of result.errors) {
      const props = [`file=${escapeProperty(name)}`];
      if (fileType === 'csv' && issue.row > 0) props.push(`line=${issue.row}`);
      props.push(`title=${escapeProperty(`schemacheck ${issue.code}`)}`);
      out.push(
        `::error ${props.join(',')}::${escapeData(`${where(issue)}: ${issue.message}${detail(issue)}`)}`,
      );
    }
    for (const issue of result.warningIssues ?? []) {
      const props = [`file=${escapeProperty(name)}`];
      if (fileType === 'csv' && issue.row > 0) props.push(`line=${issue.row}`);
      props.push(`title=${escapeProperty(`schemacheck ${issue.code}`)}`);
      out.push(
        `::warning ${props.join(',')}::${escapeData(`${where(issue)}: ${issue.message}${detail(issue)}`)}`,
      );
    }
    const more = result.errorCount - result.errors.length;
    if (more > 0) {
      out.push(
        `::error file=${escapeProperty(name)}::${more} more errors not shown (raise --max-errors)`,
      );
    }
  }
  out.push(summaryLine(outcomes));
  return `${out.join('\n')}\n`;
}

// XML 1.0 cannot hold most control characters even escaped; they are shown as \uXXXX.
// eslint-disable-next-line no-control-regex
const XML_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const xml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(XML_FORBIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** One line per issue: `row 3, category: Must be … [in_list] (value: "Expnese", suggestion: "Expense")`. */
function issueLines(issues: Issue[], count: number, rest: string): string[] {
  const lines = issues.map(
    (issue) => `${where(issue)}: ${issue.message} [${issue.code}]${detail(issue)}`,
  );
  if (count > issues.length) lines.push(`… and ${count - issues.length} more ${rest}`);
  return lines;
}

/**
 * JUnit XML: one test case per file; a file with errors is a failure listing them. Failures of
 * rules marked as warnings never fail a test case: they are listed in its <system-out>, which CI
 * test views show beside the case (docs/decisions/225).
 */
export function formatJunit(outcomes: FileOutcome[]): string {
  const failures = outcomes.filter((o) => !o.result.valid).length;
  const time = outcomes.reduce((sum, o) => sum + o.seconds, 0).toFixed(3);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="schemacheck" tests="${outcomes.length}" failures="${failures}" time="${time}">`,
    `  <testsuite name="schemacheck validate" tests="${outcomes.length}" failures="${failures}" errors="0" time="${time}">`,
  ];
  for (const { name, result, seconds } of outcomes) {
    const open = `    <testcase classname="schemacheck" name="${xml(name)}" time="${seconds.toFixed(3)}"`;
    const warned = result.warningIssues ?? [];
    const warningCount = result.warningCount ?? warned.length;
    if (result.valid && warningCount === 0) {
      out.push(`${open} />`);
      continue;
    }
    out.push(`${open}>`);
    if (!result.valid) {
      const message = `${plural(result.errorCount, 'error')} in ${result.invalidRows} of ${result.totalRows} rows`;
      const lines = issueLines(result.errors, result.errorCount, 'errors (raise --max-errors)');
      out.push(
        `      <failure message="${xml(message)}" type="validation">${xml(lines.join('\n'))}</failure>`,
      );
    }
    if (warningCount > 0) {
      const lines = [
        `${warningCount} ${warningCount === 1 ? 'warning' : 'warnings'} (rules marked as warnings, not failures):`,
        ...issueLines(warned, warningCount, 'warnings'),
      ];
      out.push(`      <system-out>${xml(lines.join('\n'))}</system-out>`);
    }
    out.push('    </testcase>');
  }
  out.push('  </testsuite>', '</testsuites>', '');
  return out.join('\n');
}

/** "2 files checked: 1 valid, 1 with errors (7 errors)." */
export function summaryLine(outcomes: FileOutcome[]): string {
  const bad = outcomes.filter((o) => !o.result.valid);
  const errors = bad.reduce((sum, o) => sum + o.result.errorCount, 0);
  const files = outcomes.length === 1 ? '1 file' : `${outcomes.length} files`;
  return (
    `${files} checked: ${outcomes.length - bad.length} valid, ${bad.length} with errors` +
    (errors ? ` (${plural(errors, 'error')}).` : '.')
  );
}
