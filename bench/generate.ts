// Deterministic product data for the benchmark: a CSV file, optionally the same records as a JSON
// array, and the list of planted errors. Files go to .bench/ and are reused when a meta file says
// they were made with the same parameters by the same generator version.
//
//   node --import tsx bench/generate.ts --rows 50000 [--seed 42] [--no-json]

import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { envInt } from './lib/env.ts';
import { CATEGORIES, COLUMNS, type Column } from './schema.ts';

/** Bump when the generated content changes, so stale files are regenerated. */
const GENERATOR_VERSION = 3;

export interface DatasetOptions {
  dir: string;
  rows: number;
  seed: number;
  /** Also write the JSON array. */
  json: boolean;
  /** Share of records with one planted error (exactly round(rows * rate) records). */
  errorRate: number;
  /** Progress messages go here. */
  log?: (message: string) => void;
}

export interface PlantedError {
  /** 0-based record index: CSV row = record + 2 (header is row 1), JSON row = record + 1. */
  record: number;
  column: Column;
  /** The cell as written in the CSV (before quoting). */
  csv: string;
  /** The property as written in the JSON (a JSON literal), or null when the property is left out. */
  json: string | null;
}

export interface Dataset {
  rows: number;
  seed: number;
  csvPath: string;
  csvBytes: number;
  jsonPath: string | null;
  jsonBytes: number;
  plantedPath: string;
  plantedCount: number;
}

interface Meta {
  generatorVersion: number;
  rows: number;
  seed: number;
  json: boolean;
  errorRate: number;
  csvBytes: number;
  jsonBytes: number;
  plantedCount: number;
}

/** mulberry32: small, fast, good enough for test data, identical on every platform. */
export function createRandom(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;
  return { next, int, pick };
}
type Random = ReturnType<typeof createRandom>;

const ADJECTIVES = [
  'Classic',
  'Compact',
  'Deluxe',
  'Eco',
  'Ergonomic',
  'Foldable',
  'Heavy-Duty',
  'Lightweight',
  'Modern',
  'Portable',
  'Premium',
  'Rustic',
  'Smart',
  'Vintage',
  'Wireless',
  'Waterproof',
];
const MATERIALS = [
  'Oak',
  'Steel',
  'Bamboo',
  'Cotton',
  'Leather',
  'Ceramic',
  'Glass',
  'Wool',
  'Linen',
  'Walnut',
];
const NOUNS = [
  'Chair',
  'Desk Lamp',
  'Backpack',
  'Kettle',
  'Headphones',
  'Blanket',
  'Notebook',
  'Speaker',
  'Jacket',
  'Puzzle',
  'Mug',
  'Charger',
  'Planter',
  'Board Game',
  'Cookbook',
  'Monitor Stand',
];
const EXTRAS = ['Set of 2', 'Large', 'Blue', 'Limited Edition', 'XL', 'for Kids', '2nd Gen'];
const ACCENTED = ['Café', 'Crème', 'Señor', 'Über', 'Naïve', 'Smörgås', 'Żółć', 'Ærø'];
const NON_BMP = ['🎁', '🚀', '𝄞', '😀'];
const FIRST = ['anna', 'ben', 'chloe', 'dev', 'eva', 'farid', 'grace', 'hugo', 'isla', 'jon'];
const LAST = ['smith', 'jones', 'patel', 'garcia', 'nguyen', 'muller', 'rossi', 'kim', 'brown'];
const DOMAINS = ['example.com', 'mail.example.org', 'shop.example.co.uk', 'example.net'];
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function codePoints(s: string): string[] {
  return Array.from(s);
}

/** A valid product name of 2..100 code points, sometimes with commas, quotes, newlines, non-ASCII. */
function productName(r: Random): string {
  const roll = r.next();
  if (roll < 0.01) return r.pick(['TV', 'Pi', 'Go', 'Tó']); // shortest allowed
  let name = `${r.pick(ADJECTIVES)} ${r.pick(MATERIALS)} ${r.pick(NOUNS)}`;
  const shape = r.next();
  if (shape < 0.08) name = `${r.pick(NOUNS)}, ${r.pick(MATERIALS)}, ${r.pick(EXTRAS)}`;
  else if (shape < 0.11) name = `${10 + r.int(40)}" ${name}`;
  else if (shape < 0.12) name = `${name}\n${r.pick(EXTRAS)}`;
  else if (shape < 0.14) name = `${r.pick(ACCENTED)} ${name}`;
  else if (shape < 0.15) name = `${r.pick(NON_BMP)} ${name}`;
  else if (shape < 0.2) name = `${name} - ${r.pick(EXTRAS)}`;
  if (roll > 0.97) {
    // long names, some exactly 100 code points (with a non-BMP character now and then)
    while (codePoints(name).length < 100) name += ` ${r.pick(NOUNS)}`;
    name = codePoints(name).slice(0, 100).join('');
  }
  return name;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

interface Product {
  /** CSV cells as written (unquoted). */
  csv: string[];
  /** JSON literals per column; null = property left out. */
  json: (string | null)[];
}

function product(r: Random, index: number): Product {
  const id = index + 1;
  const sku = `${UPPER[r.int(26)]}${UPPER[r.int(26)]}${UPPER[r.int(26)]}-${pad(r.int(10000), 4)}`;
  const name = productName(r);
  const price = (r.next() < 0.01 ? 0 : r.int(1_000_000) / 100).toFixed(2);
  const stock = String(r.next() < 0.05 ? 0 : r.int(5000));
  const category = r.pick(CATEGORIES);
  const first = r.pick(FIRST);
  const plus = r.next() < 0.05 ? '+shop' : '';
  const email = `${first}.${r.pick(LAST)}${r.int(1000)}${plus}@${r.pick(DOMAINS)}`;
  const url =
    r.next() < 0.5
      ? `https://www.example.com/products/${sku.toLowerCase()}`
      : `https://shop.example.org/p/${id}?ref=${r.pick(FIRST)}&utm_source=feed`;
  const year = 2000 + r.int(26);
  const month = 1 + r.int(12);
  const date = `${year}-${pad(month, 2)}-${pad(1 + r.int(daysInMonth(year, month)), 2)}`;
  const active = r.next() < 0.8 ? 'true' : 'false';
  const csv = [String(id), sku, name, price, stock, category, email, url, date, active];
  const json = [
    String(id),
    JSON.stringify(sku),
    JSON.stringify(name),
    price, // "12.30" is a valid JSON number literal
    stock,
    JSON.stringify(category),
    JSON.stringify(email),
    JSON.stringify(url),
    JSON.stringify(date),
    active,
  ];
  return { csv, json };
}

const q = (s: string): string => JSON.stringify(s);

/** Bad values per column: [CSV cell, JSON literal or null for a left-out property]. */
function plantedValue(r: Random, column: Column): [string, string | null] {
  // An empty cell / a missing or null property is a `required` error on any column.
  if (r.next() < 0.06) return ['', r.next() < 0.5 ? null : 'null'];
  switch (column) {
    case 'id':
      return r.pick<[string, string]>([
        ['abc', '-5'],
        ['0', '1.5'],
        ['-4', '0'],
        ['12a', q('abc')],
      ]);
    case 'sku':
      return r.pick<[string, string]>([
        ['AB-12', q('AB-12')],
        ['abc-1234', q('abc-1234')],
        ['ABCD-123', q('ABCD-123')],
      ]);
    case 'name': {
      if (r.next() < 0.5) return ['X', q('X')];
      let long = `${r.pick(ADJECTIVES)}, ${r.pick(NOUNS)} ${r.pick(ACCENTED)}`;
      while (codePoints(long).length < 101) long += ` ${r.pick(NOUNS)}`;
      long = codePoints(long).slice(0, 101).join('');
      return [long, q(long)];
    }
    case 'price':
      return r.pick<[string, string]>([
        ['-1.00', '-1'],
        ['12.345', '12.345'],
        ['9.999', '-0.5'],
        ['1,50', q('1,50')],
      ]);
    case 'stock':
      return r.pick<[string, string]>([
        ['-3', '-3'],
        ['2.5', '2.5'],
        ['many', q('3')],
      ]);
    case 'category':
      return r.pick<[string, string]>([
        ['Food', q('Food')],
        ['electronics', q('electronics')],
        ['Home and Garden', q('Home and Garden')],
      ]);
    case 'email':
      return r.pick<[string, string]>([
        ['not-an-email', q('not-an-email')],
        ['jane.doe@', q('jane.doe@')],
        ['a b@example.com', q('a b@example.com')],
      ]);
    case 'url':
      return r.pick<[string, string]>([
        ['ftp://x', q('ftp://x')],
        ['http:// bad', q('http:// bad')],
        ['www.example.com/p/1', q('www.example.com/p/1')],
      ]);
    case 'date':
      return r.pick<[string, string]>([
        ['2024-02-30', q('2024-02-30')],
        ['2023-02-29', q('2023-02-29')],
        ['2024-13-01', q('2024-13-01')],
        ['05/03/2024', q('05/03/2024')],
      ]);
    case 'active':
      return r.pick<[string, string]>([
        ['maybe', q('maybe')],
        ['tru', q('yes please')],
      ]);
  }
}

function csvCell(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

function metaPath(dir: string, base: string): string {
  return join(dir, `${base}.meta.json`);
}

function readMeta(path: string): Meta | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Meta;
  } catch {
    return null;
  }
}

function fileSize(path: string): number {
  return existsSync(path) ? statSync(path).size : -1;
}

/** Writes the data set unless an identical one is already there. */
/** The sections' product CSV of `rows` rows: 1% of records with a planted error, BENCH_SEED. */
export function ensureProductsCsv(
  context: { dir: string; log: (message: string) => void },
  rows: number,
): Promise<Dataset> {
  return ensureDataset({
    dir: context.dir,
    rows,
    seed: envInt('BENCH_SEED', 42),
    json: false,
    errorRate: 0.01,
    log: context.log,
  });
}

export async function ensureDataset(options: DatasetOptions): Promise<Dataset> {
  const { dir, rows, seed, json, errorRate } = options;
  const log = options.log ?? (() => {});
  mkdirSync(dir, { recursive: true });
  const base = `products-${rows}-s${seed}`;
  const csvPath = join(dir, `${base}.csv`);
  const jsonPath = json ? join(dir, `${base}.json`) : null;
  const plantedPath = join(dir, `${base}.planted.json`);
  const meta = readMeta(metaPath(dir, base));
  if (
    meta &&
    meta.generatorVersion === GENERATOR_VERSION &&
    meta.rows === rows &&
    meta.seed === seed &&
    meta.errorRate === errorRate &&
    (meta.json || !json) &&
    fileSize(csvPath) === meta.csvBytes &&
    (!json || fileSize(jsonPath as string) === meta.jsonBytes) &&
    existsSync(plantedPath)
  ) {
    log(`reusing ${csvPath}${json ? ` and ${jsonPath}` : ''}`);
    return {
      rows,
      seed,
      csvPath,
      csvBytes: meta.csvBytes,
      jsonPath: meta.json ? jsonPath : null,
      jsonBytes: meta.json ? meta.jsonBytes : 0,
      plantedPath,
      plantedCount: meta.plantedCount,
    };
  }

  log(
    `generating ${rows.toLocaleString('en')} rows into ${csvPath}${json ? ` and ${jsonPath}` : ''}`,
  );
  const started = Date.now();
  const r = createRandom(seed);
  // Choose the planted records first (exactly round(rows * rate) distinct ones).
  const plantedCount = Math.round(rows * errorRate);
  const chosen = new Set<number>();
  while (chosen.size < plantedCount) chosen.add(r.int(rows));
  const plantedRecords = new Set(chosen);

  const csvOut = createWriteStream(csvPath);
  const jsonOut = jsonPath ? createWriteStream(jsonPath) : null;
  let csvBytes = 0;
  let jsonBytes = 0;
  const plantedOut = createWriteStream(plantedPath);
  plantedOut.write('[\n');

  const write = async (
    stream: ReturnType<typeof createWriteStream>,
    text: string,
  ): Promise<number> => {
    const bytes = Buffer.byteLength(text);
    if (!stream.write(text)) await once(stream, 'drain');
    return bytes;
  };

  csvBytes += await write(csvOut, `${COLUMNS.join(',')}\n`);
  if (jsonOut) jsonBytes += await write(jsonOut, '[\n');

  const BATCH = 5000;
  let plantedWritten = 0;
  for (let start = 0; start < rows; start += BATCH) {
    const end = Math.min(rows, start + BATCH);
    let csvText = '';
    let jsonText = '';
    let plantedText = '';
    for (let i = start; i < end; i++) {
      const p = product(r, i);
      if (plantedRecords.has(i)) {
        const c = r.int(COLUMNS.length);
        const column = COLUMNS[c] as Column;
        const [csv, jsonLiteral] = plantedValue(r, column);
        p.csv[c] = csv;
        p.json[c] = jsonLiteral;
        const entry: PlantedError = { record: i, column, csv, json: jsonLiteral };
        plantedText += `${plantedWritten++ === 0 ? '' : ',\n'}${JSON.stringify(entry)}`;
      }
      let line = '';
      for (let c = 0; c < p.csv.length; c++) line += (c ? ',' : '') + csvCell(p.csv[c] as string);
      csvText += `${line}\n`;
      if (jsonOut) {
        let obj = '{';
        let first = true;
        for (let c = 0; c < COLUMNS.length; c++) {
          const lit = p.json[c];
          if (lit === null || lit === undefined) continue;
          obj += `${first ? '' : ','}"${COLUMNS[c]}":${lit}`;
          first = false;
        }
        jsonText += `${obj}}${i === rows - 1 ? '' : ','}\n`;
      }
    }
    csvBytes += await write(csvOut, csvText);
    if (jsonOut) jsonBytes += await write(jsonOut, jsonText);
    if (plantedText) await write(plantedOut, plantedText);
    if (end % 1_000_000 === 0) log(`  ${end.toLocaleString('en')} rows`);
  }
  if (jsonOut) jsonBytes += await write(jsonOut, ']\n');
  await write(plantedOut, '\n]\n');
  await Promise.all(
    [csvOut, jsonOut, plantedOut].map(
      (s) =>
        s &&
        new Promise<void>((resolve, reject) =>
          s.end((e?: Error | null) => (e ? reject(e) : resolve())),
        ),
    ),
  );

  const newMeta: Meta = {
    generatorVersion: GENERATOR_VERSION,
    rows,
    seed,
    json,
    errorRate,
    csvBytes,
    jsonBytes,
    plantedCount,
  };
  writeFileSync(metaPath(dir, base), `${JSON.stringify(newMeta, null, 2)}\n`);
  log(
    `  wrote ${(csvBytes / 1e6).toFixed(1)} MB CSV${json ? `, ${(jsonBytes / 1e6).toFixed(1)} MB JSON` : ''} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return {
    rows,
    seed,
    csvPath,
    csvBytes,
    jsonPath,
    jsonBytes,
    plantedPath,
    plantedCount,
  };
}

export function readPlanted(path: string): PlantedError[] {
  return JSON.parse(readFileSync(path, 'utf8')) as PlantedError[];
}

// Run as a script only when this file is the script: a bench child bundles this module with its
// own entry, and there import.meta.url is the bundle's, equal to argv[1] (decision 222).
if (
  import.meta.url.endsWith('/bench/generate.ts') &&
  import.meta.url === pathToFileURL(process.argv[1] ?? '').href
) {
  const args = process.argv.slice(2);
  const arg = (name: string, fallback: string): string => {
    const i = args.indexOf(name);
    return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
  };
  const dataset = await ensureDataset({
    dir: arg('--dir', '.bench'),
    rows: Number(arg('--rows', '1000000')),
    seed: Number(arg('--seed', '42')),
    json: !args.includes('--no-json'),
    errorRate: 0.01,
    log: (m) => console.log(m),
  });
  console.log(JSON.stringify(dataset));
}
