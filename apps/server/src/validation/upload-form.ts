import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import type { Storage } from '../storage/index.ts';
import { userKey } from '../storage/keys.ts';
import { countBytes } from './byte-counter.ts';
import { ValidationAborted } from './service.ts';

// Reading a validation form (multipart: a `schema` field and one file) for the web upload and
// POST /api/v1/validate (docs/decisions/080). The usual order, schema then file, streams the
// file straight into the run. A file sent before its schema is spooled to storage and replayed
// once the schema has come; the spool is deleted whatever happens (and swept as a temp file if
// the process dies). Either way the file is counted once, as it arrives, against the byte limit
// (validation/byte-counter.ts). Routes use it through validation/upload-pipeline.ts.

/** The schema field: the engine caps schemas well below this. */
export const SCHEMA_FIELD_MAX = 1024 * 1024;

export const malformed = (message = 'The upload is not a valid multipart form') =>
  new AppError('invalid_upload', { message });

/** Iterates, turning parser errors (busboy, multipart limits) into a 400, or an abort. */
export async function* guarded<T>(
  source: AsyncIterable<T>,
  signal: AbortSignal,
): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      let r: IteratorResult<T>;
      try {
        r = await it.next();
      } catch (err) {
        if (signal.aborted) throw new ValidationAborted('The client closed the connection');
        if (err instanceof AppError) throw err;
        const code = (err as { code?: string }).code;
        if (code === 'FST_FILES_LIMIT') throw malformed('Send one file only.');
        throw malformed();
      }
      if (r.done) return;
      yield r.value;
    }
  } finally {
    await it.return?.(undefined);
  }
}

async function readText(stream: Readable, max: number, signal: AbortSignal): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const chunk of guarded<Buffer>(stream, signal)) {
    n += chunk.length;
    if (n > max) throw malformed('The schema is larger than 1 MB.');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface FormFile {
  source: AsyncIterable<Uint8Array>;
  fileName: string;
  /** The schema field's text; null when the form has none. */
  schemaText: string | null;
  /** `sheet` and `entry` form fields sent before the file (a workbook's sheet, a zip's entry). */
  choice: { sheet?: string; entry?: string };
  /** Reads the rest of the form and refuses a second file or schema: pass to the run. */
  finishForm: () => Promise<void>;
  /** The file's bytes received so far (all of them once `source` has ended). */
  bytes: () => number;
}

export interface UploadFormOptions<T> {
  request: FastifyRequest;
  storage: Storage;
  /** The uploader: a spooled file lives under their storage prefix, so it goes with the account. */
  userId: string;
  signal: AbortSignal;
  /** The file's byte limit: a spooled file is refused at limit + 1 as it arrives. */
  maxFileBytes: number | null;
  /** Throws the refusal for a file over the byte limit. */
  tooLarge: (limit: number) => Error;
  /**
   * true: the form must carry the schema, and a file sent first waits for it (spooled).
   * false: the schema comes from elsewhere (schema_id); the file streams at once, and a schema
   * field is refused.
   */
  schemaInForm: boolean;
  /** Messages for a form without a schema or without a file. */
  messages?: { noSchema?: string; noFile?: string };
  run: (file: FormFile) => Promise<T>;
}

/** Reads the form and calls `run` once with its file; the result is run's. */
export async function withUploadForm<T>(o: UploadFormOptions<T>): Promise<T> {
  const { request, signal } = o;
  let parts: AsyncIterable<Multipart>;
  try {
    parts = request.parts({
      limits: { fileSize: o.maxFileBytes === null ? Infinity : o.maxFileBytes + 1 },
      isPartAFile: (field, contentType, fileName) =>
        fileName !== undefined ||
        contentType === 'application/octet-stream' ||
        // A schema field sent as application/json would be JSON.parse'd by the multipart
        // plugin, losing the digits of bounds past 2^53: read as a stream, its text reaches the
        // engine's exact reader as the CLI's does (docs/decisions/132).
        (field === 'schema' && (contentType ?? '').toLowerCase().startsWith('application/json')),
    });
  } catch {
    throw malformed();
  }
  const it = guarded(parts, signal)[Symbol.asyncIterator]();
  let schemaText: string | null = null;
  let spooled: { key: string; fileName: string } | null = null;
  let fileSeen = false;
  let bytes = 0;
  const choice: { sheet?: string; entry?: string } = {};

  const takeSchema = async (part: Multipart) => {
    if (!o.schemaInForm) {
      throw malformed('Send either the schema_id parameter or a schema field, not both.');
    }
    if (schemaText !== null) throw malformed('Send the schema once.');
    if (part.type === 'field') {
      if (part.valueTruncated) throw malformed('The schema is larger than 1 MB.');
      schemaText = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
    } else {
      schemaText = await readText(part.file, SCHEMA_FIELD_MAX, signal);
    }
  };

  /** After the file: anything but small fields is refused. */
  const finishForm = async () => {
    for (;;) {
      const r = await it.next();
      if (r.done) break;
      const part = r.value;
      if (part.fieldname === 'schema') {
        if (part.type === 'file') part.file.resume();
        throw malformed(
          o.schemaInForm
            ? 'Send the schema once.'
            : 'Send either the schema_id parameter or a schema field, not both.',
        );
      }
      if (part.type === 'file') {
        part.file.resume();
        throw malformed('Send one file only.');
      }
    }
    if (signal.aborted) throw new ValidationAborted('The client closed the connection');
  };

  try {
    for (;;) {
      const r = await it.next();
      if (r.done) break;
      const part = r.value;
      if (part.fieldname === 'schema') {
        // Before the file, or after a file that waits for it (spooled), as a field or a blob.
        await takeSchema(part);
        continue;
      }
      if (part.type === 'field') {
        // Read before the file only: the run starts as the file arrives.
        if ((part.fieldname === 'sheet' || part.fieldname === 'entry') && part.value !== '') {
          choice[part.fieldname] = String(part.value);
        }
        continue;
      }
      if (fileSeen) {
        part.file.resume();
        throw malformed('Send one file only.');
      }
      fileSeen = true;
      const file = part as MultipartFile;
      // The file's one count, whether it streams into the run or waits in the spool.
      const counted = countBytes(guarded<Buffer>(file.file, signal), {
        max: o.maxFileBytes,
        tooLarge: o.tooLarge,
        onBytes: (n) => (bytes = n),
      });
      if (schemaText !== null || !o.schemaInForm) {
        return await o.run({
          source: counted,
          fileName: file.filename,
          schemaText,
          choice,
          finishForm,
          bytes: () => bytes,
        });
      }
      // The file came before the schema: keep it until the schema arrives.
      const name = `${randomUUID()}.tmp-upload`;
      const key = userKey(o.userId, 'spool', name);
      spooled = { key, fileName: file.filename };
      await o.storage.put(key, counted);
    }
    if (signal.aborted) throw new ValidationAborted('The client closed the connection');
    if (o.schemaInForm && schemaText === null) {
      throw malformed(o.messages?.noSchema ?? 'The form has no schema field.');
    }
    if (!spooled) throw malformed(o.messages?.noFile ?? 'The form has no file.');
    const stream = await o.storage.get(spooled.key);
    if (!stream) throw new Error('The spooled upload is missing');
    return await o.run({
      source: stream,
      fileName: spooled.fileName,
      schemaText,
      choice,
      finishForm: async () => {},
      bytes: () => bytes,
    });
  } finally {
    await it.return?.(undefined)?.catch(() => {});
    if (spooled) await o.storage.delete(spooled.key).catch(() => {});
  }
}

/** `sheet` / `entry` from the query, else from the form (the query wins, being read first). */
export function choiceOf(
  query: { sheet?: string | undefined; entry?: string | undefined },
  form: { sheet?: string; entry?: string },
): { sheet?: string; entry?: string } {
  const sheet = query.sheet ?? form.sheet;
  const entry = query.entry ?? form.entry;
  return { ...(sheet ? { sheet } : {}), ...(entry ? { entry } : {}) };
}
