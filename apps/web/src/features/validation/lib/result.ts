import type { ValidateResponse } from '@schemacheck/contracts';
import {
  ACCEPTED_EXTENSIONS,
  detectFileType,
  type AcceptedExtension,
  type FileType,
} from '@schemacheck/engine';
import { formatCount } from '@/lib/format';

/**
 * A finished validation as the results panel shows it, whether the server (POST /api/validate)
 * or the in-browser worker produced it: the response without what only the server knows. The
 * table shows the first 50 errors that match the filters.
 */
export type ResultView = Omit<ValidateResponse, 'id' | 'success' | 'reportAvailable'>;

/** The MIME type a browser's file picker offers for each of the engine's accepted endings. */
const MIME_TYPES: Record<AcceptedExtension, string> = {
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.ndjson': 'application/x-ndjson',
  '.jsonl': 'application/x-ndjson',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.gz': 'application/gzip',
  '.zip': 'application/zip',
};

/** Accepted by the drop zones and the file inputs: the engine's ACCEPTED_EXTENSIONS by MIME type. */
export const DROPZONE_ACCEPT: Record<string, string[]> = {};
for (const extension of ACCEPTED_EXTENSIONS) {
  (DROPZONE_ACCEPT[MIME_TYPES[extension]] ??= []).push(extension);
}

/** The accepted extensions in words (`.csv, .json, … or .zip`), the engine's. */
export { ACCEPTED_EXTENSIONS_TEXT } from '@schemacheck/engine';

/** The file type by its name: the engine's detectFileType, as on the server and the CLI. */
export function fileTypeOf(name: string): FileType | null {
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
