// Proposes a web-form schema from the first rows of a file. The proposal is a starting point a
// person edits, so it errs towards rules that the sample clearly supports and that stay true for
// the rest of the file: types, required, non-negative numbers, decimal places, date layouts,
// small sets of repeated values, unique ids. It never proposes text lengths or observed maxima.
import { type FieldType, type FileType, LosslessNumber } from '../model.ts';
import { DEFAULT_FALSY, DEFAULT_TRUTHY } from '../rules/boolean-spellings.ts';
import { compileDateFormat, ISO_DATE_TIME_FORMAT } from '../rules/date-format.ts';
import type { WebField, WebFieldValidation, WebSchema } from '../schema/web-types.ts';
import {
  looksLikeDecimal,
  looksLikeEmail,
  looksLikeInteger,
  looksLikeUrl,
  writtenDecimals,
} from './looks-like.ts';

export type InferSample = { headers: string[]; rows: (string | null)[][] } | { records: unknown[] };

export interface InferOptions {
  /** The proposed schema's name. Default "Inferred schema". */
  name?: string;
}

/** At most this many distinct values make a column an enum... */
export const ENUM_MAX_VALUES = 10;
/** ...when the column has at least this many values, each distinct value used twice on average. */
export const ENUM_MIN_ROWS = 10;
const ENUM_MAX_VALUE_LENGTH = 50;
/** Nested JSON objects deeper than this are not walked. */
const MAX_DEPTH = 8;

/** Tried in this order; DD/MM before MM/DD because a day above 12 is what tells them apart. */
const DATE_FORMATS = [
  'YYYY-MM-DD',
  'DD/MM/YYYY',
  'MM/DD/YYYY',
  'YYYY-MM-DD HH:mm:ss',
  'YYYY-MM-DDTHH:mm:ss',
  ISO_DATE_TIME_FORMAT,
];

/** customer_id, order id, SKU, userId: names of columns meant to identify a row. */
const ID_NAME = /(?:^|[_\s.-])(?:id|uuid|guid|sku|key)$/i;
const CAMEL_ID_NAME = /[a-z](?:Id|ID|Uuid|UUID|Sku|SKU|Key)$/;

/** One column's values: text as written, or the JSON scalar; null when absent or empty. */
type Cell = string | number | boolean | LosslessNumber | null;

interface Column {
  name: string;
  cells: Cell[];
  /** Seen as a JSON array or object without properties: cannot be typed. */
  unusable: boolean;
}

export function inferSchema(sample: InferSample, options: InferOptions = {}): WebSchema {
  const fileType: FileType = 'records' in sample ? 'json' : 'csv';
  const columns =
    'records' in sample ? jsonColumns(sample.records) : csvColumns(sample.headers, sample.rows);
  return {
    name: options.name ?? 'Inferred schema',
    fileType,
    fields: columns.filter((c) => !c.unusable).map((c) => inferField(c, fileType)),
    orderMatters: false,
    additionalColumns: true,
    additionalProperties: true,
  };
}

/** Blank and repeated headers are left out: a schema cannot name them apart. */
function csvColumns(headers: string[], rows: (string | null)[][]): Column[] {
  const seen = new Set<string>();
  const columns: Column[] = [];
  headers.forEach((name, index) => {
    if (name.trim() === '' || seen.has(name)) return;
    seen.add(name);
    columns.push({ name, unusable: false, cells: rows.map((row) => row[index] ?? null) });
  });
  return columns;
}

/** Nested objects become dotted names; a record without a property gives that column null. */
function jsonColumns(records: unknown[]): Column[] {
  const columns = new Map<string, Column>();
  const objects = records.filter(isPlainObject);
  objects.forEach((record, row) => {
    const visit = (obj: Record<string, unknown>, prefix: string, depth: number) => {
      for (const key of Object.keys(obj)) {
        const name = prefix + key;
        const value = obj[key];
        if (isPlainObject(value) && depth < MAX_DEPTH && Object.keys(value).length > 0) {
          visit(value, `${name}.`, depth + 1);
          continue;
        }
        let column = columns.get(name);
        if (column === undefined) {
          column = { name, unusable: false, cells: new Array<Cell>(objects.length).fill(null) };
          columns.set(name, column);
        }
        if (isScalar(value)) column.cells[row] = value;
        else if (value !== null && value !== undefined) column.unusable = true;
      }
    };
    visit(record, '', 0);
  });
  return [...columns.values()];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof LosslessNumber)
  );
}

function isScalar(value: unknown): value is Cell {
  return (
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    value instanceof LosslessNumber
  );
}

function inferField(column: Column, fileType: FileType): WebField {
  const present = column.cells.filter((c): c is Exclude<Cell, null> => c !== null && c !== '');
  const required = present.length > 0 && present.length === column.cells.length;
  const field: WebField = { name: column.name, type: 'string', required, validation: {} };
  if (present.length === 0) return field;
  const proposal = propose(present, fileType);
  field.type = proposal.type;
  field.validation = proposal.validation;
  const texts = present.map(cellText);
  if (
    (ID_NAME.test(column.name) || CAMEL_ID_NAME.test(column.name)) &&
    present.length >= 2 &&
    new Set(texts).size === texts.length &&
    field.type !== 'boolean'
  ) {
    field.validation.unique = true;
  }
  return field;
}

interface Proposal {
  type: FieldType;
  validation: WebFieldValidation;
}

function propose(present: Exclude<Cell, null>[], fileType: FileType): Proposal {
  if (present.every((c) => typeof c === 'boolean')) return { type: 'boolean', validation: {} };
  if (present.every((c) => typeof c === 'number' || c instanceof LosslessNumber)) {
    return numeric(present.map(cellText));
  }
  if (!present.every((c) => typeof c === 'string')) return { type: 'string', validation: {} };
  const texts = present as string[];
  // A JSON file says which values are numbers and booleans; its text stays text.
  if (fileType === 'csv') {
    if (texts.every(looksLikeDecimal)) return numeric(texts);
    if (texts.every(isBooleanWord)) return { type: 'boolean', validation: {} };
  }
  const format = dateFormatOf(texts);
  if (format !== undefined) return { type: 'date', validation: { format } };
  if (texts.every(looksLikeEmail)) return { type: 'email', validation: {} };
  if (texts.every(looksLikeUrl)) return { type: 'url', validation: {} };
  const distinct = [...new Set(texts)];
  if (
    texts.length >= ENUM_MIN_ROWS &&
    distinct.length <= ENUM_MAX_VALUES &&
    distinct.length * 2 <= texts.length &&
    distinct.every((v) => v.length <= ENUM_MAX_VALUE_LENGTH)
  ) {
    return { type: 'enum', validation: { values: distinct.sort() } };
  }
  return { type: 'string', validation: {} };
}

function cellText(cell: Exclude<Cell, null>): string {
  if (cell instanceof LosslessNumber) return cell.raw;
  return String(cell);
}

/** integer when every value is a whole number as written; minValue 0 when none is negative. */
function numeric(texts: string[]): Proposal {
  const validation: WebFieldValidation = {};
  const nonNegative = texts.every((t) => !t.startsWith('-'));
  if (texts.every(looksLikeInteger)) {
    if (nonNegative) validation.minValue = 0;
    return { type: 'integer', validation };
  }
  if (nonNegative) validation.minValue = 0;
  const places = texts.map(writtenDecimals);
  if (places.every((p) => p !== undefined)) {
    const most = Math.max(...(places as number[]));
    if (most > 0) validation.precision = most;
  }
  return { type: 'number', validation };
}

const BOOLEAN_WORDS = new Set([...DEFAULT_TRUTHY, ...DEFAULT_FALSY]);

function isBooleanWord(text: string): boolean {
  return BOOLEAN_WORDS.has(text.toLowerCase());
}

function dateFormatOf(texts: string[]): string | undefined {
  for (const format of DATE_FORMATS) {
    const compiled = compileDateFormat(format);
    if (compiled.ok && texts.every((t) => compiled.dateFormat.parse(t) !== null)) return format;
  }
  return undefined;
}
