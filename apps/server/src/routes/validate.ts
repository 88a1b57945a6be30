import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../plugins/session.ts';
import { fileTooLarge, limitsOf, validationInProgress } from '../validation/limits.ts';
import { toResponse } from '../validation/results.ts';
import { runValidation } from '../validation/service.ts';
import { malformed, SCHEMA_FIELD_MAX } from '../validation/upload-form.ts';
import { receiveUpload } from '../validation/upload-pipeline.ts';

// POST /api/validate: multipart with a `schema` (JSON text) and one file, in either order. The
// route speaks HTTP only: the plan's limits and refusals go into the one upload pipeline
// (validation/upload-pipeline.ts: the checks before the body, the reserved validation, the form
// and its one byte count), whose file goes into the one validation service
// (validation/service.ts, docs/decisions/080), which checks the schema once, streams the file into
// a worker, enforces the plan's limits as bytes and rows arrive, writes the report and stores the
// result. Anything that stops a validation before its result is stored gives back the reserved
// unit.

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
    const outcome = await receiveUpload(
      {
        app,
        request,
        reply,
        userId: user.id,
        maxBytes: plan.maxFileBytes,
        tooLarge: fileTooLarge,
        notMultipart: () => malformed('Send the schema and then the file as multipart/form-data.'),
        concurrency: {
          limit: plan.concurrentValidations,
          refuse: () => validationInProgress(user.subscriptionTier),
        },
        monthlyValidations: plan.monthlyValidations,
        messages: { noFile: 'The form has no file. Please upload a file first.' },
        schemaCheck: 'run',
      },
      (upload) =>
        runValidation(app, {
          source: upload.source,
          fileName: upload.fileName,
          schema: upload.schema,
          limits: {
            maxBytes: plan.maxFileBytes,
            maxRows: plan.maxRows,
            report: plan.reportExport,
          },
          signal: upload.signal,
          userId: user.id,
          beforeRecord: upload.finishForm,
          choice: upload.choice,
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
  });
}
