import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { reportFileName } from '@schemacheck/contracts';
import { AppError } from '../errors.ts';
import { contentDisposition } from '../lib/content-disposition.ts';

// The uploaded file's name: shown to the user and used in the report's download name, never as
// a storage path. Which reader a file goes to is the engine's detectFileType, used everywhere.

export const MAX_FILE_NAME_CHARS = 200;

/** Last path segment, without control or bidi-override characters, trimmed and capped. */
export function displayFileName(raw: string | undefined): string {
  let name = (raw ?? '').split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  name = name.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '');
  name = name.trim();
  const chars = [...name];
  if (chars.length > MAX_FILE_NAME_CHARS) name = chars.slice(0, MAX_FILE_NAME_CHARS).join('');
  return name === '' || name === '.' || name === '..' ? 'upload' : name;
}

/**
 * Sends a stored CSV report as a download named after the validated file (the web's and the
 * public API's download alike); 404 when the report is gone (retention, or never written).
 */
export function sendCsvReport(reply: FastifyReply, fileName: string, report: Readable | null) {
  if (!report) {
    throw new AppError('not_found', {
      message: 'The full report of this validation is not available.',
    });
  }
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', contentDisposition(reportFileName(fileName)))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(report);
}
