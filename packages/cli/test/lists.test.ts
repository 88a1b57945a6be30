import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.ts';

// `--list NAME=FILE` (issue 22, docs/decisions/203): reference lists from a text file or a CSV
// column feed the schema's inList rules; severity and suggestion reach every output.

const cli = (args: string[]) => runCli(args);

let dir: string;
const at = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'schemacheck-lists-'));
  await writeFile(
    at('schema.json'),
    JSON.stringify({
      name: 'Ledger',
      fileType: 'csv',
      fields: [
        { name: 'category', type: 'string', required: true, validation: { inList: 'categories' } },
        { name: 'country', type: 'string', required: true, validation: { inList: 'countries' } },
        { name: 'note', type: 'string', required: false, validation: {} },
      ],
      rules: [
        {
          kind: 'requiredWhen',
          field: 'note',
          when: { field: 'category', op: '=', value: 'Transfer' },
          severity: 'warning',
        },
      ],
    }),
  );
  await writeFile(at('categories.txt'), 'Income\r\nExpense\r\nTransfer\r\n');
  await writeFile(at('countries.csv'), 'name,iso2\nGermany,DE\nFrance,FR\n');
  await writeFile(
    at('ledger.csv'),
    'category,country,note\nIncome,DE,a\nExpnese,FR,b\nIncome,XX,c\n',
  );
  await writeFile(at('warned.csv'), 'category,country,note\nTransfer,DE,\n');
  await writeFile(at('mixed.csv'), 'category,country,note\nExpnese,DE,a\nTransfer,FR,\n');
});

const validate = (file: string, ...extra: string[]) =>
  cli(['validate', at(file), '--schema', at('schema.json'), ...extra]);

describe('--list', () => {
  it('checks inList against a text file and a CSV column, with "did you mean"', async () => {
    const run = await validate(
      'ledger.csv',
      '--list',
      `categories=${at('categories.txt')}`,
      '--list',
      `countries=${at('countries.csv')}#iso2`,
      '--format',
      'json',
    );
    expect(run.code, run.stderr).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result.errors).toEqual([
      {
        row: 3,
        field: 'category',
        code: 'in_list',
        message: 'Must be a value of the list categories. Did you mean "Expense"?',
        value: 'Expnese',
        suggestion: 'Expense',
      },
      expect.objectContaining({ row: 4, field: 'country', code: 'in_list', value: 'XX' }),
    ]);
    expect(result.warnings).toEqual([]);
  });

  it('reads a .csv list by its first column, and the CSV report has severity and suggestion', async () => {
    const run = await validate(
      'ledger.csv',
      '--list',
      `categories=${at('categories.txt')}`,
      '--list',
      `countries=${at('countries.csv')}`,
      '--format',
      'csv',
    );
    const lines = run.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe('row,field,code,message,value,severity,suggestion');
    expect(lines).toContain(
      '3,category,in_list,"Must be a value of the list categories. Did you mean ""Expense""?",Expnese,error,Expense',
    );
    // The first column holds names, not codes: every country misses.
    expect(lines.filter((l) => l.includes(',country,in_list,'))).toHaveLength(3);
  });

  it('without the list the rule is a warning on stderr and not checked', async () => {
    const run = await validate('ledger.csv', '--list', `countries=${at('countries.csv')}#2`);
    expect(run.code).toBe(1);
    expect(run.stderr + run.stdout).toContain(
      "The list 'categories' of field 'category' was not given",
    );
    expect(run.stdout).not.toContain('Expnese');
  });

  it('a file with only warnings is valid (exit 0), and text and github output list them', async () => {
    const lists = [
      '--list',
      `categories=${at('categories.txt')}`,
      '--list',
      `countries=${at('countries.csv')}#iso2`,
    ];
    const text = await validate('warned.csv', ...lists);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('1 warning (rules marked as warnings)');
    expect(text.stdout).toContain('Row 2       note: Required when category is "Transfer"');
    const github = await validate('warned.csv', ...lists, '--format', 'github');
    expect(github.code).toBe(0);
    expect(github.stdout).toContain('::warning file=');
    expect(github.stdout).toContain('title=schemacheck required_when::');
  });

  it('text output: warnings are left out of "Errors by column", with one thread or several', async () => {
    const lists = [
      '--list',
      `categories=${at('categories.txt')}`,
      '--list',
      `countries=${at('countries.csv')}#iso2`,
    ];
    const warned = await validate('warned.csv', ...lists);
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stdout).toContain('is valid: 1 row checked.');
    expect(warned.stdout).not.toContain('Errors by column');
    expect(warned.stdout).not.toContain('required_when 1');

    // Threads that count the issues past --max-errors instead of listing them.
    let rows = 'category,country,note\n';
    for (let i = 0; i < 400; i++) rows += i % 2 === 0 ? 'Transfer,DE,\n' : 'Expnese,FR,a\n';
    await writeFile(at('many-mixed.csv'), rows);
    const env = { SCHEMACHECK_PARALLEL_MIN_BYTES: '0', SCHEMACHECK_CHUNK_BYTES: '1000' };
    for (const extra of [[], ['--jobs', '2', '--max-errors', '3']]) {
      const many = await runCli(
        ['validate', at('many-mixed.csv'), '--schema', at('schema.json'), ...lists, ...extra],
        { env },
      );
      expect(many.code, many.stderr).toBe(1);
      const table = many.stdout.split('Errors by column\n')[1]?.split('\n\n')[0];
      expect(table?.split('\n')).toEqual([
        expect.stringMatching(/^ {2}category +200 +in_list 200$/),
      ]);
      expect(many.stdout).toContain('200 warnings (rules marked as warnings)');
    }
  });

  it('text output: "did you mean" once, and after a custom message that leaves it out', async () => {
    const lists = [
      '--list',
      `categories=${at('categories.txt')}`,
      '--list',
      `countries=${at('countries.csv')}#iso2`,
    ];
    const plain = await validate('ledger.csv', ...lists);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain(
      'category: Must be a value of the list categories. Did you mean "Expense"?',
    );
    expect(plain.stdout.match(/did you mean "Expense"/gi)).toHaveLength(1);

    const schema = JSON.parse(await readFile(at('schema.json'), 'utf8')) as {
      fields: { validation: Record<string, string> }[];
    };
    schema.fields[0]!.validation.message = 'Not a ledger category: {value}';
    await writeFile(at('custom-message.json'), JSON.stringify(schema));
    const custom = await cli([
      'validate',
      at('ledger.csv'),
      '--schema',
      at('custom-message.json'),
      ...lists,
    ]);
    expect(custom.code).toBe(1);
    expect(custom.stdout).toMatch(
      /category: Not a ledger category: Expnese {2}"Expnese" {2}did you mean "Expense"\?/,
    );
  });

  it('--format junit: the suggestion on each error; warnings in <system-out>, never failures', async () => {
    const lists = [
      '--list',
      `categories=${at('categories.txt')}`,
      '--list',
      `countries=${at('countries.csv')}#iso2`,
    ];
    const warnedOnly = await validate('warned.csv', ...lists, '--format', 'junit');
    expect(warnedOnly.code, warnedOnly.stderr).toBe(0);
    expect(warnedOnly.stdout).toContain('<testsuites name="schemacheck" tests="1" failures="0"');
    expect(warnedOnly.stdout).not.toContain('<failure');
    expect(warnedOnly.stdout).toMatch(
      /<testcase [^>]*name="[^"]*warned\.csv"[^>]*>\n {6}<system-out>1 warning \(rules marked as warnings, not failures\):\nrow 2, note: Required when category is &quot;Transfer&quot; \[required_when\]<\/system-out>\n {4}<\/testcase>/,
    );

    const mixed = await validate('mixed.csv', ...lists, '--format', 'junit');
    expect(mixed.code).toBe(1);
    expect(mixed.stdout).toContain('tests="1" failures="1"');
    const failure = mixed.stdout.match(/<failure message="([^"]*)" type="validation">([^<]*)</);
    expect(failure?.[1]).toBe('1 error in 1 of 2 rows');
    expect(failure?.[2]).toBe(
      'row 2, category: Must be a value of the list categories. Did you mean &quot;Expense&quot;? [in_list] (value: &quot;Expnese&quot;, suggestion: &quot;Expense&quot;)',
    );
    expect(mixed.stdout).toContain(
      '<system-out>1 warning (rules marked as warnings, not failures):\nrow 3, note: Required when category is &quot;Transfer&quot; [required_when]</system-out>',
    );
  });

  it('--format github carries the suggestion beside the value', async () => {
    const run = await validate(
      'mixed.csv',
      '--list',
      `categories=${at('categories.txt')}`,
      '--list',
      `countries=${at('countries.csv')}#iso2`,
      '--format',
      'github',
    );
    expect(run.stdout).toContain('(value: "Expnese", suggestion: "Expense")');
  });

  it('refuses a malformed --list and a missing column', async () => {
    const bad = await validate('ledger.csv', '--list', 'categories');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--list takes NAME=FILE');
    const column = await validate('ledger.csv', '--list', `countries=${at('countries.csv')}#code`);
    expect(column.code).toBe(2);
    expect(column.stderr).toContain("no column 'code'");
  });
});
