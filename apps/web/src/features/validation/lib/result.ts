import type { ValidationErrorItem, ValidationWarningItem } from '@schemacheck/contracts';

/**
 * A finished validation as the results panel shows it, whether the server (POST /api/validate)
 * or the in-browser worker produced it.
 */
export interface ResultView {
  fileName: string;
  fileType: 'csv' | 'json';
  fileSize: number;
  totalRows: number;
  validRows: number;
  invalidRows: number;
  errorCount: number;
  /** The first errors in file order (the table shows the first 50 that match the filters). */
  errors: ValidationErrorItem[];
  errorsByField: Record<string, number>;
  errorsByCode: Record<string, number>;
  warnings: ValidationWarningItem[];
}

/** Accepted by the drop zones and the file inputs. */
export const DROPZONE_ACCEPT = {
  'text/csv': ['.csv'],
  'application/json': ['.json'],
  'application/x-ndjson': ['.ndjson'],
} as const;

export function fileTypeOf(name: string): 'csv' | 'json' | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.json') || lower.endsWith('.ndjson')) return 'json';
  return null;
}
