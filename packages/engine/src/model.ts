// The engine's one schema model and its result shapes. Every schema form (web, public API,
// JSON Schema, Table Schema) normalises into SchemaModel; every reader and check reports Issues.

export const FIELD_TYPES = [
  'string',
  'integer',
  'number',
  'boolean',
  'date',
  'email',
  'url',
  'enum',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export type FileType = 'csv' | 'json';

export type JsonScalarType = 'string' | 'integer' | 'number' | 'boolean';

/** Rules of one field. Absent means unset. Numbers compare inclusively. */
export interface FieldRules {
  minLength?: number;
  maxLength?: number;
  /** Regular expression source with RE2 semantics (see rules/safe-regex.ts). */
  pattern?: string;
  /** Every character of the value must be one of these characters. */
  allowedChars?: string;
  /** Decimal text (kept as text so integers beyond 2^53 compare exactly). */
  minValue?: string;
  maxValue?: string;
  /** Exclusive bounds, only reachable from JSON Schema. Decimal text. */
  exclusiveMinimum?: string;
  exclusiveMaximum?: string;
  /** At most this many decimal places. */
  precision?: number;
  /** Boolean spellings, compared case-insensitively. */
  truthy?: string[];
  falsy?: string[];
  /** Date format built from tokens YYYY MM DD HH mm ss; default YYYY-MM-DD. */
  format?: string;
  /** ISO dates YYYY-MM-DD, inclusive. */
  minDate?: string;
  maxDate?: string;
  allowFuture?: boolean;
  allowPast?: boolean;
  /** Allowed values, on any type (required for enum). Compared as the field reads values: as
   * written for text, by value for integer and number, by reading for boolean. */
  values?: string[];
  unique?: boolean;
  /**
   * The value must be in the reference list of this name, passed to the validator
   * (ValidateOptions.lists). A name the validator was not given is a validation-time warning.
   */
  inList?: string;
  /** 'warning': this field's failures are warnings, not errors (listed and counted apart). */
  severity?: 'warning';
  /** Replaces this field's messages: a template with {field}, {value} and {other}. */
  message?: string;
}

export interface FieldSpec {
  /** Column header (CSV) or property name; dotted names reach nested JSON objects (see `path`). */
  name: string;
  type: FieldType;
  required: boolean;
  rules: FieldRules;
  /**
   * JSON: any value is accepted and only presence is checked (a JSON Schema property `{}`, an
   * array or null only: what the engine cannot check further is declared, not unexpected).
   */
  anyValue?: boolean;
  /**
   * JSON: the property names from the record to the value, when the dotted name cannot say it (a
   * JSON Schema property whose own name has a dot: `a.b` is `["a.b"]`, not `["a", "b"]`).
   */
  path?: string[];
  /**
   * JSON: the value may be any of these JSON types (a JSON Schema `type` list such as
   * `["string", "integer"]`); the field's type is then string and its text rules apply to text
   * values only. A CSV cell is text and is checked as text.
   */
  jsonTypes?: JsonScalarType[];
  /**
   * JSON: `required` applies once the first this-many property names of the field's path are
   * present (an object): JSON Schema's `required` inside an optional object binds whenever that
   * object is there, and not when it is absent. Unset (0): always. A CSV cell has no enclosing
   * object, so there such a field is not required.
   */
  requiredWithin?: number;
}

/** JSON: a nested object the schema describes, where it says more than its fields do. */
export interface ObjectSpec {
  /** Property names from the record to the object. */
  path: string[];
  /** The object must be present, also when none of its own properties is required. */
  required?: boolean;
  /** As FieldSpec.requiredWithin, for `required`. */
  requiredWithin?: number;
  /** Properties it does not describe are allowed; unset: the schema's `additionalProperties`. */
  additionalProperties?: boolean;
}

export interface SchemaModel {
  name: string;
  /** The file type the schema was written for; undefined when the form does not say. */
  fileType?: FileType;
  fields: FieldSpec[];
  /** CSV: headers must appear in the schema's order. Default false. */
  orderMatters: boolean;
  /** CSV: columns not in the schema are allowed. Default true. */
  additionalColumns: boolean;
  /** JSON: properties not in the schema are allowed. Default true. */
  additionalProperties: boolean;
  /** JSON: nested objects that are required themselves or set their own additionalProperties. */
  objects?: ObjectSpec[];
  /**
   * What the schema says that the engine does not check (an unsupported keyword, say), from the
   * schema parser. The validator repeats each as a 'schema' warning in every result, so no rule is
   * dropped without the user being told, whichever caller runs the validation.
   */
  warnings?: string[];
  /** Rules across the fields of one row or record (docs/engine.md, "Cross-field rules"). */
  rules?: CrossFieldRule[];
  /**
   * CSV: cells written as one of these also mean "no value" (Table Schema's missingValues, such
   * as `NA`), like an empty cell: `required` when the field is required, otherwise skipped.
   */
  missingValues?: string[];
}

/** Operators of a rule's condition (`when`). */
export const CONDITION_OPS = [
  '=',
  '!=',
  'in',
  'notIn',
  'isEmpty',
  'isNotEmpty',
  '>',
  '>=',
  '<',
  '<=',
] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];
export const COMPARE_OPS = ['=', '!=', '>', '>=', '<', '<='] as const;
export type CompareOp = (typeof COMPARE_OPS)[number];

/**
 * `field op value`: `value` is a list for `in`/`notIn`, absent for `isEmpty`/`isNotEmpty`, and
 * text otherwise (numbers kept as decimal text). Compared as the field reads values.
 */
export interface RuleCondition {
  field: string;
  op: ConditionOp;
  value?: string | string[];
}

interface RuleOptions {
  /** 'warning': a failure is a warning, not an error. */
  severity?: 'warning';
  /** Replaces the message: a template with {field}, {value} and {other}. */
  message?: string;
}

/** One cross-field rule: JSON data, compiled by the engine (no expression is ever evaluated). */
export type CrossFieldRule = RuleOptions &
  (
    | { kind: 'requiredWhen'; field: string; when: RuleCondition }
    | { kind: 'emptyWhen'; field: string; when: RuleCondition }
    | { kind: 'requireOneOf'; fields: string[]; min?: number; max?: number }
    /** Against another field (`right`) or a constant (`value`). */
    | { kind: 'compare'; left: string; op: CompareOp; right?: string; value?: string }
    | { kind: 'allowedValuesWhen'; field: string; when: RuleCondition; values: string[] }
    /** fields' total = the `equals` field or the constant `value`, within `tolerance`. */
    | { kind: 'sum'; fields: string[]; equals?: string; value?: string; tolerance?: string }
    | { kind: 'uniqueTogether'; fields: string[] }
  );
export type CrossFieldRuleKind = CrossFieldRule['kind'];

export const ERROR_CODES = [
  // structure
  'missing_column',
  'unexpected_column',
  'column_order',
  'duplicate_column',
  'blank_header',
  'extra_cells',
  'missing_cells',
  'parse_error',
  'encoding_error',
  'record_too_large',
  'not_an_object',
  // values
  'required',
  'type',
  'pattern',
  'min_length',
  'max_length',
  'allowed_chars',
  'minimum',
  'maximum',
  'precision',
  'enum',
  'date_min',
  'date_max',
  'date_future',
  'date_past',
  'unique',
  'additional_property',
  'in_list',
  // cross-field rules
  'required_when',
  'empty_when',
  'require_one_of',
  'compare',
  'allowed_values_when',
  'sum',
  'unique_together',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * One error. `row` is numbered as a spreadsheet shows it (CSV: header = 1, first record = 2;
 * JSON: first record = 1). `field` is '' for errors that belong to a whole row or the file.
 * `value` is the offending cell as written (null when there is none), capped in length.
 */
export interface Issue {
  row: number;
  field: string;
  code: ErrorCode;
  message: string;
  value: string | null;
  /** JSON only: `$[3].address.zip`, or `$` / `$[3]` for record-level errors. */
  path?: string;
  /**
   * 'warning' for the failure of a rule marked `severity: "warning"` (listed in the result's
   * `warningIssues`, counted in `warningCount`, never making a row or the file invalid); absent
   * for errors.
   */
  severity?: 'warning';
  /** "Did you mean": the listed value this one nearly is (enum values and reference lists). */
  suggestion?: string;
  /** Excel only: the sheet and A1 cell (`Sheet1!D14`), or the row (`Sheet1!14:14`). */
  cell?: string;
}

export interface Warning {
  code:
    | 'bom'
    | 'encoding'
    | 'delimiter'
    | 'ignored_option'
    | 'empty_file'
    | 'errors_truncated'
    /** A schema rule the engine does not check (from SchemaModel.warnings). */
    | 'schema'
    /** Excel input: what a trip through Excel did to the data (xlsx/damage.ts). */
    | 'excel_leading_zeros'
    | 'excel_scientific'
    | 'excel_long_number'
    | 'excel_mixed_dates'
    | 'excel_error_value'
    | 'excel_no_cached_value'
    | 'excel_merged_cells'
    | 'excel_sheets';
  message: string;
}

export interface ValidationResult {
  valid: boolean;
  totalRows: number;
  validRows: number;
  invalidRows: number;
  errorCount: number;
  errorsByField: Record<string, number>;
  errorsByCode: Partial<Record<ErrorCode, number>>;
  warnings: Warning[];
  /** The first `maxErrors` errors in file order; errorCount counts them all. */
  errors: Issue[];
  /** Failures of rules marked as warnings: counted here, never in errorCount. */
  warningCount?: number;
  /** The first `maxErrors` of them, in file order. */
  warningIssues?: Issue[];
  /** Set when reading stopped because the file has more data rows than `maxRows`. */
  rowLimitExceeded?: boolean;
}

/** A problem with a schema: `path` like `fields[2].validation.pattern`. */
export interface SchemaProblem {
  path: string;
  message: string;
}

/** Issues are data, never exceptions: an operation either works or lists every problem. */
export type Checked<T> =
  { ok: true; value: T; warnings: string[] } | { ok: false; problems: SchemaProblem[] };

/** A JSON number whose literal cannot be held by a double without loss (kept as written). */
export class LosslessNumber {
  constructor(readonly raw: string) {}
  toString(): string {
    return this.raw;
  }
}

/** Longest cell text carried in an Issue's `value`. */
export const MAX_ISSUE_VALUE_CHARS = 200;
