import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../plugins/session.ts';
import { fileTooLarge, limitsOf, validationInProgress } from '../validation/limits.ts';
import { toResponse } from '../validation/results.ts';
import { parseSchema, runValidation } from '../validation/service.ts';
import { malformed, SCHEMA_FIELD_MAX, withUploadForm } from '../validation/upload-form.ts';
import {
  refuseDeclaredOverLimit,
  stopReading,
  withReservedUpload,
} from '../validation/upload-request.ts';

// POST /api/validate: multipart with a `schema` (JSON text) and one file, in either order. The
// route speaks HTTP only: the plan's checks before the body, then the form reader
// (validation/upload-form.ts) and the one validation service (validation/service.ts,
// docs/decisions/080), which streams the file into a worker, enforces the plan's limits as bytes
// and rows arrive, writes the report and stores the result. Anything that stops a validation
// before its result is stored gives back the reserved unit.

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
    refuseDeclaredOverLimit(request, reply, plan.maxFileBytes, fileTooLarge);

    const release = app.runningValidations.acquire(user.id, plan.concurrentValidations);
    if (!release) {
      stopReading(request, reply);
      throw validationInProgress(user.subscriptionTier);
    }

    try {
      const outcome = await withReservedUpload(
        {
          app,
          request,
          reply,
          userId: user.id,
          monthlyValidations: plan.monthlyValidations,
        },
        (signal) =>
          withUploadForm({
            request,
            storage: app.storage,
            userId: user.id,
            signal,
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
                signal,
                userId: user.id,
                beforeRecord: file.finishForm,
                choice: file.choice,
              }),
          }),
      );
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
    } finally {
      release();
    }
  });
}
