import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Reservation } from './quota.ts';
import { parseSchema, type ParsedSchema, type UncheckedSchema } from './service.ts';
import { withUploadForm } from './upload-form.ts';
import { refuseDeclaredOverLimit, stopReading, withReservedUpload } from './upload-request.ts';

// The one upload pipeline (docs/decisions/187), used by POST /api/validate, POST /api/v1/validate
// and POST /api/v1/jobs. A route says what differs (its limits and their refusals, where the
// schema comes from, the concurrency slot of the web) and gets one call with the file:
//
//   1. before the body: not multipart → refused; a declared length over the limit → refused;
//      the saved schema (schema_id) looked up; the web's concurrency slot taken. Each refusal
//      stops reading the body (upload-request.ts) so that the answer reaches the client.
//   2. the month's validation reserved (given back unless the route's call returns), and a
//      signal that aborts when the client goes away (upload-request.ts).
//   3. the multipart form read (upload-form.ts): the file is counted once as it arrives
//      (byte-counter.ts), streamed, or spooled until its schema comes.
//   4. the schema: the saved one, or the form's text, parsed once: by the validation run itself
//      (`schemaCheck: 'run'`), or here before the file is read (`'now'`, for a job that runs
//      later).
//   5. the route's call, with the counted file, its schema and the signal.

export interface UploadPipelineOptions {
  app: FastifyInstance;
  request: FastifyRequest;
  reply: FastifyReply;
  userId: string;
  /** The file's byte limit (null: none); one byte more is refused with `tooLarge(limit)`. */
  maxBytes: number | null;
  tooLarge: (limit: number) => Error;
  /** The refusal of a request that is not multipart/form-data. */
  notMultipart: () => Error;
  /**
   * The saved schema the request names (schema_id), read before the body; it throws its own
   * refusal (not found). Absent: the form carries the schema.
   */
  savedSchema?: (() => Promise<{ id: string; schema: ParsedSchema }>) | undefined;
  /** The user's concurrent validations (the web): a slot is held for the whole upload. */
  concurrency?: { limit: number | null; refuse: () => Error };
  /** The month's validations of the plan (null: unlimited). */
  monthlyValidations: number | null;
  /** False for a test-mode API key: nothing is reserved or counted (docs/decisions/174). */
  countsAgainstQuota?: boolean;
  /** Undoes what a failed upload left behind (a stored job upload). */
  cleanUp?: () => Promise<void>;
  /** Messages for a form without a schema or without a file. */
  messages?: { noSchema?: string; noFile?: string };
  /**
   * When a form's schema is parsed: 'run' by the validation run, before it reads the file (the
   * synchronous routes); 'now' as soon as the form has given it (a job, validated later).
   */
  schemaCheck: 'run' | 'now';
}

export interface ReceivedUpload<S> {
  /** The file's bytes, counted against the limit as they arrive. */
  source: AsyncIterable<Uint8Array>;
  /** The file name as the client sent it. */
  fileName: string;
  /** The saved schema's id; null when the form carried the schema. */
  schemaId: string | null;
  schema: S;
  /** `sheet` and `entry` form fields sent before the file. */
  choice: { sheet?: string; entry?: string };
  /** Reads the rest of the form, refusing a second file or schema. */
  finishForm: () => Promise<void>;
  /** Bytes of the file received so far (all of them once `source` has ended). */
  bytes: () => number;
  /** Aborts when the client goes away before the body ended. */
  signal: AbortSignal;
  /** The month's reserved validation; null for a test-mode key. */
  reservation: Reservation | null;
}

type SchemaOf<O> = O extends { schemaCheck: 'now' } ? ParsedSchema : ParsedSchema | UncheckedSchema;

/** Runs an upload through the pipeline; `handle` gets the file once, its result is the answer. */
export async function receiveUpload<O extends UploadPipelineOptions, T>(
  o: O,
  handle: (upload: ReceivedUpload<SchemaOf<O>>) => Promise<T>,
): Promise<T> {
  const { app, request, reply } = o;
  if (!request.isMultipart()) {
    stopReading(request, reply);
    throw o.notMultipart();
  }
  refuseDeclaredOverLimit(request, reply, o.maxBytes, o.tooLarge);
  let saved: { id: string; schema: ParsedSchema } | null = null;
  if (o.savedSchema) {
    try {
      saved = await o.savedSchema();
    } catch (err) {
      stopReading(request, reply);
      throw err;
    }
  }
  let release: (() => void) | null = null;
  if (o.concurrency) {
    release = app.runningValidations.acquire(o.userId, o.concurrency.limit);
    if (!release) {
      stopReading(request, reply);
      throw o.concurrency.refuse();
    }
  }
  try {
    return await withReservedUpload(
      {
        app,
        request,
        reply,
        userId: o.userId,
        monthlyValidations: o.monthlyValidations,
        ...(o.countsAgainstQuota !== undefined ? { countsAgainstQuota: o.countsAgainstQuota } : {}),
        ...(o.cleanUp ? { cleanUp: o.cleanUp } : {}),
      },
      (signal, reservation) =>
        withUploadForm({
          request,
          storage: app.storage,
          userId: o.userId,
          signal,
          maxFileBytes: o.maxBytes,
          tooLarge: o.tooLarge,
          schemaInForm: saved === null,
          ...(o.messages ? { messages: o.messages } : {}),
          run: async (file) => {
            // The form's text is non-null here: upload-form.ts refuses a form without it.
            const schema: ParsedSchema | UncheckedSchema = saved
              ? saved.schema
              : o.schemaCheck === 'now'
                ? await parseSchema(app.validationPool, file.schemaText!)
                : { text: file.schemaText! };
            return handle({
              source: file.source,
              fileName: file.fileName,
              schemaId: saved?.id ?? null,
              schema: schema as SchemaOf<O>,
              choice: file.choice,
              finishForm: file.finishForm,
              bytes: file.bytes,
              signal,
              reservation,
            });
          },
        }),
    );
  } finally {
    release?.();
  }
}
