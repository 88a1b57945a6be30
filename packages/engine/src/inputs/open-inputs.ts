// From a file as the user gave it (a CSV, a JSON, a workbook, a .gz, a .zip) to the data inside
// it as bytes the validator reads: decided here once, so the CLI, the server and the browser open
// files the same way and refuse the same files with the same words. The platform only lends
// random access to the file and an inflater.

import {
  type ByteSource,
  bytesSource,
  collectBytes,
  type Decompress,
} from '../archive/byte-source.ts';
import { isArchiveName, oleDirectorySector, oleKind, sniffContainer } from '../archive/detect.ts';
import { gunzipGuarded } from '../archive/gzip.ts';
import { type ArchiveLimits, formatSize } from '../archive/limits.ts';
import { refuse } from '../archive/refusal.ts';
import { openZip, type ZipArchive, type ZipEntry } from '../archive/zip.ts';
import { ACCEPTED_EXTENSIONS_TEXT } from '../files/accepted.ts';
import { detectFileType } from '../files/detect.ts';
import type { FileType, Issue, SchemaModel, ValidationResult } from '../model.ts';
import { readSheet, type SheetReading } from '../xlsx/sheet-reader.ts';
import { openWorkbook, pickSheet } from '../xlsx/workbook.ts';

export interface InputPlatform {
  /** gzip members in, data out (node:zlib createGunzip, DecompressionStream('gzip')). */
  gunzip: Decompress;
  /** Raw DEFLATE in, data out (node:zlib createInflateRaw, DecompressionStream('deflate-raw')). */
  inflateRaw: Decompress;
}

export interface InputChoice {
  /** Workbook sheet by name or 1-based position; the first worksheet when unset. */
  sheet?: string;
  /** Zip entry to read; every data entry in turn when unset. */
  entry?: string;
  schema?: SchemaModel;
  limits?: ArchiveLimits;
  /**
   * The file type of a data file from its name and first bytes, or null to refuse it. Defaults
   * to the engine's detectFileType with the schema's type; the CLI adds its allowances.
   */
  decide?: (name: string, first: Uint8Array) => { fileType: FileType; jsonShape?: 'ndjson' } | null;
}

export type InputFormat = 'csv' | 'json' | 'xlsx';

export interface OpenedInput {
  /** How reports name it: `orders.csv.gz`, `export.zip:orders.csv`, `book.xlsx`. */
  name: string;
  format: InputFormat;
  /** What the validator reads: a workbook's sheet arrives as CSV. */
  fileType: FileType;
  jsonShape?: 'ndjson';
  delimiter?: string;
  /** The data's bytes (decompressed, or a sheet as CSV: see sendCells). */
  chunks: AsyncIterable<Uint8Array>;
  compression?: 'gzip' | 'zip';
  /** Set for a workbook: cell references and Excel-damage warnings. */
  sheet?: SheetReading;
}

export interface PlannedInput {
  name: string;
  open(): Promise<OpenedInput>;
}

const HEAD_BYTES = 4096;
/** A workbook inside a zip is held in memory to be read at random; it may be at most this big. */
export const MAX_NESTED_WORKBOOK_BYTES = 256 << 20;
const DATA_ENTRY = /\.(csv|tsv|txt|json|ndjson|jsonl|xlsx|xlsm)$/i;

/** Data in a file read from the start, in pieces (what a plain CSV or JSON needs). */
export async function* sequentialBytes(
  source: ByteSource,
  chunkBytes = 1 << 20,
): AsyncIterable<Uint8Array> {
  for (let at = 0; at < source.size;) {
    const chunk = await source.read(at, Math.min(chunkBytes, source.size - at));
    if (chunk.length === 0) return;
    at += chunk.length;
    yield chunk;
  }
}

/**
 * What to validate in `name`: one input for a data file, a workbook or a gzip; one per data
 * entry of a zip (or the chosen one). Refusals (bombs, nesting, .xls, encryption) are thrown as
 * InputRefusedError before any data is inflated where the file's headers allow it.
 */
export async function planInputs(
  name: string,
  source: ByteSource,
  platform: InputPlatform,
  choice: InputChoice = {},
): Promise<PlannedInput[]> {
  const head = await source.read(0, Math.min(HEAD_BYTES, source.size));
  const container = sniffContainer(head);
  if (container === 'ole') return refuseOle(name, source, head);
  if (container === 'gzip') {
    return [{ name, open: () => openGzip(name, sequentialBytes(source), platform, choice) }];
  }
  if (container === 'zip') {
    const zip = await openZip(source, platform.inflateRaw, choice.limits, name);
    if (isWorkbookZip(zip) || /\.xls[xm]$/i.test(name)) {
      return [{ name, open: () => openWorkbookInput(name, zip, choice) }];
    }
    return planZipEntries(name, zip, platform, choice);
  }
  if (/\.(xlsx|xlsm|xlsb|xls)$/i.test(name)) {
    refuse(
      'not_a_workbook',
      `${name} is not an Excel workbook (its content is not a zip): save it as .xlsx or CSV`,
    );
  }
  const decided = decide(name, head, choice);
  return [
    {
      name,
      open: async () => ({
        name,
        format: formatOf(decided),
        ...decided,
        chunks: sequentialBytes(source),
      }),
    },
  ];
}

/** For a forward-only stream (standard input, a request body): plain data or gzip. */
export async function openStream(
  name: string,
  chunks: AsyncIterable<Uint8Array>,
  platform: InputPlatform,
  choice: InputChoice = {},
): Promise<OpenedInput> {
  const { first, rest } = await peek(chunks);
  const container = sniffContainer(first);
  if (container === 'gzip') return openGzip(name, rest, platform, choice);
  if (container !== 'none') {
    refuse(
      'not_a_workbook',
      `${name} is a ${container === 'zip' ? 'zip file or workbook' : 'binary Office file'}: give it as a file, not a stream`,
    );
  }
  const decided = decide(name, first, choice);
  return { name, format: formatOf(decided), ...decided, chunks: rest };
}

function isWorkbookZip(zip: ZipArchive): boolean {
  return (
    (zip.find('[Content_Types].xml') !== undefined && zip.find('xl/workbook.xml') !== undefined) ||
    zip.find('xl/workbook.bin') !== undefined
  );
}

const formatOf = (d: { fileType: FileType }): InputFormat => d.fileType;

function decide(name: string, first: Uint8Array, choice: InputChoice) {
  const decided = choice.decide
    ? choice.decide(name, first)
    : detectFileType(name, first, choice.schema?.fileType);
  if (!decided) {
    return refuse(
      'no_data_entry',
      `${name} is not a CSV, JSON, Excel, gzip or zip file (name it ${ACCEPTED_EXTENSIONS_TEXT})`,
    );
  }
  return decided;
}

async function refuseOle(name: string, source: ByteSource, head: Uint8Array): Promise<never> {
  const sector = oleDirectorySector(head);
  const kind = sector ? oleKind(await source.read(sector.offset, sector.size)) : 'unknown';
  if (kind === 'encrypted') {
    return refuse(
      'encrypted_workbook',
      `${name} is a password-protected workbook, which cannot be read: remove the password in Excel (File > Info > Protect Workbook > Encrypt with Password) and save again`,
    );
  }
  return refuse(
    'xls',
    `${name} is an old binary Excel file (.xls${kind === 'unknown' ? ' or another Office 97-2003 file' : ''}), which is not read: save it as .xlsx or CSV`,
  );
}

async function openWorkbookInput(
  name: string,
  zip: ZipArchive,
  choice: InputChoice,
): Promise<OpenedInput> {
  const workbook = await openWorkbook(zip, name);
  const sheet = pickSheet(workbook, choice.sheet, name);
  const reading = readSheet(workbook, sheet, choice.schema);
  const worksheets = workbook.sheets.filter((s) => s.isWorksheet);
  if (worksheets.length > 1 && choice.sheet === undefined) {
    noteSheets.set(
      reading,
      `${name} has ${worksheets.length} sheets (${worksheets.map((s) => s.name).join(', ')}); the first, ${sheet.name}, was checked`,
    );
  }
  return {
    name,
    format: 'xlsx',
    fileType: 'csv',
    delimiter: ',',
    chunks: reading.chunks,
    sheet: reading,
  };
}
const noteSheets = new WeakMap<SheetReading, string>();

async function openGzip(
  name: string,
  compressed: AsyncIterable<Uint8Array>,
  platform: InputPlatform,
  choice: InputChoice,
): Promise<OpenedInput> {
  const inner = name.replace(/\.(gz|gzip)$/i, '');
  if (/\.tgz$/i.test(name) || (inner !== name && isArchiveName(inner))) {
    refuse(
      'nested_archive',
      `${name} holds another archive; archives inside archives are not read`,
    );
  }
  const data = gunzipGuarded(compressed, platform.gunzip, choice.limits ?? {}, name);
  const { first, rest } = await peek(data);
  if (sniffContainer(first) !== 'none') {
    refuse(
      'nested_archive',
      `${name} holds a zip, workbook or other archive; decompress it first (archives inside archives are not read)`,
    );
  }
  const decided = decide(inner, first, choice);
  return { name, format: formatOf(decided), ...decided, chunks: rest, compression: 'gzip' };
}

function dataEntries(zip: ZipArchive): ZipEntry[] {
  return zip.entries.filter((e) => {
    if (e.isDirectory) return false;
    const base = e.name.slice(e.name.lastIndexOf('/') + 1);
    return !e.name.startsWith('__MACOSX/') && !base.startsWith('.') && base !== 'Thumbs.db';
  });
}

function planZipEntries(
  name: string,
  zip: ZipArchive,
  platform: InputPlatform,
  choice: InputChoice,
): PlannedInput[] {
  const files = dataEntries(zip);
  const nested = files.find((e) => isArchiveName(e.name));
  if (nested) {
    refuse(
      'nested_archive',
      `${name} holds another archive (${nested.name}); archives inside archives are not read`,
    );
  }
  const encrypted = files.find((e) => e.encrypted);
  if (encrypted) {
    refuse(
      'encrypted',
      `${name}: ${encrypted.name} is encrypted (password-protected); zip it again without a password`,
    );
  }
  let chosen: ZipEntry[];
  if (choice.entry !== undefined) {
    const entry = zip.find(choice.entry);
    if (!entry || entry.isDirectory) {
      return refuse(
        'entry_not_found',
        `${name} has no entry ${JSON.stringify(choice.entry)}; its files are ${files.map((e) => e.name).join(', ') || 'none'}`,
      );
    }
    chosen = [entry];
  } else {
    chosen = files.filter((e) => DATA_ENTRY.test(e.name));
    if (chosen.length === 0) {
      return refuse(
        'no_data_entry',
        `${name} holds no CSV, JSON or Excel file${
          files.length
            ? ` (it has ${files
                .slice(0, 10)
                .map((e) => e.name)
                .join(', ')})`
            : ''
        }`,
      );
    }
  }
  return chosen.map((entry) => {
    const entryName = `${name}:${entry.name}`;
    return {
      name: entryName,
      open: () => openZipEntry(entryName, zip, entry, platform, choice),
    };
  });
}

async function openZipEntry(
  name: string,
  zip: ZipArchive,
  entry: ZipEntry,
  platform: InputPlatform,
  choice: InputChoice,
): Promise<OpenedInput> {
  if (/\.xls$/i.test(entry.name))
    refuse('xls', `${name} is an old binary Excel file (.xls): save it as .xlsx or CSV`);
  if (/\.xlsb$/i.test(entry.name))
    refuse('xlsb', `${name} is an Excel binary workbook (.xlsb): save it as .xlsx or CSV`);
  if (/\.xls[xm]$/i.test(entry.name)) {
    // A workbook needs random access; inside a zip it is inflated into memory first, capped.
    const max = Math.min(choice.limits?.maxBytes ?? Infinity, MAX_NESTED_WORKBOOK_BYTES);
    const bytes = await collectBytes(zip.open(entry, name), max, () =>
      refuse(
        'too_large',
        `${name} is larger than ${formatSize(max)}; workbooks inside a zip are read up to that size`,
      ),
    );
    const inner = await openZip(bytesSource(bytes), platform.inflateRaw, choice.limits, name);
    if (!isWorkbookZip(inner))
      refuse('nested_archive', `${name} is a zip inside a zip, which is not read`);
    const opened = await openWorkbookInput(name, inner, choice);
    return { ...opened, compression: 'zip' };
  }
  const { first, rest } = await peek(zip.open(entry, name));
  if (sniffContainer(first) !== 'none') {
    refuse(
      'nested_archive',
      `${name} is itself an archive or binary file; archives inside archives are not read`,
    );
  }
  const decided = decide(entry.name, first, choice);
  return { name, format: formatOf(decided), ...decided, chunks: rest, compression: 'zip' };
}

/** The first non-empty chunk, and the whole stream again (that chunk included). */
async function peek(
  chunks: AsyncIterable<Uint8Array>,
): Promise<{ first: Uint8Array; rest: AsyncIterable<Uint8Array> }> {
  const it = chunks[Symbol.asyncIterator]();
  let first: Uint8Array = new Uint8Array(0);
  let done = false;
  while (first.length === 0) {
    const next = await it.next();
    if (next.done) {
      done = true;
      break;
    }
    first = next.value;
  }
  const head = first;
  async function* rest(): AsyncIterable<Uint8Array> {
    if (head.length > 0) yield head;
    if (done) return;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { first, rest: rest() };
}

/** Wraps an issue sink so that every issue of a sheet carries its cell (`Sheet1!D14`). */
export function withCells(
  opened: OpenedInput,
  onIssue?: (issue: Issue) => void,
): (issue: Issue) => void {
  const sheet = opened.sheet;
  if (!sheet) return (issue) => onIssue?.(issue);
  return (issue) => {
    const cell = sheet.cellOf(issue);
    if (cell !== undefined) issue.cell = cell;
    onIssue?.(issue);
  };
}

/** Adds what only the container knows to a result: a workbook's damage warnings and sheet note. */
export function finishResult(opened: OpenedInput, result: ValidationResult): ValidationResult {
  if (!opened.sheet) return result;
  const note = noteSheets.get(opened.sheet);
  if (note) result.warnings.push({ code: 'excel_sheets', message: note });
  result.warnings.push(...opened.sheet.warnings());
  return result;
}
