import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import multipart, { type Multipart, type MultipartFile } from '@fastify/multipart';
import { STORED_ERRORS, type PlanLimits, type ValidateResponse } from '@schemacheck/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../db/schema.ts';
import { validationResults } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { requireUser } from '../plugins/session.ts';
import { decideFileType, displayFileName } from '../validation/files.ts';
import { fileTooLarge, limitsOf, rowLimit, validationInProgress } from '../validation/limits.ts';
import {
  monthlyLimitError,
  releaseValidation,
  reserveValidation,
  type Reservation,
} from '../validation/quota.ts';
import { reportKeyFor, toResponse } from '../validation/results.ts';

// POST /api/validate (SPEC §7): multipart with `schema` (JSON text) first, then one `file`.
// The file streams from the socket through a byte counter into a worker thread running the engine
// (docs/decisions/030): never on disk, never whole in memory. Plan limits are enforced as the
// bytes and rows arrive (032); the full error list streams into a report in storage (031).
// Anything that stops a validation before its result is stored gives back the reserved unit.

/** The schema field: the engine caps schemas well below this. */
export const SCHEMA_FIELD_MAX = 1024 * 1024;
/** Multipart boundaries, part headers and small fields around the file. */
const MULTIPART_SLACK = 64 * 1024;

class UploadAborted extends Error {
  override name = 'UploadAborted';
}

const malformed = (message = 'The upload is not a valid multipart form') =>
  new AppError('invalid_upload', { message });

/** Iterates, turning parser errors (busboy, multipart limits) into a 400, or an abort. */
async function* guarded<T>(source: AsyncIterable<T>, isAborted: () => boolean): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      let r: IteratorResult<T>;
      try {
        r = await it.next();
      } catch (err) {
        if (isAborted()) throw new UploadAborted('The client closed the connection');
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

async function readText(stream: Readable, max: number, isAborted: () => boolean): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const chunk of guarded<Buffer>(stream, isAborted)) {
    n += chunk.length;
    if (n > max) throw malformed('The schema is larger than 1 MB.');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Replaces U+0000, which PostgreSQL text and jsonb cannot hold (PARSE-08), inside JSON values. */
function withoutNul<T>(value: T): T {
  const text = JSON.stringify(value);
  if (!text.includes('\\u0000')) return value;
  return JSON.parse(text.replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1\\ufffd')) as T;
}

interface UploadContext {
  app: FastifyInstance;
  request: FastifyRequest;
  user: User;
  plan: PlanLimits;
  isAborted: () => boolean;
}

/** A validated file whose result is stored only once the whole form has been read. */
interface Validated {
  commit(): Promise<ValidateResponse>;
  discard(): Promise<void>;
}

/** Validates the file part against the schema text; the report is complete when this returns. */
async function validateFile(
  ctx: UploadContext,
  part: MultipartFile,
  schemaText: string,
): Promise<Validated> {
  const { app, user, plan, isAborted } = ctx;
  const fileName = displayFileName(part.filename);
  const job = app.validationPool.job();
  let sink: PassThrough | null = null;
  let stored: Promise<unknown> | null = null;
  let reportKey: string | null = null;
  const removeReport = async () => {
    if (reportKey) await app.storage.delete(reportKey).catch(() => {});
  };
  try {
    const opened = await job.open(schemaText);
    if (!opened.ok) {
      const first = opened.problems[0];
      throw new AppError('invalid_schema', {
        message: first
          ? `The schema has problems: ${first.path ? `${first.path}: ` : ''}${first.message}`
          : 'The schema has problems',
        extra: { problems: opened.problems },
      });
    }
    const decided = decideFileType(opened.fileType, fileName);
    if (!decided) throw new AppError('unsupported_file');

    const resultId = randomUUID();
    if (plan.reportExport) {
      reportKey = reportKeyFor(user.id, resultId);
      const out = new PassThrough();
      // destroy() may come before storage has attached its pipeline
      out.on('error', () => {});
      sink = out;
      stored = app.storage.put(reportKey, out);
      stored.catch(() => {});
    }
    job.begin(
      {
        ...decided,
        ...(plan.maxRows !== null ? { maxRows: plan.maxRows } : {}),
        maxErrors: STORED_ERRORS,
        report: sink !== null,
        now: app.now().toISOString(),
      },
      sink ? (text) => void sink!.write(text) : undefined,
    );

    const started = performance.now();
    let bytes = 0;
    for await (const chunk of guarded<Buffer>(part.file, isAborted)) {
      bytes += chunk.length;
      if (plan.maxFileBytes !== null && bytes > plan.maxFileBytes) {
        throw fileTooLarge(plan.maxFileBytes);
      }
      await job.push(chunk);
      if (job.stopped && plan.maxRows !== null) throw rowLimit(plan.maxRows);
    }
    if (isAborted()) throw new UploadAborted('The client closed the connection');
    if (bytes === 0) throw new AppError('empty_file');
    const result = await job.end();
    if (result.rowLimitExceeded && plan.maxRows !== null) throw rowLimit(plan.maxRows);
    if (sink) {
      sink.end();
      await stored;
    }
    const durationMs = Math.round(performance.now() - started);

    return {
      async commit() {
        try {
          const [row] = await app.db
            .insert(validationResults)
            .values({
              id: resultId,
              userId: user.id,
              fileName,
              fileSize: bytes,
              fileType: decided.fileType,
              totalRows: result.totalRows,
              validRows: result.validRows,
              invalidRows: result.invalidRows,
              errorCount: result.errorCount,
              errors: withoutNul(result.errors),
              errorsByField: withoutNul(result.errorsByField),
              errorsByCode: result.errorsByCode,
              summary: withoutNul({
                valid: result.valid,
                warnings: result.warnings,
                durationMs,
                ...(decided.jsonShape ? { jsonShape: decided.jsonShape } : {}),
              }),
              schemaUsed: withoutNul(JSON.parse(schemaText) as unknown),
              reportKey,
              createdAt: app.now(),
            })
            .returning();
          return { ...toResponse(row!, plan.reportExport), success: result.valid };
        } catch (err) {
          await removeReport();
          throw err;
        }
      },
      discard: removeReport,
    };
  } catch (err) {
    if (sink) {
      sink.destroy(err as Error);
      await stored?.catch(() => {});
    }
    await removeReport();
    throw err;
  } finally {
    job.close();
  }
}

/** Reads the form: `schema` first, then exactly one file. */
async function runUpload(ctx: UploadContext): Promise<ValidateResponse> {
  const { request, plan, isAborted } = ctx;
  let schemaText: string | null = null;
  let validated: Validated | null = null;
  let parts: AsyncIterable<Multipart>;
  try {
    parts = request.parts({
      limits: {
        fileSize: plan.maxFileBytes === null ? Infinity : plan.maxFileBytes + 1,
      },
    });
  } catch {
    throw malformed();
  }
  try {
    for await (const part of guarded(parts, isAborted)) {
      if (part.type === 'field') {
        if (part.fieldname !== 'schema') continue;
        if (schemaText !== null) throw malformed('Send the schema once.');
        if (part.valueTruncated) throw malformed('The schema is larger than 1 MB.');
        schemaText = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        continue;
      }
      if (part.fieldname === 'schema' && schemaText === null && validated === null) {
        schemaText = await readText(part.file, SCHEMA_FIELD_MAX, isAborted);
        continue;
      }
      if (validated !== null) throw malformed('Send one file only.');
      if (schemaText === null) {
        throw malformed('Send the schema field before the file.');
      }
      validated = await validateFile(ctx, part, schemaText);
    }
    if (isAborted()) throw new UploadAborted('The client closed the connection');
    if (schemaText === null) throw malformed('The form has no schema field.');
    if (validated === null) throw malformed('The form has no file. Please upload a file first.');
  } catch (err) {
    await validated?.discard();
    throw err;
  }
  return validated.commit();
}

/** A refusal before the body was read: stop reading it, discard the rest, close afterwards. */
function stopReading(request: FastifyRequest, reply: FastifyReply): void {
  if (request.raw.complete) return;
  reply.header('connection', 'close');
  request.raw.unpipe();
  request.raw.resume();
}

export default async function validateRoutes(app: FastifyInstance) {
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: {
      // the file, and the schema when a client sends it as a Blob
      files: 2,
      fields: 10,
      parts: 12,
      fieldNameSize: 100,
      fieldSize: SCHEMA_FIELD_MAX,
      headerPairs: 20,
    },
  });

  app.post('/api/validate', { onRequest: requireUser }, async (request, reply) => {
    const user = request.auth!.user;
    const plan = limitsOf(user.subscriptionTier);
    if (!request.isMultipart()) {
      throw malformed('Send the schema and then the file as multipart/form-data.');
    }
    const declared = Number(request.headers['content-length']);
    if (
      plan.maxFileBytes !== null &&
      Number.isFinite(declared) &&
      declared > plan.maxFileBytes + SCHEMA_FIELD_MAX + MULTIPART_SLACK
    ) {
      stopReading(request, reply);
      throw fileTooLarge(plan.maxFileBytes);
    }

    const release = app.runningValidations.acquire(user.id, plan.concurrentValidations);
    if (!release) {
      stopReading(request, reply);
      throw validationInProgress(user.subscriptionTier);
    }

    // Aborted: the connection closed before the body ended (light-my-request has no `complete`).
    let aborted = false;
    let ended = false;
    const onEnd = () => (ended = true);
    const onClose = () => {
      if (!ended && !request.raw.complete) aborted = true;
    };
    request.raw.on('end', onEnd);
    request.raw.on('close', onClose);
    let reservation: Reservation | null = null;
    let completed = false;
    try {
      const now = app.now();
      reservation = await reserveValidation(app.db, user.id, plan.monthlyValidations, now);
      if (!reservation) throw monthlyLimitError(plan.monthlyValidations ?? 0, now);
      const response = await runUpload({ app, request, user, plan, isAborted: () => aborted });
      completed = true;
      request.log.info(
        {
          userId: user.id,
          resultId: response.id,
          bytes: response.fileSize,
          rows: response.totalRows,
        },
        'File validated',
      );
      return response;
    } catch (err) {
      if (err instanceof UploadAborted) {
        request.log.info({ userId: user.id }, 'Upload aborted by the client');
        throw new AppError('validation', { message: 'The upload was aborted' });
      }
      stopReading(request, reply);
      throw err;
    } finally {
      request.raw.off('close', onClose);
      request.raw.off('end', onEnd);
      if (reservation && !completed) {
        await releaseValidation(app.db, reservation).catch((err: unknown) =>
          request.log.error({ err }, 'Could not release a reserved validation'),
        );
      }
      release();
    }
  });
}
