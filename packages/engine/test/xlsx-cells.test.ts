// A sheet's cells handed to the validator directly (decision 244) must give exactly what its CSV
// gives: the same issues (rows, fields, codes, messages, values, cells), counts and warnings. The
// Excel corpus and generated workbooks are validated both ways, with the inflater's output cut at
// many offsets, with a field size limit that sends long cells through CSV after all, and with a
// row limit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bytesSource,
  type InputPlatform,
  type InputValidateOptions,
  parseSchemaText,
  planInputs,
  type SchemaModel,
  validateOpened,
} from '../src/index.ts';
import { cuttingPlatform, nodePlatform } from './archive-platform.ts';
import { writeZip } from './zip-writer.ts';

const dir = join(import.meta.dirname, 'fixtures', 'xlsx');

interface Case {
  file: string;
  sheet?: string;
  schema: unknown;
}
const corpus = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Case[];

function schemaOf(schema: unknown): SchemaModel {
  const checked = parseSchemaText(JSON.stringify(schema));
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  return checked.value;
}

const steps = (step: number) => (length: number) =>
  Array.from({ length: Math.ceil(length / step) }, (_, i) => (i + 1) * step);
const platforms: [string, InputPlatform][] = [
  ['whole', nodePlatform],
  ['cut every byte', cuttingPlatform(steps(1))],
  ['cut every 7 bytes', cuttingPlatform(steps(7))],
  ['cut every 1000 bytes', cuttingPlatform(steps(1000))],
];

async function validate(
  name: string,
  book: Uint8Array,
  schema: SchemaModel,
  cells: boolean,
  options: { sheet?: string; platform?: InputPlatform; validate?: InputValidateOptions } = {},
) {
  const choice = options.sheet === undefined ? { schema } : { schema, sheet: options.sheet };
  const [plan] = await planInputs(
    name,
    bytesSource(book),
    options.platform ?? nodePlatform,
    choice,
  );
  const issues: unknown[] = [];
  const result = await validateOpened(
    schema,
    await plan!.open(),
    { ...options.validate, onIssue: (issue) => issues.push({ ...issue }) },
    { cells },
  );
  return { result, issues };
}

/** Validated as CSV and as cells: the same, and the result as CSV for further checks. */
async function same(
  name: string,
  book: Uint8Array,
  schema: SchemaModel,
  options: Parameters<typeof validate>[4] = {},
) {
  const csv = await validate(name, book, schema, false, options);
  expect(await validate(name, book, schema, true, options)).toEqual(csv);
  return csv.result;
}

describe('cells handed to the validator directly', () => {
  for (const c of corpus) {
    it(`${c.file}${c.sheet ? ` (${c.sheet})` : ''}: as its CSV, wherever the parts are cut`, async () => {
      const book = readFileSync(join(dir, c.file));
      const options = c.sheet === undefined ? {} : { sheet: c.sheet };
      for (const [, platform] of platforms)
        await same(c.file, book, schemaOf(c.schema), { ...options, platform });
    });
  }

  it('a generated workbook: every kind of cell, sparse and unordered rows, rules', async () => {
    const book = generated(2000);
    const result = await same('generated.xlsx', book, generatedSchema);
    // The workbook has something to say in each of these.
    const codes = new Set(result.errors.map((e) => e.code));
    for (const code of ['required', 'unique', 'pattern', 'type', 'extra_cells', 'compare'])
      expect(codes).toContain(code);
    for (const [, platform] of platforms.slice(1))
      await same('generated.xlsx', generated(300), generatedSchema, { platform });
  });

  it('missing values, as Table Schema has them', async () => {
    const schema = schemaOf({
      fields: [
        { name: 'id', type: 'integer', constraints: { required: true, unique: true } },
        { name: 'name', type: 'string', constraints: { required: true } },
        { name: 'price', type: 'number' },
      ],
      missingValues: ['', 'NA'],
    });
    const rows = [['id', 'name', 'price']];
    for (let i = 1; i <= 50; i++)
      rows.push([i % 7 ? String(i) : 'NA', i % 5 ? `n${i}` : 'NA', i % 3 ? '1.5' : 'NA']);
    await same('na.xlsx', workbook(rows.map((r) => r.map((v) => ({ s: v })))), schema);
  });

  it('a cell longer than the field size limit: the rest is read as CSV, as before', async () => {
    const schema = generatedSchema;
    // After the header, and in the header itself.
    for (const maxFieldBytes of [24, 40]) {
      const result = await same('generated.xlsx', generated(400), schema, {
        validate: { maxFieldBytes },
      });
      expect(result.errors.some((e) => e.code === 'parse_error')).toBe(true);
    }
    const longHeader = workbook([
      [{ s: 'id' }, { s: `name${'x'.repeat(100)}` }],
      [{ n: '1' }, { s: 'a' }],
      [{ n: '2' }, { s: 'b'.repeat(100) }],
    ]);
    await same('long.xlsx', longHeader, schema, { validate: { maxFieldBytes: 30 } });
  });

  it('a row limit and a small error limit', async () => {
    const book = generated(600);
    for (const validate of [{ maxRows: 1 }, { maxRows: 250 }, { maxErrors: 3 }]) {
      const csv = (await validate_(book, false, validate)).result;
      const cells = (await validate_(book, true, validate)).result;
      // Excel-damage warnings cover the part of the sheet read, which a stop makes differ.
      expect({ ...cells, warnings: [] }).toEqual({ ...csv, warnings: [] });
    }
  });

  it('an empty sheet, and one with a header only', async () => {
    await same('empty.xlsx', workbook([]), generatedSchema);
    await same('header.xlsx', workbook([[{ s: 'id' }, { s: 'name' }]]), generatedSchema);
  });
});

const validate_ = (book: Uint8Array, cells: boolean, options: InputValidateOptions) =>
  validate('generated.xlsx', book, generatedSchema, cells, { validate: options });

const generatedSchema = schemaOf({
  name: 'generated',
  fields: [
    { name: 'id', type: 'integer', required: true, validation: { unique: true } },
    { name: 'sku', type: 'string', validation: { pattern: '^[A-Z]{3}-\\d{4}$' } },
    { name: 'name', type: 'string', required: true, validation: { maxLength: 30 } },
    { name: 'price', type: 'number', validation: { min: 0 } },
    { name: 'email', type: 'email' },
    { name: 'active', type: 'boolean' },
    { name: 'start', type: 'integer' },
    { name: 'end', type: 'integer' },
  ],
  rules: [{ kind: 'compare', left: 'end', op: '>=', right: 'start' }],
});

type Cell =
  | { s: string } // shared string
  | { n: string } // number
  | { b: boolean }
  | { i: string } // inline string, as XML text (character references allowed)
  | null;

/** Rows of cells, each at its index (row 1 first) unless given as [rowNumber, cells]. */
function workbook(rows: (Cell[] | [number, Cell[], number[]?])[]): Uint8Array {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const shared = (text: string) => {
    let k = index.get(text);
    if (k === undefined) {
      k = strings.length;
      strings.push(text);
      index.set(text, k);
    }
    return k;
  };
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  const col = (c: number): string =>
    c < 26 ? String.fromCharCode(65 + c) : col(Math.floor(c / 26) - 1) + col(c % 26);
  const xmlRows = rows.map((row, i) => {
    const [r, cells, order] =
      typeof row[0] === 'number' ? (row as [number, Cell[], number[]?]) : [i + 1, row as Cell[]];
    const at = (order ?? cells.map((_, c) => c)).filter((c) => cells[c] != null);
    const xml = at.map((c) => {
      const cell = cells[c]!;
      const ref = `${col(c)}${r}`;
      if ('s' in cell) return `<c r="${ref}" t="s"><v>${shared(cell.s)}</v></c>`;
      if ('n' in cell) return `<c r="${ref}"><v>${cell.n}</v></c>`;
      if ('b' in cell) return `<c r="${ref}" t="b"><v>${cell.b ? 1 : 0}</v></c>`;
      return `<c r="${ref}" t="inlineStr"><is><t>${cell.i}</t></is></c>`;
    });
    return `<row r="${r}">${xml.join('')}</row>`;
  });
  const rels = (items: string) =>
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items}</Relationships>`;
  return writeZip([
    { name: '[Content_Types].xml', data: '<Types/>' },
    {
      name: '_rels/.rels',
      data: rels('<Relationship Id="r1" Type="http://x/officeDocument" Target="xl/workbook.xml"/>'),
    },
    {
      name: 'xl/workbook.xml',
      data: '<workbook xmlns:r="urn:r"><sheets><sheet name="Data" sheetId="1" r:id="a"/></sheets></workbook>',
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: rels(
        '<Relationship Id="a" Type="http://x/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="b" Type="http://x/sharedStrings" Target="sharedStrings.xml"/>',
      ),
    },
    {
      name: 'xl/sharedStrings.xml',
      data: `<sst>${strings.map((t) => `<si><t xml:space="preserve">${esc(t)}</t></si>`).join('')}</sst>`,
      deflate: true,
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      data: `<worksheet><sheetData>${xmlRows.join('')}</sheetData></worksheet>`,
      deflate: true,
    },
  ]);
}

/** `n` data rows after an empty first row and the header (row 3), with something in most. */
function generated(n: number): Uint8Array {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  const names = [
    'Plain lamp',
    'Smörgås board',
    '𝄞 music stand',
    '中文 chair',
    'comma, quoted',
    'say "hi"',
    'line\nbreak',
    'cr\rreturn',
    '\uFEFFbom first',
    'sep=;',
    '123',
    '00123',
    '1.2.3',
    '',
    'a name far too long for its thirty characters',
  ];
  const header: Cell[] = ['id', 'sku', 'name', 'price', 'email', 'active', 'start', 'end'].map(
    (s) => ({ s }),
  );
  const rows: [number, Cell[], number[]?][] = [
    [1, [{ i: '' }]],
    [3, header],
  ];
  let r = 3;
  for (let i = 1; i <= n; i++) {
    // Mostly the next row; sometimes a gap, and now and then a row number going back.
    r += random() < 0.1 ? 3 : random() < 0.02 ? -2 : 1;
    const id: Cell = random() < 0.02 ? null : random() < 0.03 ? { n: '5' } : { n: String(i) };
    const cells: Cell[] = [
      id,
      { s: random() < 0.9 ? `ABC-${String(i % 10_000).padStart(4, '0')}` : 'abc-1' },
      random() < 0.1
        ? { i: pick(['Inline &amp; co', 'lone &#xD800; half', '&#x1D11E; clef', '']) }
        : { s: pick(names) },
      random() < 0.1
        ? { s: pick(['12.50', 'free', '-1']) }
        : { n: pick(['12.5', '0', '-3', '1e3', '7']) },
      { s: random() < 0.95 ? `user${i}@example.com` : 'not an email' },
      random() < 0.1 ? { s: 'yes' } : { b: random() < 0.5 },
      { n: String(Math.floor(random() * 10)) },
      { n: String(Math.floor(random() * 10)) },
    ];
    if (random() < 0.05) cells.push({ s: 'extra' });
    if (random() < 0.05) cells.length = 3;
    // Cells written out of column order now and then.
    const order = random() < 0.05 ? cells.map((_, c) => cells.length - 1 - c) : undefined;
    rows.push(order ? [r, cells, order] : [r, cells]);
  }
  return workbook(rows);
}
