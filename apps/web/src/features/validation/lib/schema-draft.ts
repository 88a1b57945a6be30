import {
  type FileType,
  DEFAULT_FALSY,
  DEFAULT_TRUTHY,
  type FieldType,
  type SchemaProblem,
  type WebField,
  type WebFieldValidation,
  type WebSchema,
} from '@schemacheck/engine';

import { fromWebRule, toWebRule, type RuleDraft } from './rules-draft';

// The schema builder's form values and their conversion to and from the engine's web form
// (docs/product.md#the-validation-workspace). Every input is kept as the text the user typed;
// an empty input means "unset" and is left out of the schema.

export interface FieldDraft {
  name: string;
  type: FieldType;
  required: boolean;
  unique: boolean;
  minLength: string;
  maxLength: string;
  pattern: string;
  allowedChars: string;
  minValue: string;
  maxValue: string;
  precision: string;
  truthy: string;
  falsy: string;
  format: string;
  minDate: string;
  maxDate: string;
  allowFuture: boolean;
  allowPast: boolean;
  /** One allowed value per line. */
  values: string;
  /** The name of a reference list (Profile → Lists) the value must be in. */
  inList: string;
  /** 'warning': this field's failures never make the file invalid. */
  severity: 'error' | 'warning';
  /** A message template ({field}, {value}, {other}) replacing the engine's. */
  message: string;
}

export interface SchemaDraft {
  name: string;
  fileType: FileType;
  fields: FieldDraft[];
  orderMatters: boolean;
  additionalColumns: boolean;
  additionalProperties: boolean;
  /** Cross-field rules (rules-draft.ts). */
  rules: RuleDraft[];
}

/** A new field: empty name, type string, not required, no rules (docs/product.md#the-validation-workspace). */
export function emptyField(): FieldDraft {
  return {
    name: '',
    type: 'string',
    required: false,
    unique: false,
    minLength: '',
    maxLength: '',
    pattern: '',
    allowedChars: '',
    minValue: '',
    maxValue: '',
    precision: '',
    truthy: DEFAULT_TRUTHY.join(', '),
    falsy: DEFAULT_FALSY.join(', '),
    format: '',
    minDate: '',
    maxDate: '',
    allowFuture: true,
    allowPast: true,
    values: '',
    inList: '',
    severity: 'error',
    message: '',
  };
}

export function emptySchema(fileType: FileType = 'csv'): SchemaDraft {
  return {
    name: '',
    fileType,
    fields: [],
    orderMatters: false,
    additionalColumns: true,
    additionalProperties: true,
    rules: [],
  };
}

/** Which rule inputs a type offers (docs/product.md#the-validation-workspace; allowed values and unique on every type). */
export function rulesFor(type: FieldType) {
  return {
    length: type === 'string',
    pattern: type === 'string',
    range: type === 'integer' || type === 'number',
    precision: type === 'number',
    booleanLists: type === 'boolean',
    date: type === 'date',
  };
}

const list = (text: string, separator: RegExp) =>
  text
    .split(separator)
    .map((v) => v.trim())
    .filter((v) => v !== '');

/** Numbers stay text when they are not plain numbers, so the engine names the problem. */
function numberInput(text: string): number | string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) && String(n) === t ? n : t;
}

export function toWebField(draft: FieldDraft): WebField {
  const rules = rulesFor(draft.type);
  const v: WebFieldValidation = {};
  const set = <K extends keyof WebFieldValidation>(
    key: K,
    value: WebFieldValidation[K] | undefined,
  ) => {
    if (value !== undefined && value !== '') v[key] = value;
  };
  if (rules.length) {
    set('minLength', numberInput(draft.minLength));
    set('maxLength', numberInput(draft.maxLength));
  }
  if (rules.pattern) {
    set('pattern', draft.pattern);
    set('allowedChars', draft.allowedChars);
  }
  if (rules.range) {
    set('minValue', numberInput(draft.minValue));
    set('maxValue', numberInput(draft.maxValue));
  }
  if (rules.precision) set('precision', numberInput(draft.precision));
  if (rules.booleanLists) {
    const truthy = list(draft.truthy, /,/);
    const falsy = list(draft.falsy, /,/);
    if (truthy.length > 0) v.truthy = truthy;
    if (falsy.length > 0) v.falsy = falsy;
  }
  if (rules.date) {
    set('format', draft.format.trim());
    set('minDate', draft.minDate);
    set('maxDate', draft.maxDate);
    if (!draft.allowFuture) v.allowFuture = false;
    if (!draft.allowPast) v.allowPast = false;
  }
  const values = list(draft.values, /\r?\n/);
  if (values.length > 0 || draft.type === 'enum') v.values = values;
  if (draft.unique) v.unique = true;
  if (draft.inList.trim() !== '') v.inList = draft.inList.trim();
  if (draft.severity === 'warning') v.severity = 'warning';
  if (draft.message.trim() !== '') v.message = draft.message;
  return { name: draft.name, type: draft.type, required: draft.required, validation: v };
}

export function toWebSchema(draft: SchemaDraft): WebSchema {
  const schema: WebSchema = {
    name: draft.name.trim() || 'Untitled schema',
    fileType: draft.fileType,
    fields: draft.fields.map(toWebField),
  };
  if (draft.fileType === 'csv') {
    schema.orderMatters = draft.orderMatters;
    schema.additionalColumns = draft.additionalColumns;
  } else {
    schema.additionalProperties = draft.additionalProperties;
  }
  if (draft.rules.length > 0) schema.rules = draft.rules.map(toWebRule);
  return schema;
}

const text = (value: unknown) =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : String(value);

export function fromWebField(field: WebField): FieldDraft {
  const v = field.validation ?? {};
  return {
    ...emptyField(),
    name: field.name,
    type: field.type,
    required: Boolean(field.required),
    unique: Boolean(v.unique),
    minLength: text(v.minLength),
    maxLength: text(v.maxLength),
    pattern: text(v.pattern),
    allowedChars: text(v.allowedChars),
    minValue: text(v.minValue),
    maxValue: text(v.maxValue),
    precision: text(v.precision),
    truthy: (v.truthy ?? DEFAULT_TRUTHY).join(', '),
    falsy: (v.falsy ?? DEFAULT_FALSY).join(', '),
    format: text(v.format),
    minDate: text(v.minDate),
    maxDate: text(v.maxDate),
    allowFuture: v.allowFuture !== false,
    allowPast: v.allowPast !== false,
    values: (v.values ?? []).join('\n'),
    inList: text(v.inList),
    severity: v.severity === 'warning' ? 'warning' : 'error',
    message: text(v.message),
  };
}

export function fromWebSchema(schema: WebSchema, fallbackType: FileType = 'csv'): SchemaDraft {
  return {
    name: schema.name ?? '',
    fileType: schema.fileType ?? fallbackType,
    fields: schema.fields.map(fromWebField),
    orderMatters: schema.orderMatters ?? false,
    additionalColumns: schema.additionalColumns ?? true,
    additionalProperties: schema.additionalProperties ?? true,
    rules: (schema.rules ?? []).map(fromWebRule),
  };
}

/**
 * Problems as the builder shows them: by field index and input (`fields[2].validation.pattern`
 * → field 2, "pattern"); anything else belongs to the schema as a whole.
 */
export interface ProblemMap {
  schema: string[];
  fields: Record<number, Record<string, string[]>>;
}

export function mapProblems(problems: readonly SchemaProblem[]): ProblemMap {
  const map: ProblemMap = { schema: [], fields: {} };
  for (const problem of problems) {
    const match = /^fields\[(\d+)\](?:\.validation)?(?:\.([A-Za-z]+))?/.exec(problem.path);
    if (!match) {
      map.schema.push(problem.path ? `${problem.path}: ${problem.message}` : problem.message);
      continue;
    }
    const index = Number(match[1]);
    const key = match[2] ?? 'field';
    const field = (map.fields[index] ??= {});
    (field[key] ??= []).push(problem.message);
  }
  return map;
}
