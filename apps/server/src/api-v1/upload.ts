import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { parseSchema, type ParsedSchema } from '../validation/service.ts';
import type { FormFile } from '../validation/upload-form.ts';
import { refuseDeclaredOverLimit, stopReading } from '../validation/upload-request.ts';
import { findOwnSchema, notFound, parsedFromRow } from './schemas-store.ts';

// What POST /v1/validate and POST /v1/jobs check before they read the body, and where their
// schema comes from: a saved one (?schema_id=…) or the form's `schema` field.

/** Messages for a v1 form without a schema or without a file. */
export const V1_FORM_MESSAGES = {
  noSchema:
    'Send a saved schema as ?schema_id=… or the schema as JSON text in a form field named schema.',
  noFile: 'The form has no file: send it in a field named file.',
};

export interface V1Upload {
  /** The saved schema's id; null when the form carries the schema. */
  schemaId: string | null;
  /** The schema to validate `file` against. */
  schemaOf: (file: FormFile) => Promise<ParsedSchema>;
}

/**
 * Refuses, before the body is read, a request that is not multipart, one whose declared length
 * is over `maxBytes`, and a schema_id this account does not own.
 */
export async function openV1Upload(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  o: {
    userId: string;
    schemaId: string | undefined;
    maxBytes: number | null;
    tooLarge: (limit: number) => Error;
  },
): Promise<V1Upload> {
  if (!request.isMultipart()) {
    stopReading(request, reply);
    throw new AppError('unsupported_media_type', {
      message: 'Send the file as multipart/form-data in a field named file.',
    });
  }
  refuseDeclaredOverLimit(request, reply, o.maxBytes, o.tooLarge);
  if (o.schemaId === undefined) {
    return {
      schemaId: null,
      schemaOf: (file) => parseSchema(app.validationPool, file.schemaText!),
    };
  }
  const row = await findOwnSchema(app.db, o.userId, o.schemaId);
  if (!row) {
    stopReading(request, reply);
    throw notFound();
  }
  const saved = parsedFromRow(row);
  return { schemaId: row.id, schemaOf: async () => saved };
}
