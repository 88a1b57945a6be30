// The full error report as CSV (RFC 4180, CRLF records), safe to open in a spreadsheet.
//
// Every text cell that a spreadsheet would read as a formula — a leading = + - @ tab CR LF or NUL
// (some spreadsheets drop a leading NUL and read what follows) — gets a leading ' and is quoted (OWASP CSV Injection; the same output as PapaParse's
// escapeFormulae). That includes values like `-5`: a report is read, not recalculated, so a
// negative number shown as text is a fair price for never running a cell.

import type { Issue } from '../model.ts';

const HEADER = ['row', 'field', 'code', 'message', 'value'];

/** Prefixes `'` to a cell a spreadsheet would otherwise run as a formula. */
export function neutraliseCell(value: string): string {
  return isFormulaLike(value) ? `'${value}` : value;
}

function isFormulaLike(value: string): boolean {
  const c = value.charCodeAt(0);
  // = + - @ tab LF CR NUL
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 10 || c === 13 || c === 0;
}

/** RFC 4180: quoted when it holds a comma, a quote, CR or LF; quotes doubled. */
export function csvCell(value: string): string {
  return needsQuotes(value) ? quote(value) : value;
}

function needsQuotes(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 44 || c === 34 || c === 10 || c === 13) return true;
  }
  return false;
}

const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;

/** A text cell of the report: neutralised, then quoted when it was neutralised or needs quotes. */
function textCell(value: string): string {
  return isFormulaLike(value) ? quote(`'${value}`) : csvCell(value);
}

export interface CsvReportOptions {
  /** Adds a `path` column (JSON files). */
  withPath: boolean;
  /** Adds a `cell` column (Excel workbooks: `Sheet1!D14`). */
  withCell?: boolean;
}

export interface CsvReportWriter {
  add(issue: Issue): void;
}

/** Writes the header at once, then one CRLF-terminated record per issue. */
export function createCsvReportWriter(
  write: (text: string) => void,
  options: CsvReportOptions,
): CsvReportWriter {
  const withPath = options.withPath;
  const withCell = options.withCell === true;
  // severity (error or warning) and suggestion ("did you mean") close every report (docs/decisions/202).
  const header = [
    ...HEADER,
    ...(withPath ? ['path'] : []),
    ...(withCell ? ['cell'] : []),
    'severity',
    'suggestion',
  ];
  write(`${header.join(',')}\r\n`);
  return {
    add(issue) {
      let line = `${issue.row},${textCell(issue.field)},${textCell(issue.code)},${textCell(issue.message)},${
        issue.value === null ? '' : textCell(issue.value)
      }`;
      if (withPath) line += `,${textCell(issue.path ?? '')}`;
      if (withCell) line += `,${textCell(issue.cell ?? '')}`;
      line += `,${issue.severity ?? 'error'},${textCell(issue.suggestion ?? '')}`;
      write(`${line}\r\n`);
    },
  };
}
