// Excel workbooks, gzip and zip on the command line: the same errors as the CSV they hold, cells
// named, a zip's entries in turn or by --entry, refusals with exit status 2, and the good rows
// back with --valid-out/--invalid-out. Runs the built CLI (npm run build -w packages/cli).
import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.ts';
import { writeZip } from '../../engine/test/zip-writer.ts';

const FIXTURES = fileURLToPath(new URL('../../engine/test/fixtures/xlsx/', import.meta.url));

function cli(args: string[], input?: Uint8Array) {
  return runCli(args, { input });
}

let dir: string;
const at = (name: string) => join(dir, name);
const CSV = 'id,email\n1,a@example.com\nx,b@example.com\n3,not-an-email\n';
const schema = {
  name: 'Contacts',
  fields: [
    { name: 'id', type: 'integer', required: true },
    { name: 'email', type: 'email', required: true },
  ],
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'schemacheck-containers-'));
  await writeFile(at('schema.json'), JSON.stringify(schema));
  const expected = JSON.parse(await readFile(join(FIXTURES, 'expected.json'), 'utf8')) as {
    schema: unknown;
  }[];
  await writeFile(at('people.json'), JSON.stringify(expected[0]!.schema));
  await writeFile(at('orders.json'), JSON.stringify(expected[2]!.schema));
  await copyFile(join(FIXTURES, 'cells-openpyxl.xlsx'), at('cells.xlsx'));
  await copyFile(join(FIXTURES, 'shared-xlsxwriter.xlsx'), at('shared.xlsx'));
  await writeFile(at('a.csv'), CSV);
  await writeFile(at('a.csv.gz'), gzipSync(CSV));
  await writeFile(at('noname'), gzipSync(CSV));
  await writeFile(
    at('two.zip'),
    writeZip([
      { name: 'a.csv', data: CSV, deflate: true },
      { name: 'b.ndjson', data: '{"id":1,"email":"a@example.com"}\n{"id":2,"email":"nope"}\n' },
    ]),
  );
  await writeFile(at('one.zip'), writeZip([{ name: 'a.csv', data: CSV, deflate: true }]));
  await writeFile(at('bomb.csv.gz'), gzipSync(Buffer.alloc(64 << 20)));
  await writeFile(
    at('nested.zip'),
    writeZip([{ name: 'inner.zip', data: writeZip([{ name: 'a.csv', data: CSV }]) }]),
  );
  await writeFile(
    at('b.json'),
    JSON.stringify([
      { id: 1, email: 'a@example.com' },
      { id: 'x', email: 'b@example.com' },
    ]),
  );
  await writeFile(at('b.ndjson'), '{"id":1,"email":"a@example.com"}\n{"id":2,"email":"nope"}\n');
});

const errorsOf = (stdout: string) =>
  (
    JSON.parse(stdout) as {
      errors: { row: number; field: string; code: string; message: string }[];
    }
  ).errors.map((e) => [e.row, e.field, e.code, e.message]);

describe('containers on the command line', () => {
  it('gives CSV, CSV.gz (by name or magic bytes) and a one-file zip the same errors', async () => {
    const runs = await Promise.all(
      ['a.csv', 'a.csv.gz', 'noname', 'one.zip'].map((f) =>
        cli(['validate', at(f), '--schema', at('schema.json'), '--format', 'json']),
      ),
    );
    for (const run of runs) expect(run.code).toBe(1);
    const [plain, ...others] = runs.map((r) => errorsOf(r.stdout));
    expect(plain).toEqual([
      [3, 'id', 'type', 'Must be a whole number'],
      [4, 'email', 'type', 'Must be a valid email'],
    ]);
    for (const other of others) expect(other).toEqual(plain);
  });

  it('validates a workbook: cells named in text, JSON and the CSV report; --sheet picks a sheet', async () => {
    const text = await cli(['validate', at('cells.xlsx'), '--schema', at('people.json')]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('Row 4       People!B4 name: Is required');
    expect(text.stdout).toContain('hold numbers where others hold text with leading zeros');
    const orders = [
      'validate',
      at('shared.xlsx'),
      '--schema',
      at('orders.json'),
      '--sheet',
      'Orders',
      '--format',
      'json',
    ];
    const json = await cli(orders);
    const result = JSON.parse(json.stdout) as { errors: { cell: string }[] };
    // With row outputs the sheet is read as CSV; without, its cells go to the validator directly
    // (decision 244): the same result either way.
    const withRows = await cli([...orders, '--invalid-out', at('orders-invalid.csv')]);
    expect(JSON.parse(withRows.stdout)).toEqual(result);
    expect(result.errors.map((e) => e.cell)).toEqual([
      'Orders!C3',
      'Orders!D3',
      'Orders!H3',
      'Orders!G5',
      'Orders!H5',
      'Orders!F6',
      'Orders!H6',
    ]);
    const csv = await cli([
      'validate',
      at('shared.xlsx'),
      '--schema',
      at('orders.json'),
      '--sheet',
      '2',
      '--format',
      'csv',
    ]);
    expect(csv.stdout.split('\r\n').slice(0, 2)).toEqual([
      'row,field,code,message,value,cell,severity,suggestion',
      '3,email,type,Must be a valid email,not an email,Orders!C3,error,',
    ]);
    const missing = await cli([
      'validate',
      at('shared.xlsx'),
      '--schema',
      at('orders.json'),
      '--sheet',
      'Nope',
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      'has no sheet "Nope"; its sheets are 1: Read me, 2: Orders, 3: Totals',
    );
  });

  it('reads a workbook and a gzip from standard input', async () => {
    const book = await readFile(at('cells.xlsx'));
    const run = await cli(
      ['validate', '-', '--schema', at('people.json'), '--format', 'json'],
      book,
    );
    expect(run.code).toBe(1);
    expect((JSON.parse(run.stdout) as { errors: { cell: string }[] }).errors[0]!.cell).toBe(
      'People!A3',
    );
    const gz = await cli(
      ['validate', '-', '--schema', at('schema.json'), '--format', 'json'],
      gzipSync(CSV),
    );
    expect(errorsOf(gz.stdout)).toHaveLength(2);
  });

  it('validates every data file of a zip in turn, or the one given with --entry', async () => {
    const all = await cli([
      'validate',
      at('two.zip'),
      '--schema',
      at('schema.json'),
      '--format',
      'json',
    ]);
    const body = JSON.parse(all.stdout) as { files: { file: string; errorCount: number }[] };
    expect(body.files.map((f) => [f.file.replace(dir, ''), f.errorCount])).toEqual([
      ['/two.zip:a.csv', 2],
      ['/two.zip:b.ndjson', 1],
    ]);
    const one = await cli([
      'validate',
      at('two.zip'),
      '--entry',
      'b.ndjson',
      '--schema',
      at('schema.json'),
      '--format',
      'json',
    ]);
    expect(errorsOf(one.stdout)).toEqual([[2, 'email', 'type', 'Must be a valid email']]);
  });

  it('refuses bombs, nested archives and .xls with exit status 2 and the reason', async () => {
    const bomb = await cli(['validate', at('bomb.csv.gz'), '--schema', at('schema.json')]);
    expect(bomb.code).toBe(2);
    expect(bomb.stderr).toContain('decompresses to more than 100 times its compressed size');
    const nested = await cli(['validate', at('nested.zip'), '--schema', at('schema.json')]);
    expect(nested.code).toBe(2);
    expect(nested.stderr).toContain('holds another archive (inner.zip)');
    const ole = Buffer.alloc(1536);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(ole);
    ole.writeUInt16LE(9, 0x1e);
    ole.write('Workbook', 512, 'utf16le');
    ole.writeUInt16LE(18, 512 + 0x40);
    await writeFile(at('old.xls'), ole);
    const xls = await cli(['validate', at('old.xls'), '--schema', at('schema.json')]);
    expect(xls.code).toBe(2);
    expect(xls.stderr).toContain('save it as .xlsx or CSV');
  });

  it('writes the good rows and the bad rows for CSV, Excel and JSON', async () => {
    const csv = await cli([
      'validate',
      at('a.csv.gz'),
      '--schema',
      at('schema.json'),
      '--valid-out',
      at('v.csv'),
      '--invalid-out',
      at('i.csv'),
    ]);
    expect(csv.code).toBe(1);
    expect(await readFile(at('v.csv'), 'utf8')).toBe('id,email\r\n1,a@example.com\r\n');
    expect(await readFile(at('i.csv'), 'utf8')).toBe(
      'id,email,errors\r\nx,b@example.com,id: Must be a whole number\r\n3,not-an-email,email: Must be a valid email\r\n',
    );
    await cli([
      'validate',
      at('cells.xlsx'),
      '--schema',
      at('people.json'),
      '--valid-out',
      at('v2.csv'),
      '--invalid-out',
      at('i2.csv'),
    ]);
    expect((await readFile(at('v2.csv'), 'utf8')).split('\r\n')).toEqual([
      'id,name,amount,active,joined,checked_at,starts,note,total',
      '00123,Ann,12.5,TRUE,2024-01-15,2024-01-15 13:45:00,09:30:00,plain,25',
      '',
    ]);
    expect((await readFile(at('i2.csv'), 'utf8')).split('\r\n')[2]).toBe(
      '00789,,,,2024-02-29,,,,,name: Is required',
    );
    await cli([
      'validate',
      at('b.json'),
      '--schema',
      at('schema.json'),
      '--valid-out',
      at('v.json'),
      '--invalid-out',
      at('i.json'),
    ]);
    expect(JSON.parse(await readFile(at('v.json'), 'utf8'))).toEqual([
      { id: 1, email: 'a@example.com' },
    ]);
    expect(JSON.parse(await readFile(at('i.json'), 'utf8'))).toEqual([
      { id: 'x', email: 'b@example.com' },
    ]);
    await cli([
      'validate',
      at('b.ndjson'),
      '--schema',
      at('schema.json'),
      '--valid-out',
      at('v.ndjson'),
      '--invalid-out',
      at('i.ndjson'),
    ]);
    expect(await readFile(at('v.ndjson'), 'utf8')).toBe('{"id":1,"email":"a@example.com"}\n');
    expect(await readFile(at('i.ndjson'), 'utf8')).toBe('{"id":2,"email":"nope"}\n');
    const many = await cli([
      'validate',
      at('two.zip'),
      '--schema',
      at('schema.json'),
      '--valid-out',
      at('x.csv'),
    ]);
    expect(many.code).toBe(2);
    expect(many.stderr).toContain('pick one with --entry');
  });
});
