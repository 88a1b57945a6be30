// The product data set as an Excel workbook (written by exceljs's streaming writer, shared
// strings on) and as a .csv.gz, for the Excel section. Cells are typed as a spreadsheet would type
// them: numbers whose text reads back the same, real dates for valid ISO dates and booleans; every
// other cell (the planted errors among them) stays text, so the workbook holds exactly the CSV's
// errors. Files are reused while the CSV they come from is unchanged.

import {
  createReadStream,
  createWriteStream,
  existsSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import ExcelJS from 'exceljs';
import { createCsvReader } from '../packages/engine/src/csv/reader.ts';

const NUMBER = /^-?(0|[1-9]\d{0,14})(\.\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function cellValue(text: string): string | number | boolean | Date {
  if (NUMBER.test(text) && String(Number(text)) === text) return Number(text);
  if (text === 'true') return true;
  if (text === 'false') return false;
  const m = DATE.exec(text);
  if (m) {
    const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    if (date.toISOString().slice(0, 10) === text) return date;
  }
  return text;
}

function fresh(target: string, source: string): boolean {
  const metaPath = `${target}.meta.json`;
  if (!existsSync(target) || !existsSync(metaPath)) return false;
  const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as {
    sourceBytes: number;
    sourceMtime: number;
    bytes: number;
  };
  const s = statSync(source);
  return (
    meta.sourceBytes === s.size &&
    meta.sourceMtime === s.mtimeMs &&
    meta.bytes === statSync(target).size
  );
}

function markFresh(target: string, source: string): void {
  const s = statSync(source);
  writeFileSync(
    `${target}.meta.json`,
    JSON.stringify({ sourceBytes: s.size, sourceMtime: s.mtimeMs, bytes: statSync(target).size }),
  );
}

export async function ensureWorkbook(csvPath: string, log: (m: string) => void): Promise<string> {
  const target = csvPath.replace(/\.csv$/, '.xlsx');
  if (fresh(target, csvPath)) {
    log(`reusing ${target}`);
    return target;
  }
  log(`writing ${target} with exceljs's streaming writer…`);
  const started = Date.now();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: target,
    useSharedStrings: true,
    useStyles: true,
  });
  const sheet = workbook.addWorksheet('Products');
  // The engine's own CSV reader cuts the records (quoted cells may hold line breaks).
  let pending: string[][] = [];
  const reader = createCsvReader({
    header(cells) {
      sheet.columns = cells.map((name) =>
        name === 'date' ? { key: name, style: { numFmt: 'yyyy-mm-dd' } } : { key: name },
      );
      pending.push(cells);
    },
    record: (cells) => pending.push(cells),
    issue: (row, code) => {
      throw new Error(`the bench CSV has a ${code} at row ${row}`);
    },
    warning: () => {},
  });
  let first = true;
  for await (const chunk of createReadStream(csvPath, { highWaterMark: 1 << 20 })) {
    reader.push(chunk as Buffer);
    for (const row of pending) {
      sheet.addRow(first ? row : row.map(cellValue)).commit();
      first = false;
    }
    pending = [];
  }
  reader.end();
  for (const row of pending) sheet.addRow(row.map(cellValue)).commit();
  sheet.commit();
  await workbook.commit();
  markFresh(target, csvPath);
  log(
    `  ${(statSync(target).size / 1e6).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  return target;
}

export async function ensureGzip(csvPath: string, log: (m: string) => void): Promise<string> {
  const target = `${csvPath}.gz`;
  if (fresh(target, csvPath)) {
    log(`reusing ${target}`);
    return target;
  }
  await pipeline(createReadStream(csvPath), createGzip(), createWriteStream(target));
  markFresh(target, csvPath);
  log(`wrote ${target} (${(statSync(target).size / 1e6).toFixed(1)} MB)`);
  return target;
}
