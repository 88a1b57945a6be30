import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Issue } from '../model.ts';
import { createCsvReportWriter, csvCell, neutraliseCell } from './csv-report.ts';

function report(issues: Issue[], withPath = false): string {
  let text = '';
  const writer = createCsvReportWriter((t) => (text += t), { withPath });
  for (const issue of issues) writer.add(issue);
  return text;
}

const issue = (value: string | null, extra: Partial<Issue> = {}): Issue => ({
  row: 2,
  field: 'name',
  code: 'pattern',
  message: 'Must match the pattern ^a$',
  value,
  ...extra,
});

/** The value cell of a one-issue report, as written. */
const valueCell = (value: string) =>
  report([issue(value)])
    .split('\r\n')[1]!
    .replace('2,name,pattern,Must match the pattern ^a$,', '')
    .replace(/,error,$/, '');

describe('neutraliseCell', () => {
  it.each(['=1+2', '+1', '-1', '@SUM(1)', '\t=1', '\r=1', '\n=1', '\u0000=1+2', '\u0000'])(
    'prefixes %j',
    (v) => {
      expect(neutraliseCell(v)).toBe(`'${v}`);
    },
  );
  it.each(['', 'safe', 'a=1', "'=1", ' =1', '1-2', '＝1'])('leaves %j', (v) => {
    expect(neutraliseCell(v)).toBe(v);
  });
});

describe('csvCell', () => {
  it('quotes only when needed, doubling quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
    expect(csvCell('')).toBe('');
  });
});

describe('createCsvReportWriter', () => {
  it('writes the header at once, then CRLF records', () => {
    let text = '';
    const writer = createCsvReportWriter((t) => (text += t), { withPath: false });
    expect(text).toBe('row,field,code,message,value,severity,suggestion\r\n');
    writer.add(issue('x'));
    writer.add(
      issue(null, {
        row: 1,
        field: 'email',
        code: 'missing_column',
        message: "Column 'email' is missing",
      }),
    );
    expect(text).toBe(
      "row,field,code,message,value,severity,suggestion\r\n2,name,pattern,Must match the pattern ^a$,x,error,\r\n1,email,missing_column,Column 'email' is missing,,error,\r\n",
    );
  });

  it('adds the JSON path column', () => {
    expect(report([issue('x', { path: '$[0].name' })], true)).toBe(
      'row,field,code,message,value,path,severity,suggestion\r\n2,name,pattern,Must match the pattern ^a$,x,$[0].name,error,\r\n',
    );
  });

  it('says each issue\'s severity and "did you mean" suggestion', () => {
    const text = report([
      issue('Expnese', {
        code: 'in_list',
        message: 'Must be a value of the list kinds. Did you mean "Expense"?',
        suggestion: 'Expense',
      }),
      issue('x', { severity: 'warning', suggestion: '=SUM(1)' }),
    ]);
    expect(text.split('\r\n').slice(1, 3)).toEqual([
      '2,name,in_list,"Must be a value of the list kinds. Did you mean ""Expense""?",Expnese,error,Expense',
      `2,name,pattern,Must match the pattern ^a$,x,warning,"'=SUM(1)"`,
    ]);
  });

  it('passes the OWASP vectors exactly', () => {
    expect(valueCell('=1+2";=1+2')).toBe(`"'=1+2"";=1+2"`);
    expect(valueCell(`=1+2'" ;,=1+2`)).toBe(`"'=1+2'"" ;,=1+2"`);
  });

  it('neutralises and quotes every formula start', () => {
    expect(valueCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(valueCell('@SUM(1)')).toBe(`"'@SUM(1)"`);
    expect(valueCell("+cmd|' /C calc'!A0")).toBe(`"'+cmd|' /C calc'!A0"`);
    expect(valueCell('\t=1')).toBe(`"'\t=1"`);
    expect(valueCell('=1+2\nx')).toBe(`"'=1+2\nx"`);
    expect(valueCell('\n=1')).toBe(`"'\n=1"`);
    expect(valueCell('-5')).toBe(`"'-5"`); // numbers too: a report is read, not recalculated
    expect(valueCell('\u0000=cmd|"/C calc"!A0')).toBe(`"'\u0000=cmd|""/C calc""!A0"`);
  });

  it('gives the same output as PapaParse escapeFormulae', () => {
    const cells = [
      '=danger',
      '@danger',
      'safe',
      'safe=safe',
      '+danger',
      '-danger, danger',
      "'+safe",
      "'@safe",
      'safe, safe',
    ];
    expect(cells.map(valueCell)).toEqual([
      `"'=danger"`,
      `"'@danger"`,
      'safe',
      'safe=safe',
      `"'+danger"`,
      `"'-danger, danger"`,
      "'+safe",
      "'@safe",
      '"safe, safe"',
    ]);
  });

  it('neutralises every text column, not only the value', () => {
    const line = report(
      [issue('v', { field: '=evil()', message: '-bad', path: '@x' })],
      true,
    ).split('\r\n')[1];
    expect(line).toBe(`2,"'=evil()",pattern,"'-bad",v,"'@x",error,`);
  });

  it('re-parses to the original values, apart from the prefix', () => {
    const values = [
      'a,b',
      'say "hi"',
      'two\r\nlines',
      'lone\rcr',
      '=1+2";=1+2',
      '',
      'ünïcødé 😀',
      ' spaced ',
    ];
    const issues = values.map((v, i) => issue(v, { row: i + 2, path: `$[${i}]` }));
    const records = parse(report(issues, true), {
      columns: true,
      record_delimiter: '\r\n',
    }) as Record<string, string>[];
    expect(records.map((r) => r.value)).toEqual(
      values.map((v) => (/^[=+\-@\t\r\n]/.test(v) ? `'${v}` : v)),
    );
    expect(records.map((r) => Number(r.row))).toEqual(values.map((_, i) => i + 2));
    expect(records[0]).toEqual({
      row: '2',
      field: 'name',
      code: 'pattern',
      message: 'Must match the pattern ^a$',
      value: 'a,b',
      path: '$[0]',
      severity: 'error',
      suggestion: '',
    });
  });
});
