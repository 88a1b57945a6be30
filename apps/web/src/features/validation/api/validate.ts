import { SYNC_MAX_BYTES, type ValidateResponse } from '@schemacheck/contracts';
import type { WebSchema } from '@schemacheck/engine';

import { ApiError, upload, type UploadOptions } from '@/lib/api-client';

import type { InputChoice } from '../lib/file-choices';

import { validateDirectly } from './direct-upload';

/**
 * POST /api/validate: multipart with `schema` (JSON text) first, then `file`, so that the server
 * can check the schema before it reads a byte of the file. Upload progress is real. A file above
 * the synchronous limit goes straight to the server's bucket when it has one (./direct-upload.ts).
 */
export async function validateOnServer(
  file: File,
  schema: WebSchema,
  options: UploadOptions,
  choice: InputChoice = {},
): Promise<ValidateResponse> {
  if (file.size > SYNC_MAX_BYTES) {
    const direct = await validateDirectly(file, schema, options, choice);
    if (direct) return direct;
  }
  const form = new FormData();
  form.append('schema', JSON.stringify(schema));
  // The sheet of a workbook, the file of a zip (decision 206): form fields before the file.
  if (choice.sheet !== undefined) form.append('sheet', choice.sheet);
  if (choice.entry !== undefined) form.append('entry', choice.entry);
  form.append('file', file, file.name);
  return upload<ValidateResponse>('/api/validate', form, options);
}

/** GET /api/validation-results/{id}/error-report as a Blob. */
export async function fetchErrorReport(id: string): Promise<Blob> {
  const response = await fetch(`/api/validation-results/${encodeURIComponent(id)}/error-report`, {
    credentials: 'include',
  });
  if (!response.ok) {
    const body = await response.text().catch(() => '');
    throw new ApiError(response.status, response.statusText, body);
  }
  return response.blob();
}
