import type { ValidateResponse } from '@schemacheck/contracts';
import { formatCount } from './format';

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

/** The toast (docs/product.md#messages) for a finished validation, and the same words for the live region. */
export function verdictOf(result: Pick<ResultView, 'errorCount' | 'totalRows' | 'invalidRows'>) {
  const [title, description] =
    result.errorCount === 0
      ? ['Validation successful', `All ${formatCount(result.totalRows)} rows are valid.`]
      : [
          'Validation completed with errors',
          `${formatCount(result.invalidRows)} rows have errors.`,
        ];
  return { title, description, announcement: `${title}. ${description}` };
}
