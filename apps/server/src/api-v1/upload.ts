import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { findOwnSchema, notFound, parsedFromRow } from '../schemas/store.ts';
import type { UploadPipelineOptions } from '../validation/upload-pipeline.ts';
import type { ApiAuth } from './auth.ts';

// What POST /v1/validate and POST /v1/jobs put into the one upload pipeline
// (validation/upload-pipeline.ts): their refusal of a body that is not multipart, their form
// messages, where their schema comes from (a saved one, ?schema_id=…, or the form's `schema`
// field), and the month's validation that a test-mode key never counts.

/** Messages for a v1 form without a schema or without a file. */
export const V1_FORM_MESSAGES = {
  noSchema:
    'Send a saved schema as ?schema_id=… or the schema as JSON text in a form field named schema.',
  noFile: 'The form has no file: send it in a field named file.',
};

/** The pipeline's options for a /v1 upload; the route adds when its schema is parsed. */
export function v1UploadOptions(o: {
  app: FastifyInstance;
  request: FastifyRequest;
  reply: FastifyReply;
  auth: ApiAuth;
  /** ?schema_id=…; undefined: the form carries the schema. */
  schemaId: string | undefined;
  maxBytes: number | null;
  tooLarge: (limit: number) => Error;
  monthlyValidations: number | null;
}): Omit<UploadPipelineOptions, 'schemaCheck'> {
  const { app, auth, schemaId } = o;
  return {
    app,
    request: o.request,
    reply: o.reply,
    userId: auth.userId,
    maxBytes: o.maxBytes,
    tooLarge: o.tooLarge,
    notMultipart: () =>
      new AppError('unsupported_media_type', {
        message: 'Send the file as multipart/form-data in a field named file.',
      }),
    savedSchema:
      schemaId === undefined
        ? undefined
        : async () => {
            const row = await findOwnSchema(app.db, auth.userId, schemaId);
            if (!row) throw notFound();
            return { id: row.id, schema: parsedFromRow(row) };
          },
    monthlyValidations: o.monthlyValidations,
    countsAgainstQuota: auth.livemode,
    messages: V1_FORM_MESSAGES,
  };
}
