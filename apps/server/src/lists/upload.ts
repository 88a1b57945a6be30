import {
  LIST_NAME_MESSAGE,
  LIST_NAME_PATTERN,
  LIST_UPLOAD_MAX_BYTES,
  LIST_VALUE_MAX,
  PLANS,
  type SubscriptionTier,
} from '@schemacheck/contracts';
import { readListValues } from '@schemacheck/engine';
import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { assertListsAllowed } from './store.ts';
import { valueStream } from './stream-values.ts';

// A list sent as a file (POST /v1/lists/upload, the Profile page's upload): a multipart form with
// `name`, optional `column` and `replace`, and a .txt or .csv `file`, read by the engine's list
// reader (one value a line, or a CSV column). The values are counted as the file arrives
// (stream-values.ts), and the upload is refused (413) once they pass the plan's limit; a file
// within it is held whole (at most LIST_UPLOAD_MAX_BYTES) for the engine's reader.

export interface ListUpload {
  name: string;
  values: string[];
  replace: boolean;
}

const invalid = (message: string) => new AppError('invalid_upload', { message });
const tooLarge = () =>
  new AppError('list_too_large', {
    message: `A list file may have at most ${LIST_UPLOAD_MAX_BYTES / 1024 / 1024} MB.`,
  });

const REPLACE_VALUES = ['true', 'false'];

/** Distinct values as they arrive, by a 31-bit hash: a collision counts two values as one, never one as two. */
function hashOf(value: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) h = Math.imul(h ^ value.charCodeAt(i), 0x01000193);
  return h >>> 1;
}

/**
 * The form of a list upload. `tier`: the account's plan, whose limit on values a list stops the
 * upload as soon as the file has passed it (the store checks the exact count again).
 */
export async function readListUpload(
  request: FastifyRequest,
  tier: SubscriptionTier,
): Promise<ListUpload> {
  assertListsAllowed(tier);
  const plan = PLANS[tier];
  const limit = plan.limits.listValues;
  if (!request.isMultipart()) {
    throw new AppError('unsupported_media_type', {
      message: 'Send the list as multipart/form-data: name, then the file in a field named file.',
    });
  }
  const fields: Record<string, string> = {};
  let file: { name: string; bytes: Buffer } | null = null;
  try {
    // The plugin's own file limit is the 1 MiB body limit, past which it cuts the file short
    // without an error: a list would be saved with the values of its first MiB.
    const parts: AsyncIterableIterator<Multipart> = request.parts({
      limits: { fileSize: LIST_UPLOAD_MAX_BYTES },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        const value = String(part.value);
        if (part.fieldname === 'replace' && !REPLACE_VALUES.includes(value)) {
          throw new AppError('validation', {
            message: `replace is true or false (replace the values of a list of that name); it was '${value.slice(0, 40)}'.`,
            extra: { issues: [{ path: 'replace', message: 'replace is true or false' }] },
          });
        }
        // The file was read as the fields before it say (.txt lines or a CSV column).
        if (part.fieldname === 'column' && file) {
          throw invalid('Send column before the file: it says how the file is read.');
        }
        fields[part.fieldname] = value;
        continue;
      }
      if (part.fieldname !== 'file' || file) {
        part.file.resume();
        throw invalid('Send one file, in a field named file.');
      }
      const column = fields.column?.trim() || undefined;
      const csv = column !== undefined || /\.csv$/i.test(part.filename ?? '');
      const seen = new Set<number>();
      const values = valueStream({ csv, column }, (value) => {
        seen.add(hashOf(value));
        if (seen.size > limit) {
          throw new AppError('list_too_large', {
            message: `The list has more than ${limit.toLocaleString('en-GB')} values; the ${plan.label} plan allows ${limit.toLocaleString('en-GB')} values a list.`,
            extra: { limit },
          });
        }
      });
      // Not UTF-8 is said once the whole file is read (as before), not while counting.
      const decoder = new TextDecoder('utf-8');
      const chunks: Buffer[] = [];
      let bytes = 0;
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        bytes += chunk.byteLength;
        if (bytes > LIST_UPLOAD_MAX_BYTES) throw tooLarge();
        chunks.push(chunk);
        values.push(decoder.decode(chunk, { stream: true }));
      }
      values.push(decoder.decode());
      values.end();
      if ((part.file as { truncated?: boolean }).truncated) throw tooLarge();
      file = { name: part.filename ?? '', bytes: Buffer.concat(chunks) };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw invalid(`The form could not be read: ${err instanceof Error ? err.message : err}`);
  }
  const name = fields.name ?? '';
  if (!LIST_NAME_PATTERN.test(name)) {
    throw new AppError('validation', {
      message: name === '' ? 'The form has no name field: name the list.' : LIST_NAME_MESSAGE,
      extra: { issues: [{ path: 'name', message: LIST_NAME_MESSAGE }] },
    });
  }
  if (!file) throw invalid('The form has no file: send it in a field named file.');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(file.bytes);
  } catch {
    throw invalid('The list file is not UTF-8 text.');
  }
  // The database cannot hold U+0000 in text; a list given as JSON is refused for it too.
  const nul = text.indexOf('\u0000');
  if (nul >= 0) {
    let line = 1;
    for (let at = text.indexOf('\n'); at >= 0 && at < nul; at = text.indexOf('\n', at + 1)) line++;
    throw invalid(`The list file has a NUL character (U+0000) on line ${line}; lists hold text.`);
  }
  const column = fields.column?.trim() || undefined;
  const csv = column !== undefined || /\.csv$/i.test(file.name);
  const read = readListValues(text, { csv, ...(column !== undefined ? { column } : {}) });
  if (!read.ok) throw invalid(read.message);
  const values = [...read.values];
  // The limits a list given as JSON has (listValuesSchema), so that no list holds what the
  // other way of sending it refuses.
  if (values.length === 0) {
    throw invalid(
      !csv
        ? 'The list file has no values: put one value on each line.'
        : `The ${column !== undefined ? `column '${column}'` : 'first column'} of the CSV file has no values.`,
    );
  }
  const long = values.find((v) => v.length > LIST_VALUE_MAX);
  if (long !== undefined) {
    throw invalid(
      `A list value may have at most ${LIST_VALUE_MAX.toLocaleString('en-GB')} characters; one has ${long.length.toLocaleString('en-GB')} ("${long.slice(0, 20)}…").`,
    );
  }
  return { name, values, replace: fields.replace === 'true' };
}
