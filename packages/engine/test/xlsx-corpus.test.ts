// The workbook corpus (written by openpyxl and XlsxWriter, see fixtures/xlsx/generate.py): every
// cell kind, both date systems, sparse rows, shared and inline strings, merged cells and several
// sheets, read into the errors and warnings listed in fixtures/xlsx/expected.json. The same
// workbook is then read with every inflater output cut at every offset: nothing may change.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bytesSource,
  type InputPlatform,
  InputRefusedError,
  parseSchemaText,
  planInputs,
  type SchemaModel,
  validateOpened,
} from '../src/index.ts';
import { cuttingPlatform, nodePlatform } from './archive-platform.ts';
import { writeZip } from './zip-writer.ts';

const dir = join(import.meta.dirname, 'fixtures', 'xlsx');
const fixture = (name: string) => readFileSync(join(dir, name));

interface Case {
  file: string;
  sheet?: string;
  schema: unknown;
  errors: [string | null, number, string, string, string | null][];
  warnings: string[];
}
const cases = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Case[];

function schemaOf(c: Case): SchemaModel {
  const checked = parseSchemaText(JSON.stringify(c.schema));
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  return checked.value;
}

async function run(c: Case, platform: InputPlatform = nodePlatform) {
  const schema = schemaOf(c);
  const choice = c.sheet === undefined ? { schema } : { schema, sheet: c.sheet };
  const [plan] = await planInputs(c.file, bytesSource(fixture(c.file)), platform, choice);
  const result = await validateOpened(schema, await plan!.open());
  return {
    errors: result.errors.map((e) => [e.cell ?? null, e.row, e.field, e.code, e.value]),
    warnings: result.warnings.map((w) => w.code),
  };
}

async function sheetText(file: string, sheet?: string, platform: InputPlatform = nodePlatform) {
  const [plan] = await planInputs(
    file,
    bytesSource(fixture(file)),
    platform,
    sheet ? { sheet } : {},
  );
  const opened = await plan!.open();
  const parts: Buffer[] = [];
  for await (const chunk of opened.chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
}

describe('the Excel corpus', () => {
  for (const c of cases) {
    it(`${c.file}${c.sheet ? ` (${c.sheet})` : ''}: the expected errors, cells and warnings`, async () => {
      expect(await run(c)).toEqual({ errors: c.errors, warnings: c.warnings });
    });
  }

  it('reads each cell as Excel shows it, rows at their sheet row numbers', async () => {
    expect((await sheetText('cells-openpyxl.xlsx')).split('\n')).toEqual([
      'id,name,amount,active,joined,checked_at,starts,note,total',
      // inline strings, numbers, booleans, a date, a date-time, a time
      '00123,Ann,12.5,TRUE,2024-01-15,2024-01-15 13:45:00,09:30:00,plain,25',
      // 0.1 + 0.2 as Excel shows it; a cell needing quotes; a formula without a cached value
      '456,Bob,0.3,FALSE,2023-12-31,2023-12-31 23:59:59,17:00:00,"comma, ""quoted""',
      'and a line break",',
      // a sparse row: the cells in between are empty, the row as wide as the header
      '00789,,,,2024-02-29,,,,',
      // rows 5 and 6 do not exist: empty lines, so row 7 stays row 7
      '',
      '',
      '01000,Cy,#N/A,TRUE,2024-03-01,,,,3',
      // 15 significant digits, as Excel keeps them; a merged B8:C8 is its top-left value once
      '12345678901234600000,Merged across,,FALSE,2024-05-01,,,,',
      // spaces kept; a tiny number in plain decimals; a date column's bare serial; any Unicode
      '  spaced  ,Dee,-0.00000015,TRUE,45444,,,café ü 中文 😀,',
      '',
    ]);
    expect(await sheetText('cells-openpyxl.xlsx', '2')).toBe('code,qty\nA,1\nB,two\n');
  });

  it('reads shared strings, rich text, cached formula values and the 1904 system', async () => {
    expect(await sheetText('shared-xlsxwriter.xlsx', 'orders')).toBe(
      [
        'order,customer,email,placed,paid_at,total,status,sku',
        'A-1,Ann,ann@example.com,2024-01-15,2024-01-15 08:00:00,10,paid,000123',
        'A-2,Bob,not an email,1900-02-28,1900-03-01 12:00:00,20.25,refunded,123',
        'A-3,Ann,ann@example.com,2024-02-29,2024-02-29 23:59:59,30,paid,000456',
        'A-4,Dr. Eve Smith,eve@example.com,,,60.25,#REF!,TRUE',
        'A-5,Fay,fay@example.com,2024-12-24,,,paid,123456789012',
        '',
      ].join('\n'),
    );
    expect(await sheetText('dates-1904.xlsx')).toBe(
      'day,stamp\n1904-01-01,1904-01-02 06:00:00\n2024-01-15,2024-01-15 13:45:00\n1999-12-31,2030-06-01 00:00:01\n',
    );
  });

  it('the first worksheet by default; a sheet by name, any case, or 1-based position', async () => {
    expect((await sheetText('shared-xlsxwriter.xlsx')).split('\n')[0]).toBe(
      'The data is on the Orders sheet',
    );
    expect((await sheetText('shared-xlsxwriter.xlsx', '3')).split('\n')[0]).toBe('month,total');
    await expect(sheetText('shared-xlsxwriter.xlsx', 'Nope')).rejects.toThrow(
      /has no sheet "Nope"; its sheets are 1: Read me, 2: Orders, 3: Totals/,
    );
  });

  it('skips hidden sheets by default, and reads a namespace-prefixed workbook', async () => {
    // The smallest workbook Excel opens, written by hand: a hidden first sheet, prefixed tags.
    const ns = 'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
    const rels = (items: string) =>
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items}</Relationships>`;
    const sheetXml = (text: string) =>
      `<x:worksheet ${ns}><x:sheetData><x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>${text}</x:t></x:is></x:c></x:row></x:sheetData></x:worksheet>`;
    const book = writeZip([
      { name: '[Content_Types].xml', data: '<Types/>' },
      {
        name: '_rels/.rels',
        data: rels(
          '<Relationship Id="r1" Type="http://x/officeDocument" Target="xl/workbook.xml"/>',
        ),
      },
      {
        name: 'xl/workbook.xml',
        data: `<x:workbook ${ns} xmlns:r="urn:r"><x:sheets><x:sheet name="Lookups" sheetId="1" state="hidden" r:id="a"/><x:sheet name="Data" sheetId="2" r:id="b"/></x:sheets></x:workbook>`,
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: rels(
          '<Relationship Id="a" Type="http://x/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="b" Type="http://x/worksheet" Target="/xl/worksheets/sheet2.xml"/>',
        ),
      },
      { name: 'xl/worksheets/sheet1.xml', data: sheetXml('lookups') },
      { name: 'xl/worksheets/sheet2.xml', data: sheetXml('data') },
    ]);
    const read = async (sheet?: string) => {
      const [plan] = await planInputs(
        'hand.xlsx',
        bytesSource(book),
        nodePlatform,
        sheet ? { sheet } : {},
      );
      const parts: Buffer[] = [];
      for await (const chunk of (await plan!.open()).chunks) parts.push(Buffer.from(chunk));
      return Buffer.concat(parts).toString();
    };
    expect(await read()).toBe('data\n');
    expect(await read('Lookups')).toBe('lookups\n');
  });

  it('writes quotes, out-of-order cells, wide rows and rows longer than a CSV piece as CSV does', async () => {
    const rels = (items: string) =>
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items}</Relationships>`;
    const long = 'x'.repeat(300_000); // longer than a piece of CSV: its row moves to the next one
    const strings = ['sep=;', 'a,b', 'say "hi"', 'line\nbreak', long, 'plain'];
    const s = (ref: string, index: number) => `<c r="${ref}" t="s"><v>${index}</v></c>`;
    const n = (ref: string, value: string) => `<c r="${ref}"><v>${value}</v></c>`;
    const rows = [
      `<row r="1">${s('A1', 0)}${s('B1', 5)}${s('C1', 5)}</row>`,
      // C2 before A2 and B2: read into their columns all the same
      `<row r="2">${s('C2', 1)}${n('A2', '1.5')}${s('B2', 2)}</row>`,
      `<row r="4">${s('B4', 3)}${n('E4', '-7')}</row>`,
      `<row r="5">${s('A5', 4)}${n('B5', '2')}</row>`,
      `<row r="6">${s('A6', 5)}${s('A6', 1)}</row>`,
    ];
    const book = writeZip([
      { name: '[Content_Types].xml', data: '<Types/>' },
      {
        name: '_rels/.rels',
        data: rels(
          '<Relationship Id="r1" Type="http://x/officeDocument" Target="xl/workbook.xml"/>',
        ),
      },
      {
        name: 'xl/workbook.xml',
        data: '<workbook xmlns:r="urn:r"><sheets><sheet name="S" sheetId="1" r:id="a"/></sheets></workbook>',
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: rels(
          '<Relationship Id="a" Type="http://x/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="b" Type="http://x/sharedStrings" Target="sharedStrings.xml"/>',
        ),
      },
      {
        name: 'xl/sharedStrings.xml',
        data: `<sst>${strings.map((t) => `<si><t>${t.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}</t></si>`).join('')}</sst>`,
        deflate: true,
      },
      {
        name: 'xl/worksheets/sheet1.xml',
        data: `<worksheet><sheetData>${rows.join('')}</sheetData></worksheet>`,
        deflate: true,
      },
    ]);
    const expected = [
      // the first field quoted: unquoted, a CSV reader would take `sep=` for a separator line
      '"sep=;",plain,plain',
      '1.5,"say ""hi""","a,b"',
      '',
      ',"line\nbreak",,,-7',
      `${long},2,`,
      '"a,b",,',
      '',
    ].join('\n');
    for (const platform of [nodePlatform, cuttingPlatform((length) => [1, 7, length >> 1])]) {
      const [plan] = await planInputs('quotes.xlsx', bytesSource(book), platform, {});
      const parts: Buffer[] = [];
      for await (const chunk of (await plan!.open()).chunks) parts.push(Buffer.from(chunk));
      expect(Buffer.concat(parts).toString()).toBe(expected);
    }
  });

  it('refuses an .xlsb with what to do', async () => {
    const refusal = planInputs(
      'binary.xlsb',
      bytesSource(fixture('binary.xlsb')),
      nodePlatform,
    ).then(async ([p]) => p!.open());
    await expect(refusal).rejects.toBeInstanceOf(InputRefusedError);
    await expect(refusal).rejects.toThrow(
      /Excel binary workbook \(\.xlsb\).*save it as \.xlsx or CSV/,
    );
  });

  it('gives the same rows and errors wherever the inflated parts are cut', async () => {
    // Inline strings (openpyxl) and shared strings (XlsxWriter): every part cut at every offset.
    for (const c of [cases[0]!, cases[2]!]) {
      const whole = await sheetText(c.file, c.sheet);
      const longestPart = 3000;
      for (let cut = 1; cut < longestPart; cut += 1) {
        const platform = cuttingPlatform(() => [cut]);
        expect(await sheetText(c.file, c.sheet, platform)).toBe(whole);
      }
    }
    const c = cases[0]!;
    const expected = await run(c);
    for (const step of [1, 2, 3, 7, 64]) {
      const platform = cuttingPlatform((length) =>
        Array.from({ length: Math.ceil(length / step) }, (_, i) => (i + 1) * step),
      );
      expect(await run(c, platform)).toEqual(expected);
    }
  });
});
