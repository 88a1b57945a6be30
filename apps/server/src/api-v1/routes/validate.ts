import {
  PLANS,
  SAMPLE_ERRORS,
  SYNC_MAX_BYTES,
  SYNC_MAX_ROWS,
  uploadQuerySchema,
  validateFormSchema,
  validateResultSchema,
  type ValidateResultV1,
  type ValidationErrorItem,
} from '@schemacheck/contracts';
import { parseSchema as parseSchemaValue } from '@schemacheck/engine';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { formatBytes } from '../../validation/limits.ts';
import { releaseValidation, reserveOrRefuse, type Reservation } from '../../validation/quota.ts';
import {
  parseSchema,
  runValidation,
  ValidationAborted,
  type ParsedSchema,
} from '../../validation/service.ts';
import { SCHEMA_FIELD_MAX, withUploadForm } from '../../validation/upload-form.ts';
import type { ApiV1 } from '../openapi.ts';
import { findOwnSchema, notFound, parsedFromRow } from '../schemas-store.ts';

// POST /v1/validate: one file, validated synchronously (docs/decisions/086) through the same
// service as the web upload. Up to SYNC_MAX_BYTES and SYNC_MAX_ROWS; one byte or one row more is
// 413 sync_limit pointing to /v1/jobs. The unit of the month is reserved before the body is read
// and given back if the run does not complete.

const MULTIPART_SLACK = 64 * 1024;
const JOBS_HINT = 'Submit it to POST /api/v1/jobs, which validates larger files asynchronously.';

export function syncLimitError(kind: 'bytes' | 'rows', limit: number): AppError {
  return new AppError('sync_limit', {
    message:
      kind === 'bytes'
        ? `This file is larger than ${formatBytes(limit)}, the limit of synchronous validation. ${JOBS_HINT}`
        : `This file has more than ${limit.toLocaleString('en-GB')} rows, the limit of synchronous validation. ${JOBS_HINT}`,
    extra: { limit },
  });
}

function columnsOf(schema: ParsedSchema): number {
  const parsed = parseSchemaValue(schema.value);
  return parsed.ok ? parsed.value.fields.length : 0;
}

function discardBody(request: FastifyRequest, reply: FastifyReply): void {
  if (request.raw.complete) return;
  reply.header('connection', 'close');
  request.raw.unpipe();
  request.raw.resume();
}

export default function validateRoutes(v1: ApiV1) {
  const { app } = v1;

  v1.route(
    {
      method: 'POST',
      path: '/validate',
      operationId: 'validateFile',
      tag: 'Validation',
      summary: 'Validate a file',
      description: `Validates a CSV or JSON file against a saved schema (\`schema_id\`) or an inline \`schema\` field, up to ${formatBytes(SYNC_MAX_BYTES)} and ${SYNC_MAX_ROWS.toLocaleString('en-GB')} rows; larger files go to /v1/jobs. Counts one validation of the month. A file with errors is a 200 result with \`valid: false\`.`,
      query: uploadQuerySchema,
      multipart: validateFormSchema,
      responses: {
        200: { description: 'The result.', schema: validateResultSchema },
        400: {
          description:
            'No file, no schema, an empty file, a malformed form, or a schema the engine refused.',
        },
        404: { description: 'No such schema_id for this account (not_found).' },
        413: { description: 'Over the synchronous limits (sync_limit): use /v1/jobs.' },
        415: { description: 'Not multipart, or not a CSV or JSON file (unsupported_file).' },
      },
      rowsAndBytes: true,
    },
    async ({ query, auth, request, reply }): Promise<ValidateResultV1> => {
      if (!request.isMultipart()) {
        discardBody(request, reply);
        throw new AppError('unsupported_media_type', {
          message: 'Send the file as multipart/form-data in a field named file.',
        });
      }
      const plan = PLANS[auth.tier].limits;
      const maxBytes = Math.min(plan.maxFileBytes ?? Infinity, SYNC_MAX_BYTES);
      const maxRows = Math.min(plan.maxRows ?? Infinity, SYNC_MAX_ROWS);
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes + SCHEMA_FIELD_MAX + MULTIPART_SLACK) {
        discardBody(request, reply);
        throw syncLimitError('bytes', maxBytes);
      }
      let saved: ParsedSchema | null = null;
      let schemaId: string | undefined;
      if (query.schema_id !== undefined) {
        const row = await findOwnSchema(app.db, auth.userId, query.schema_id);
        if (!row) {
          discardBody(request, reply);
          throw notFound();
        }
        saved = parsedFromRow(row);
        schemaId = row.id;
      }

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
        reservation = await reserveOrRefuse(
          app.db,
          auth.userId,
          plan.monthlyValidations,
          app.now(),
        );
        const outcome = await withUploadForm({
          request,
          storage: app.storage,
          userId: auth.userId,
          signal: abort.signal,
          maxFileBytes: maxBytes,
          tooLarge: (limit) => syncLimitError('bytes', limit),
          schemaInForm: saved === null,
          messages: {
            noSchema:
              'Send a saved schema as ?schema_id=… or the schema as JSON text in a form field named schema.',
            noFile: 'The form has no file: send it in a field named file.',
          },
          run: async (file) => {
            const schema = saved ?? (await parseSchema(app.validationPool, file.schemaText!));
            const outcome = await runValidation(app, {
              source: file.source,
              fileName: file.fileName,
              schema,
              limits: { maxBytes, maxRows, report: plan.reportExport },
              signal: abort.signal,
              userId: auth.userId,
              ...(schemaId ? { schemaId } : {}),
              limitError: syncLimitError,
              beforeRecord: file.finishForm,
            });
            return { outcome, columns: columnsOf(schema) };
          },
        });
        completed = true;
        const { result } = outcome.outcome;
        request.apiUsage = { rows: result.totalRows, bytes: outcome.outcome.bytes };
        return {
          valid: result.valid,
          error_count: result.errorCount,
          sample_errors: (result.errors as ValidationErrorItem[])
            .slice(0, SAMPLE_ERRORS)
            .map((e) => ({
              row: e.row,
              column: e.field,
              code: e.code,
              message: e.message,
              value: e.value,
              ...(e.path !== undefined ? { path: e.path } : {}),
            })),
          stats: {
            rows: result.totalRows,
            columns: outcome.columns,
            validated_in_ms: outcome.outcome.durationMs,
          },
          report_id: outcome.outcome.resultId,
          warnings: result.warnings.map(({ code, message }) => ({ code, message })),
        };
      } catch (err) {
        if (err instanceof ValidationAborted) {
          throw new AppError('validation', { message: 'The upload was aborted' });
        }
        discardBody(request, reply);
        throw err;
      } finally {
        request.raw.off('close', onClose);
        request.raw.off('end', onEnd);
        if (reservation && !completed) {
          await releaseValidation(app.db, reservation).catch((err: unknown) =>
            request.log.error({ err }, 'Could not release a reserved validation'),
          );
        }
      }
    },
  );
}
