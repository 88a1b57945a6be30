import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.ts';

function cli(args: string[], options: { input?: string; cwd?: string } = {}) {
  return runCli(args, options);
}

/** `schemacheck validate <dir>/<file> --schema <dir>/<schema> ...extra` */
function validate(file: string, extra: string[] = [], schemaFile = 'schema.json') {
  return cli(['validate', join(dir, file), '--schema', join(dir, schemaFile), ...extra]);
}

let dir: string;
const schema = {
  name: 'Contacts',
  fileType: 'csv',
  fields: [
    { name: 'id', type: 'integer', required: true, validation: { minValue: 1 } },
    { name: 'email', type: 'email', required: true, validation: {} },
    { name: 'age', type: 'integer', required: false, validation: { minValue: 0, maxValue: 120 } },
  ],
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'schemacheck-cli-'));
  await writeFile(join(dir, 'schema.json'), JSON.stringify(schema));
  await writeFile(join(dir, 'schema-json.json'), JSON.stringify({ ...schema, fileType: 'json' }));
  await writeFile(
    join(dir, 'untyped-schema.json'),
    JSON.stringify({ ...schema, fileType: undefined }),
  );
  await writeFile(join(dir, 'good.tsv'), 'id\temail\tage\n1\ta@example.com\t30\n');
  await writeFile(join(dir, 'slides.pdf'), '%PDF-1.4\n');
  await writeFile(join(dir, 'good.csv'), 'id,email,age\n1,a@example.com,30\n2,b@example.com,\n');
  await writeFile(
    join(dir, 'bad.csv'),
    'id,email,age\n1,a@example.com,30\nx,not-an-email,200\n3,=cmd@example.com,5\n',
  );
  await writeFile(join(dir, 'formula.csv'), 'id,email,age\n=1+2,"=HYPERLINK(""http://x"")",-5\n');
  await writeFile(
    join(dir, 'people.json'),
    JSON.stringify([
      { id: 1, email: 'a@example.com' },
      { id: '2', email: 'b@example.com', age: 7 },
    ]),
  );
  await writeFile(
    join(dir, 'broken-schema.json'),
    JSON.stringify({
      name: 'x',
      fileType: 'csv',
      fields: [
        { name: 'a', type: 'strng', required: true, validation: {} },
        { name: 'b', type: 'string', required: false, validation: { pattern: '(?=x)' } },
      ],
    }),
  );
});

describe('schemacheck validate', () => {
  it('exits 0 and says the file is valid', async () => {
    const run = await validate('good.csv');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('is valid: 2 rows checked');
  });

  it('exits 1 and lists the errors by row and column for people', async () => {
    const run = await validate('bad.csv');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('3 errors in 1 row of 3');
    expect(run.stdout).toMatch(/Row 3 +id: Must be a whole number/);
    expect(run.stdout).toMatch(/Row 3 +email: Must be a valid email/);
    expect(run.stdout).toMatch(/Row 3 +age: Must be at most 120/);
    expect(run.stdout).toContain('Errors by column');
  });

  it('prints one JSON object with --format json', async () => {
    const run = await validate('bad.csv', ['--format', 'json']);
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({
      valid: false,
      totalRows: 3,
      validRows: 2,
      invalidRows: 1,
      errorCount: 3,
      errorsByField: { id: 1, email: 1, age: 1 },
      errorsByCode: { type: 2, maximum: 1 },
    });
    expect(result.errors[0]).toEqual({
      row: 3,
      field: 'id',
      code: 'type',
      message: 'Must be a whole number',
      value: 'x',
    });
  });

  it('prints every error with --format csv, whatever --max-errors keeps', async () => {
    const run = await validate('bad.csv', ['--format', 'csv', '--max-errors', '1']);
    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe('row,field,code,message,value,severity,suggestion');
    expect(lines).toHaveLength(4); // every error, whatever --max-errors keeps in memory
    expect(lines[1]).toBe('3,id,type,Must be a whole number,x,error,');
  });

  it('neutralises report cells a spreadsheet would run as formulas', async () => {
    const run = await validate('formula.csv', ['--format', 'csv']);
    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split('\r\n');
    expect(lines.slice(1)).toEqual([
      `2,id,type,Must be a whole number,"'=1+2",error,`,
      `2,email,type,Must be a valid email,"'=HYPERLINK(""http://x"")",error,`,
      `2,age,minimum,Must be at least 0,"'-5",error,`,
    ]);
  });

  it('reads JSON with paths, and types are not coerced', async () => {
    const run = await validate('people.json', ['--format', 'json'], 'schema-json.json');
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result.errors).toEqual([
      expect.objectContaining({ row: 2, field: 'id', code: 'type', path: '$[1].id', value: '2' }),
    ]);
  });

  it('decides the file type as the product does: schema, then name, then first bytes', async () => {
    // The schema says CSV, so a .json name is read as CSV (as on the web and in the API).
    const asCsv = await validate('people.json', ['--format', 'json']);
    expect(JSON.parse(asCsv.stdout).errors[0]).not.toHaveProperty('path');
    // No type in the schema: the name decides.
    const byName = await validate('people.json', ['--format', 'json'], 'untyped-schema.json');
    expect(JSON.parse(byName.stdout).errors[0]).toMatchObject({ path: '$[1].id' });
    // A local tab-separated table is a CSV file.
    const tsv = await validate('good.tsv', ['--format', 'json']);
    expect(tsv.code).toBe(0);
    // Other files are refused with what to do, unless --file-type says what they are.
    const pdf = await validate('slides.pdf');
    expect(pdf.code).toBe(2);
    expect(pdf.stderr).toContain('slides.pdf is not a CSV, JSON, Excel, gzip or zip file');
    expect(pdf.stderr).toContain('--file-type');
  });

  it('reads standard input with -', async () => {
    const run = await cli(
      [
        'validate',
        '-',
        '--schema',
        join(dir, 'schema.json'),
        '--file-type',
        'csv',
        '--format',
        'json',
      ],
      { input: 'id;email;age\n1;a@example.com;1\n' },
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ valid: true, totalRows: 1 });
  });

  it('refuses a bad schema with every problem, exit 2', async () => {
    const run = await validate('good.csv', [], 'broken-schema.json');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('2 problems');
    expect(run.stderr).toContain('fields[0].type');
    expect(run.stderr).toContain('fields[1].validation.pattern');
    expect(run.stderr).not.toMatch(/at .*\.ts:\d+/);
  });

  it('exit 2 for a missing file, a missing schema option and an unknown option', async () => {
    const missing = await validate('nope.csv');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
    const noSchema = await cli(['validate', join(dir, 'good.csv')]);
    expect(noSchema.code).toBe(2);
    expect(noSchema.stderr).toContain('--schema');
    const unknown = await cli(['validate', '--colour']);
    expect(unknown.code).toBe(2);
  });
});

describe('schemacheck validate with several files and CI formats', () => {
  const files = () => [join(dir, 'good.csv'), join(dir, 'bad.csv')];
  const schemaArgs = () => ['--schema', join(dir, 'schema.json')];

  it('checks every file, prints one summary and exits 1 if any file has errors', async () => {
    const run = await cli(['validate', ...files(), ...schemaArgs()]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('good.csv is valid');
    expect(run.stdout).toContain('bad.csv: 3 errors');
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(
      '2 files checked: 1 valid, 1 with errors (3 errors).',
    );
    const allGood = await cli([
      'validate',
      join(dir, 'good.csv'),
      join(dir, 'good.csv'),
      ...schemaArgs(),
    ]);
    expect(allGood.code).toBe(0);
  });

  it('--format json with several files lists each under its name', async () => {
    const run = await cli(['validate', ...files(), ...schemaArgs(), '--format', 'json']);
    expect(run.code).toBe(1);
    const body = JSON.parse(run.stdout);
    expect(body.valid).toBe(false);
    expect(body.files.map((f: { file: string; valid: boolean }) => [f.file, f.valid])).toEqual([
      [join(dir, 'good.csv'), true],
      [join(dir, 'bad.csv'), false],
    ]);
  });

  it('--format github prints one workflow-command annotation per error with file and row', async () => {
    const run = await cli(['validate', ...files(), ...schemaArgs(), '--format', 'github']);
    expect(run.code).toBe(1);
    const errors = run.stdout.split('\n').filter((l) => l.startsWith('::error '));
    expect(errors).toHaveLength(3);
    expect(errors[0]).toBe(
      `::error file=${join(dir, 'bad.csv')},line=3,title=schemacheck type::row 3, id: Must be a whole number (value: "x")`,
    );
  });

  it('--format github escapes what would end or split a workflow command', async () => {
    await writeFile(join(dir, 'odd,name.csv'), 'id,email,age\n"1\n%",a@example.com,1\n');
    const run = await cli([
      'validate',
      join(dir, 'odd,name.csv'),
      ...schemaArgs(),
      '--format',
      'github',
    ]);
    const line = run.stdout.split('\n').find((l) => l.startsWith('::error '));
    expect(line).toContain('odd%2Cname.csv');
    expect(line).toContain('(value: "1\\n%25")');
  });

  it('--format junit gives one test case per file, failures listing the errors', async () => {
    const run = await cli(['validate', ...files(), ...schemaArgs(), '--format', 'junit']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites /);
    expect(run.stdout).toContain('tests="2" failures="1"');
    expect(run.stdout).toMatch(
      /<testcase classname="schemacheck" name="[^"]*good\.csv" time="[\d.]+" \/>/,
    );
    const failure = run.stdout.match(
      /<failure message="([^"]*)" type="validation">([^<]*)<\/failure>/,
    );
    expect(failure?.[1]).toBe('3 errors in 1 of 3 rows');
    expect(failure?.[2]?.split('\n')).toEqual([
      'row 3, id: Must be a whole number [type] (value: &quot;x&quot;)',
      'row 3, email: Must be a valid email [type] (value: &quot;not-an-email&quot;)',
      'row 3, age: Must be at most 120 [maximum] (value: &quot;200&quot;)',
    ]);
  });

  it('refuses --format csv with several files, and stdin mixed with files', async () => {
    const csv = await cli(['validate', ...files(), ...schemaArgs(), '--format', 'csv']);
    expect(csv.code).toBe(2);
    expect(csv.stderr).toContain('--format csv reports one file');
    const mixed = await cli(['validate', '-', join(dir, 'good.csv'), ...schemaArgs()]);
    expect(mixed.code).toBe(2);
  });
});

describe('schema warnings', () => {
  it('are printed on stderr and kept in the JSON result', async () => {
    await writeFile(
      join(dir, 'oneof.schema.json'),
      JSON.stringify({
        type: 'object',
        properties: { id: { type: 'integer', oneOf: [{ minimum: 1 }, { maximum: -1 }] } },
      }),
    );
    const run = await validate('good.csv', ['--format', 'json'], 'oneof.schema.json');
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/schemacheck: warning: .*oneof\.schema\.json: Keyword 'oneOf'/);
    expect(JSON.parse(run.stdout).warnings).toContainEqual({
      code: 'schema',
      message: expect.stringContaining("'oneOf'"),
    });
  });
});

describe('schemacheck infer and convert', () => {
  it('infers a web-form schema from a CSV', async () => {
    const run = await cli(['infer', join(dir, 'good.csv')]);
    expect(run.code).toBe(0);
    const inferred = JSON.parse(run.stdout);
    expect(inferred.fields.map((f: { name: string; type: string }) => [f.name, f.type])).toEqual([
      ['id', 'integer'],
      ['email', 'email'],
      ['age', 'integer'],
    ]);
    expect(inferred.fields[2].required).toBe(false);
  });

  it('converts to JSON Schema and the result validates the same way', async () => {
    const run = await cli(['convert', join(dir, 'schema.json'), '--to', 'jsonschema']);
    expect(run.code).toBe(0);
    const jsonSchema = JSON.parse(run.stdout);
    await writeFile(join(dir, 'schema.jsonschema.json'), run.stdout);
    expect(jsonSchema.properties.id.type).toBe('integer');
    const again = await validate('bad.csv', ['--format', 'json'], 'schema.jsonschema.json');
    expect(JSON.parse(again.stdout).errorCount).toBe(3);
  });

  it('says on stderr what the converted schema leaves out', async () => {
    await writeFile(
      join(dir, 'if-else.schema.json'),
      JSON.stringify({
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'string' } },
        if: { properties: { a: { const: 'x' } }, required: ['a'] },
        then: { required: ['b'] },
        else: { required: ['a'] },
      }),
    );
    const run = await cli(['convert', join(dir, 'if-else.schema.json'), '--to', 'tableschema']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("Keyword 'if' with else is not supported");
    expect(JSON.parse(run.stdout).fields).toHaveLength(2);

    await writeFile(
      join(dir, 'na.tableschema.json'),
      JSON.stringify({ fields: [{ name: 'n', type: 'integer' }], missingValues: ['', 'NA'] }),
    );
    const toWeb = await cli(['convert', join(dir, 'na.tableschema.json'), '--to', 'web']);
    expect(toWeb.code).toBe(0);
    expect(toWeb.stderr).toContain('missingValues ("NA") cannot be written in the web form');
    const toJsonSchema = await cli([
      'convert',
      join(dir, 'na.tableschema.json'),
      '--to',
      'jsonschema',
    ]);
    expect(toJsonSchema.stderr).toBe('');

    // JSON Schema readings the flat forms cannot hold: each named, since the meaning changes.
    await writeFile(
      join(dir, 'nested.schema.json'),
      JSON.stringify({
        type: 'object',
        properties: {
          code: { type: ['string', 'integer'] },
          address: { type: 'object', required: ['zip'], properties: { zip: { type: 'string' } } },
        },
      }),
    );
    const flat = await cli(['convert', join(dir, 'nested.schema.json'), '--to', 'tableschema']);
    expect(flat.code).toBe(0);
    expect(flat.stderr.split('\n')).toEqual([
      `schemacheck: warning: ${join(dir, 'nested.schema.json')} --to tableschema: Fields with several JSON types ('code') become text fields, which refuse JSON numbers and true/false`,
      `schemacheck: warning: ${join(dir, 'nested.schema.json')} --to tableschema: Fields required only inside an optional object ('address.zip') become required in every record`,
      '',
    ]);
  });
});
