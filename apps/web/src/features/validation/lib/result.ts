import type { ValidateResponse } from '@schemacheck/contracts';
import { detectFileType } from '@schemacheck/engine';
import { formatCount } from '@/lib/format';

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
  'application/x-ndjson': ['.ndjson', '.jsonl'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
  'application/gzip': ['.gz'],
  'application/zip': ['.zip'],
} as const;

/** The accepted extensions in words, from the one list above (`.csv, .json, … or .zip`). */
export const ACCEPTED_EXTENSIONS_TEXT = (() => {
  const all = Object.values(DROPZONE_ACCEPT).flat();
  return `${all.slice(0, -1).join(', ')} or ${all[all.length - 1]}`;
})();

/** The file type by its name: the engine's detectFileType, as on the server and the CLI. */
export function fileTypeOf(name: string): 'csv' | 'json' | null {
  return detectFileType(name)?.fileType ?? null;
}

/** The toast (docs/product.md#messages) for a finished validation, and the live region's words. */
export function verdictOf(result: Pick<ResultView, 'errorCount' | 'totalRows' | 'invalidRows'>) {
  const [title, description] =
    result.errorCount === 0
      ? ['Validation successful', `${allRows(result.totalRows)} ${isAre(result.totalRows)} valid.`]
      : ['Validation completed with errors', `${rowsHave(result.invalidRows)} errors.`];
  return { title, description, announcement: `${title}. ${description}` };
}

/** "All 3 rows", "The 1 row". */
export const allRows = (n: number) => (n === 1 ? 'The 1 row' : `All ${formatCount(n)} rows`);
const isAre = (n: number) => (n === 1 ? 'is' : 'are');
/** "1 row has", "3 rows have". */
export const rowsHave = (n: number) => (n === 1 ? '1 row has' : `${formatCount(n)} rows have`);
