// Proposes a web-form schema from the first rows of a file. The proposal is a starting point a
// person edits, so it errs towards rules that the sample clearly supports and that stay true for
// the rest of the file: types, required, non-negative numbers, decimal places, date layouts,
// small sets of repeated values, unique ids. It never proposes text lengths or observed maxima.
// Cross-field rules are never put in the schema: the ones the sample supports are listed apart, as
// suggestions a person adds or not (docs/decisions/226).
import { type CrossFieldRule, type FieldType, type FileType, LosslessNumber } from '../model.ts';
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

/**
 * The first rows of a file. `rowNumbers` gives each row's (or record's) number as validation
 * reports it; without it, CSV rows count from 2 (the header is row 1) and JSON records from 1.
 */
export type InferSample =
  | { headers: string[]; rows: (string | null)[][]; rowNumbers?: number[] }
  | { records: unknown[]; rowNumbers?: number[] };

export interface InferOptions {
  /** The proposed schema's name. Default "Inferred schema". */
  name?: string;
}

/** A sample value that does not fit the type proposed for its field: validating reports it. */
export interface InferMisfit {
  row: number;
  value: string;
}

/** The values of one field that did not fit its proposed type (the first MISFITS_LISTED). */
export interface InferFieldMisfits {
  field: string;
  type: FieldType;
  /** How many sample values did not fit; `misfits` lists the first of them. */
  count: number;
  misfits: InferMisfit[];
}

/** How the sample values of one field fit the type proposed for it (the CLI prints these). */
export interface InferFieldFit {
  field: string;
  type: FieldType;
  /** Sample values present (empty cells and missing properties are not counted). */
  values: number;
  /** Of those, how many fit the type. */
  fitting: number;
}

/** A cross-field rule the sample supports, with why; listed, never added to the schema. */
export interface InferRuleSuggestion {
  rule: CrossFieldRule;
  reason: string;
}

/** A column the proposal has no field for, and why (the CLI and the web say so). */
export interface InferSkipped {
  /** CSV: the column's header as written; JSON: the property's dotted name. */
  column: string;
  /** CSV: the column's position, from 1. */
  position?: number;
  reason: 'blank-header' | 'repeated-header' | 'not-a-scalar';
}

/** Why a column is left out, in a sentence (the CLI's report and the web's schema card). */
export function describeSkipped(s: InferSkipped): string {
  switch (s.reason) {
    case 'blank-header':
      return `Column ${s.position ?? '?'} has no name in the header`;
    case 'repeated-header':
      return `Column ${s.position ?? '?'} repeats the name ${JSON.stringify(s.column)}`;
    case 'not-a-scalar':
      return `${s.column} holds lists or objects, which cannot be typed (any value is accepted)`;
  }
}

/** A proposed schema, and for each field typed by most (not all) of its values, the others. */
export interface InferProposal {
  /** Columns left out of the schema, in file order. */
  skipped: InferSkipped[];
  schema: WebSchema;
  misfits: InferFieldMisfits[];
  /** Every proposed field, in the schema's order. */
  fit: InferFieldFit[];
  /** Rules for a person to consider; `schema.rules` is never set by inference. */
  suggestedRules: InferRuleSuggestion[];
}

/** At most this many distinct values make a column an enum... */
export const ENUM_MAX_VALUES = 10;
/** ...when the column has at least this many values, each distinct value used twice on average. */
export const ENUM_MIN_ROWS = 10;
const ENUM_MAX_VALUE_LENGTH = 50;
/** Nested JSON objects deeper than this are not walked. */
const MAX_DEPTH = 8;
/** Misfits listed per field; the count covers them all. */
export const MISFITS_LISTED = 20;
/**
 * A composite key is suggested only from a sample of at least this many rows: in fewer, many
 * pairs of columns are unique by chance.
 */
const KEY_MIN_ROWS = 10;
/** Composite keys suggested at most; pairs are tried among the first KEY_MAX_COLUMNS columns. */
const KEYS_SUGGESTED = 3;
const KEY_MAX_COLUMNS = 40;

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
type Value = Exclude<Cell, null>;

interface Column {
  name: string;
  cells: Cell[];
  /** Each cell's row number. */
  rows: number[];
  /** Why the column has no field: a blank or repeated header, JSON arrays or objects. */
  skipped?: InferSkipped;
}

export function inferSchema(sample: InferSample, options: InferOptions = {}): WebSchema {
  return inferProposal(sample, options).schema;
}

/**
 * The schema inferSchema proposes, with the values that do not fit it. A field takes the type
 * that most of its values have (more than half), so that one stray `x4` among integers becomes
 * an error to fix rather than turning the column into text; those values are listed so that the
 * person can see them before validating reports them.
 */
export function inferProposal(sample: InferSample, options: InferOptions = {}): InferProposal {
  const fileType: FileType = 'records' in sample ? 'json' : 'csv';
  const columns =
    'records' in sample
      ? jsonColumns(sample.records, sample.rowNumbers)
      : csvColumns(sample.headers, sample.rows, sample.rowNumbers);
  const fields: WebField[] = [];
  const misfits: InferFieldMisfits[] = [];
  const fit: InferFieldFit[] = [];
  const usable = columns.filter((c) => c.skipped === undefined);
  for (const column of usable) {
    const { field, misfit, values } = inferField(column, fileType);
    fields.push(field);
    fit.push({ field: field.name, type: field.type, values, fitting: values - misfit.length });
    if (misfit.length > 0) {
      misfits.push({
        field: field.name,
        type: field.type,
        count: misfit.length,
        misfits: misfit.slice(0, MISFITS_LISTED),
      });
    }
  }
  return {
    schema: {
      name: options.name ?? 'Inferred schema',
      fileType,
      fields,
      orderMatters: false,
      additionalColumns: true,
      additionalProperties: true,
    },
    misfits,
    fit,
    skipped: columns.flatMap((c) => (c.skipped === undefined ? [] : [c.skipped])),
    suggestedRules: compositeKeys(usable),
  };
}

/**
 * `uniqueTogether` for a pair of columns whose combination is unique in the sample, only when no
 * single column is (one unique column already identifies a row). Columns with an empty cell are
 * left out: a key is always filled in. Pairs with an id-like column come first, then by column order.
 */
function compositeKeys(columns: Column[]): InferRuleSuggestion[] {
  const rows = columns[0]?.cells.length ?? 0;
  if (rows < KEY_MIN_ROWS) return [];
  const filled = columns.filter((c) => c.cells.every((cell) => cell !== null && cell !== ''));
  const texts = filled.map((c) => c.cells.map((cell) => cellText(cell as Value)));
  if (texts.some((t) => new Set(t).size === rows)) return [];
  const keyish = (c: Column) => ID_NAME.test(c.name) || CAMEL_ID_NAME.test(c.name);
  const found: { names: [string, string]; idLike: boolean }[] = [];
  const limit = Math.min(filled.length, KEY_MAX_COLUMNS);
  for (let i = 0; i < limit; i++) {
    for (let j = i + 1; j < limit; j++) {
      if (!uniquePairs(texts[i]!, texts[j]!)) continue;
      const [a, b] = [filled[i]!, filled[j]!];
      found.push({ names: [a.name, b.name], idLike: keyish(a) || keyish(b) });
    }
  }
  // sort is stable: within each group, column order stays.
  return found
    .sort((x, y) => Number(y.idLike) - Number(x.idLike))
    .slice(0, KEYS_SUGGESTED)
    .map(({ names }) => ({
      rule: { kind: 'uniqueTogether', fields: [...names] },
      reason: `No column alone is unique in the ${rows} sample rows, but ${names[0]} and ${names[1]} together are: a composite key?`,
    }));
}

function uniquePairs(left: string[], right: string[]): boolean {
  const seen = new Set<string>();
  for (let r = 0; r < left.length; r++) {
    // JSON.stringify keeps the pair apart whatever the cells hold ("a,b"+"c" vs "a"+"b,c").
    const key = JSON.stringify([left[r], right[r]]);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

/** Blank and repeated headers are left out: a schema cannot name them apart. */
function csvColumns(
  headers: string[],
  rows: (string | null)[][],
  rowNumbers: number[] | undefined,
): Column[] {
  const seen = new Set<string>();
  const columns: Column[] = [];
  const numbers = rows.map((_, i) => rowNumbers?.[i] ?? i + 2);
  headers.forEach((name, index) => {
    const reason =
      name.trim() === '' ? 'blank-header' : seen.has(name) ? 'repeated-header' : undefined;
    seen.add(name);
    columns.push({
      name,
      cells: reason === undefined ? rows.map((row) => row[index] ?? null) : [],
      rows: numbers,
      ...(reason === undefined ? {} : { skipped: { column: name, position: index + 1, reason } }),
    });
  });
  return columns;
}

/** Nested objects become dotted names; a record without a property gives that column null. */
function jsonColumns(records: unknown[], rowNumbers: number[] | undefined): Column[] {
  const columns = new Map<string, Column>();
  const numbered = records.map((record, i) => ({ record, row: rowNumbers?.[i] ?? i + 1 }));
  const objects = numbered.filter((r): r is { record: Record<string, unknown>; row: number } =>
    isPlainObject(r.record),
  );
  const numbers = objects.map((o) => o.row);
  objects.forEach(({ record }, row) => {
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
          column = {
            name,
            cells: new Array<Cell>(objects.length).fill(null),
            rows: numbers,
          };
          columns.set(name, column);
        }
        if (isScalar(value)) column.cells[row] = value;
        else if (value !== null && value !== undefined)
          column.skipped = { column: name, reason: 'not-a-scalar' };
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

function inferField(
  column: Column,
  fileType: FileType,
): { field: WebField; misfit: InferMisfit[]; values: number } {
  const present: { value: Value; row: number }[] = [];
  column.cells.forEach((c, i) => {
    if (c !== null && c !== '') present.push({ value: c, row: column.rows[i] as number });
  });
  const required = present.length > 0 && present.length === column.cells.length;
  const field: WebField = { name: column.name, type: 'string', required, validation: {} };
  if (present.length === 0) return { field, misfit: [], values: 0 };
  const { proposal, fits } = propose(
    present.map((p) => p.value),
    fileType,
  );
  field.type = proposal.type;
  field.validation = proposal.validation;
  const texts = present.map((p) => cellText(p.value));
  if (
    (ID_NAME.test(column.name) || CAMEL_ID_NAME.test(column.name)) &&
    present.length >= 2 &&
    new Set(texts).size === texts.length &&
    field.type !== 'boolean'
  ) {
    field.validation.unique = true;
  }
  const misfit = fits
    ? present.filter((p) => !fits(p.value)).map((p) => ({ row: p.row, value: cellText(p.value) }))
    : [];
  return { field, misfit, values: present.length };
}

interface Proposal {
  type: FieldType;
  validation: WebFieldValidation;
}

/** A type a field may take: which values fit it, and the rules it proposes from those values. */
interface Candidate {
  fits: (value: Value) => boolean;
  proposal: (fitting: Value[]) => Proposal;
}

const isNumber = (v: Value) => typeof v === 'number' || v instanceof LosslessNumber;

/** In order of preference: on a tie, the earlier wins (0 and 1 are numbers before booleans). */
function candidates(fileType: FileType): Candidate[] {
  // A JSON file says which values are numbers and booleans; its text stays text.
  const list: Candidate[] =
    fileType === 'csv'
      ? [
          {
            fits: (v) => typeof v === 'string' && looksLikeDecimal(v),
            proposal: (f) => numeric(f.map(cellText)),
          },
          {
            fits: (v) => typeof v === 'string' && isBooleanWord(v),
            proposal: (f) => booleanSpellings(f as string[]),
          },
        ]
      : [
          { fits: isNumber, proposal: (f) => numeric(f.map(cellText)) },
          {
            fits: (v) => typeof v === 'boolean',
            proposal: () => ({ type: 'boolean', validation: {} }),
          },
        ];
  for (const format of DATE_FORMATS) {
    const compiled = compileDateFormat(format);
    if (!compiled.ok) continue;
    const parse = compiled.dateFormat.parse;
    list.push({
      fits: (v) => typeof v === 'string' && parse(v) !== null,
      proposal: () => ({ type: 'date', validation: { format } }),
    });
  }
  list.push(
    {
      fits: (v) => typeof v === 'string' && looksLikeEmail(v),
      proposal: () => ({ type: 'email', validation: {} }),
    },
    {
      fits: (v) => typeof v === 'string' && looksLikeUrl(v),
      proposal: () => ({ type: 'url', validation: {} }),
    },
  );
  return list;
}

/**
 * The candidate that the most values fit, when more than half do; otherwise text (or an enum of
 * a few repeated values). `fits` is undefined when every value fits what is proposed.
 */
function propose(
  present: Value[],
  fileType: FileType,
): { proposal: Proposal; fits?: (value: Value) => boolean } {
  let best: Candidate | undefined;
  let bestCount = 0;
  const code = digitCode(present);
  for (const candidate of code === undefined
    ? candidates(fileType)
    : [code, ...candidates(fileType)]) {
    let count = 0;
    for (const value of present) if (candidate.fits(value)) count++;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
    if (count === present.length) break;
  }
  if (best !== undefined && bestCount * 2 > present.length) {
    const fitting = present.filter(best.fits);
    return {
      proposal: best.proposal(fitting),
      ...(bestCount < present.length ? { fits: best.fits } : {}),
    };
  }
  if (!present.every((c) => typeof c === 'string')) {
    return { proposal: { type: 'string', validation: {} } };
  }
  const texts = present as string[];
  const distinct = [...new Set(texts)];
  if (
    texts.length >= ENUM_MIN_ROWS &&
    distinct.length <= ENUM_MAX_VALUES &&
    distinct.length * 2 <= texts.length &&
    distinct.every((v) => v.length <= ENUM_MAX_VALUE_LENGTH)
  ) {
    return { proposal: { type: 'enum', validation: { values: distinct.sort() } } };
  }
  return { proposal: { type: 'string', validation: {} } };
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

/** Y/N and T/F read as booleans too; the field then lists its spellings (the defaults lack them). */
const LETTERS: Record<string, { truthy: string; falsy: string }> = {
  y: { truthy: 'Y', falsy: 'N' },
  n: { truthy: 'Y', falsy: 'N' },
  t: { truthy: 'T', falsy: 'F' },
  f: { truthy: 'T', falsy: 'F' },
};
const BOOLEAN_WORDS = new Set([...DEFAULT_TRUTHY, ...DEFAULT_FALSY, ...Object.keys(LETTERS)]);

function isBooleanWord(text: string): boolean {
  return BOOLEAN_WORDS.has(text.toLowerCase());
}

/**
 * A boolean field; when the sample writes Y/N or T/F, truthy and falsy list the spellings seen
 * (with each letter's partner), since the default spellings do not read them.
 */
function booleanSpellings(texts: string[]): Proposal {
  const lower = [...new Set(texts.map((t) => t.toLowerCase()))];
  if (!lower.some((t) => t in LETTERS)) return { type: 'boolean', validation: {} };
  const truthy = new Set<string>();
  const falsy = new Set<string>();
  for (const t of lower) {
    const pair = LETTERS[t];
    if (pair !== undefined) {
      truthy.add(pair.truthy);
      falsy.add(pair.falsy);
    } else if (DEFAULT_TRUTHY.includes(t)) truthy.add(t);
    else falsy.add(t);
  }
  return { type: 'boolean', validation: { truthy: [...truthy], falsy: [...falsy] } };
}

/**
 * Codes written with leading zeros (zip 01234, account 0042) stay text, or the zeros would be lost:
 * a candidate for text of digits, of one width when nine in ten codes have it. Undefined when no
 * value has a leading zero.
 */
function digitCode(present: Value[]): Candidate | undefined {
  const digits = present.filter((v): v is string => typeof v === 'string' && /^[0-9]+$/.test(v));
  if (!digits.some((v) => v.length > 1 && v.startsWith('0'))) return undefined;
  const widths = new Map<number, number>();
  for (const v of digits) widths.set(v.length, (widths.get(v.length) ?? 0) + 1);
  const [width, count] = [...widths].reduce((a, b) => (b[1] > a[1] ? b : a));
  // One width for nearly all (a stray short code is a misfit to fix, not a second width).
  const fixed = count >= digits.length * 0.9;
  const pattern = fixed ? `^[0-9]{${width}}$` : '^[0-9]+$';
  return {
    fits: (v) => typeof v === 'string' && /^[0-9]+$/.test(v) && (!fixed || v.length === width),
    proposal: () => ({ type: 'string', validation: { pattern } }),
  };
}
