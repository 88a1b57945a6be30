import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { requireUser } from '../plugins/session.ts';
import { fileTooLarge, limitsOf, validationInProgress } from '../validation/limits.ts';
import { releaseValidation, reserveOrRefuse, type Reservation } from '../validation/quota.ts';
import { toResponse } from '../validation/results.ts';
import { parseSchema, runValidation, ValidationAborted } from '../validation/service.ts';
import { malformed, SCHEMA_FIELD_MAX, withUploadForm } from '../validation/upload-form.ts';

// POST /api/validate: multipart with a `schema` (JSON text) and one file, in either order. The
// route speaks HTTP only: the plan's checks before the body, then the form reader
// (validation/upload-form.ts) and the one validation service (validation/service.ts,
// docs/decisions/080), which streams the file into a worker, enforces the plan's limits as bytes
// and rows arrive, writes the report and stores the result. Anything that stops a validation
// before its result is stored gives back the reserved unit.

/** Multipart boundaries, part headers and small fields around the file. */
const MULTIPART_SLACK = 64 * 1024;

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
    const abort = new AbortController();
    let ended = false;
    const onEnd = () => (ended = true);
    const onClose = () => {
      if (!ended && !request.raw.complete) abort.abort();
    };
    request.raw.on('end', onEnd);
    request.raw.on('close', onClose);
    let reservation: Reservation | null = null;
    let completed = false;
    try {
      reservation = await reserveOrRefuse(app.db, user.id, plan.monthlyValidations, app.now());
      const outcome = await withUploadForm({
        request,
        storage: app.storage,
        userId: user.id,
        signal: abort.signal,
        maxFileBytes: plan.maxFileBytes,
        tooLarge: fileTooLarge,
        schemaInForm: true,
        messages: { noFile: 'The form has no file. Please upload a file first.' },
        run: async (file) =>
          runValidation(app, {
            source: file.source,
            fileName: file.fileName,
            schema: await parseSchema(app.validationPool, file.schemaText!),
            limits: {
              maxBytes: plan.maxFileBytes,
              maxRows: plan.maxRows,
              report: plan.reportExport,
            },
            signal: abort.signal,
            userId: user.id,
            beforeRecord: file.finishForm,
          }),
      });
      completed = true;
      request.log.info(
        {
          userId: user.id,
          resultId: outcome.resultId,
          bytes: outcome.bytes,
          rows: outcome.result.totalRows,
        },
        'File validated',
      );
      return { ...toResponse(outcome.row, plan.reportExport), success: outcome.result.valid };
    } catch (err) {
      if (err instanceof ValidationAborted) {
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
