import type { ValidateResponse } from '@schemacheck/contracts';

/**
 * A finished validation as the results panel shows it, whether the server (POST /api/validate)
 * or the in-browser worker produced it: the response without what only the server knows. The
 * table shows the first 50 errors that match the filters.
 */
export type ResultView = Omit<ValidateResponse, 'id' | 'success' | 'reportAvailable'>;

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
