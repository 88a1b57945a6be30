import { z } from 'zod';

// The validation workspace's calls: what the dashboard sends and what the server
// answers. A schema's fields are checked in depth by the engine on the server (every problem by
// path); here only the envelope is described, so the form and the route agree on its shape.

export const FILE_TYPES = ['csv', 'json'] as const;
export type WorkspaceFileType = (typeof FILE_TYPES)[number];

export const SCHEMA_NAME_MAX = 200;

/** The save form's refusals: the server's 400 and the web's toasts say the same words. */
export const SAVED_SCHEMA_MESSAGES = {
  nameRequired: 'Please enter a name for your schema.',
  fieldsRequired: 'Please add at least one field to your schema.',
} as const;

export const savedSchemaInputSchema = z.object({
  name: z
    .string({ error: SAVED_SCHEMA_MESSAGES.nameRequired })
    .trim()
    .min(1, SAVED_SCHEMA_MESSAGES.nameRequired)
    .max(SCHEMA_NAME_MAX, `Schema name must be at most ${SCHEMA_NAME_MAX} characters`),
  fileType: z.enum(FILE_TYPES, { error: 'File type must be csv or json' }),
  fields: z
    .array(z.record(z.string(), z.unknown()), {
      error: SAVED_SCHEMA_MESSAGES.fieldsRequired,
    })
    .min(1, SAVED_SCHEMA_MESSAGES.fieldsRequired),
  orderMatters: z.boolean().optional(),
  additionalColumns: z.boolean().optional(),
  additionalProperties: z.boolean().optional(),
  /** Cross-field rules (docs/engine.md); the engine checks them with the fields. */
  rules: z
    .array(z.record(z.string(), z.unknown()), { error: 'rules must be a list of rules' })
    .optional(),
});
export type SavedSchemaInput = z.infer<typeof savedSchemaInputSchema>;

/** Rename or replace: every property optional, at least one present. */
export const savedSchemaUpdateSchema = savedSchemaInputSchema
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'Nothing to update');
export type SavedSchemaUpdate = z.infer<typeof savedSchemaUpdateSchema>;

export interface SavedSchema extends Omit<SavedSchemaInput, 'fileType'> {
  /** Null for a schema saved through the API without a type: each file decides. */
  fileType: SavedSchemaInput['fileType'] | null;
  id: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * POST and PATCH /api/schemas: the schema as stored, and what validations with it will not check
 * (code `schema`): a list named in `inList` that the account does not have or that is over the
 * plan's limit. The schema is saved all the same.
 */
export interface SavedSchemaResponse extends SavedSchema {
  warnings: { code: 'schema'; message: string }[];
}

/** A schema refused by the engine: every problem with its path (e.g. fields[2].validation.pattern). */
export interface SchemaProblemsResponse {
  error: string;
  code: 'invalid_schema';
  problems: { path: string; message: string }[];
}

export interface ValidationErrorItem {
  row: number;
  field: string;
  code: string;
  message: string;
  value: string | null;
  /** JSON files only. */
  path?: string;
  /** Excel workbooks only: `Sheet1!D14`. */
  cell?: string;
  /** 'warning' for a rule marked as a warning; absent for errors. */
  severity?: 'warning';
  /** "Did you mean": the listed value this one nearly is. */
  suggestion?: string;
}

export interface ValidationWarningItem {
  code: string;
  message: string;
}

/** POST /api/validate (multipart: file, schema as JSON text). */
export interface ValidateResponse {
  id: string;
  fileName: string;
  fileType: WorkspaceFileType;
  fileSize: number;
  success: boolean;
  totalRows: number;
  validRows: number;
  invalidRows: number;
  errorCount: number;
  /** The first 1000 errors in file order; errorCount counts them all. */
  errors: ValidationErrorItem[];
  errorsByField: Record<string, number>;
  errorsByCode: Record<string, number>;
  warnings: ValidationWarningItem[];
  /** Failures of rules marked as warnings (never making the file invalid); absent when none. */
  warningCount?: number;
  /** The first of them, in file order. */
  warningIssues?: ValidationErrorItem[];
  /** Whether this user's plan may download the full CSV report. */
  reportAvailable: boolean;
}

/** GET /api/auth/usage. resetDate is an ISO timestamp (the 1st of next month, 00:00 UTC). */
export interface UsageResponse {
  hasLimit: boolean;
  used: number;
  limit: number | null;
  remaining: number | null;
  resetDate: string;
}

/**
 * Error codes the workspace turns into its upgrade dialogs. Messages about size contain
 * "file size" and messages about rows contain "rows" (the web reads them: docs/product.md#plans-and-limits).
 */
export const WORKSPACE_ERROR_CODES = {
  fileTooLarge: 'file_too_large',
  rowLimit: 'row_limit',
  monthlyLimit: 'monthly_limit',
  planRequired: 'plan_required',
  busy: 'validation_in_progress',
  invalidSchema: 'invalid_schema',
  unsupportedFile: 'unsupported_file',
  emptyFile: 'empty_file',
  /** Not a multipart form with `schema` before one `file` (or a malformed body). */
  invalidUpload: 'invalid_upload',
  /** The per-user cap on saved schemas (MAX_SAVED_SCHEMAS) is reached. */
  schemaLimit: 'schema_limit',
} as const;

/** Saved schemas one user may keep (a bound, so one account cannot fill the database). */
export const MAX_SAVED_SCHEMAS = 200;

/** Rows of errors the results table shows; the report holds them all. */
export const ERROR_TABLE_ROWS = 50;
/** Errors kept with a stored result. */
export const STORED_ERRORS = 1000;
/** Days a result and its report are kept. */
export const RESULT_RETENTION_DAYS = 90;

/**
 * The error report's download name: `error-report-<name without .csv/.json/.ndjson>.csv`. One
 * definition for the server's Content-Disposition and the browser's in-device report.
 */
export function reportFileName(fileName: string): string {
  return `error-report-${fileName.replace(/\.(csv|json|ndjson|jsonl)$/i, '') || 'upload'}.csv`;
}
