import {
  formatBytes,
  formatCount,
  PLANS,
  SAMPLE_ERRORS,
  SYNC_MAX_BYTES,
  SYNC_MAX_ROWS,
  UPLOAD_FORMATS_TEXT,
  uploadQuerySchema,
  validateFormSchema,
  validateResultSchema,
  type ValidateResultV1,
  type ValidationErrorItem,
} from '@schemacheck/contracts';
import { parseSchema as parseSchemaValue } from '@schemacheck/engine';
import { AppError } from '../../errors.ts';
import {
  runValidation,
  type ParsedSchema,
  type UncheckedSchema,
} from '../../validation/service.ts';
import { choiceOf } from '../../validation/upload-form.ts';
import { receiveUpload } from '../../validation/upload-pipeline.ts';
import type { ApiV1 } from '../openapi.ts';
import { sampleError } from '../sample-errors.ts';
import { uploadLimitFor } from '../test-mode.ts';
import { v1UploadOptions } from '../upload.ts';

// POST /v1/validate: one file, validated synchronously (docs/decisions/086) through the same
// service and the same upload pipeline as the web upload. Up to SYNC_MAX_BYTES and SYNC_MAX_ROWS; one byte or one row more is
// 413 sync_limit pointing to /v1/jobs. The unit of the month is reserved before the body is read
// and given back if the run does not complete.

const JOBS_HINT = 'Submit it to POST /api/v1/jobs, which validates larger files asynchronously.';

export function syncLimitError(kind: 'bytes' | 'rows', limit: number): AppError {
  return new AppError('sync_limit', {
    message:
      kind === 'bytes'
        ? `This file is larger than ${formatBytes(limit)}, the limit of synchronous validation. ${JOBS_HINT}`
        : `This file has more than ${formatCount(limit)} rows, the limit of synchronous validation. ${JOBS_HINT}`,
    extra: { limit },
  });
}

/** The schema's columns (the run has checked it). */
function columnsOf(schema: ParsedSchema | UncheckedSchema): number {
  const parsed = parseSchemaValue('value' in schema ? schema.value : JSON.parse(schema.text));
  return parsed.ok ? parsed.value.fields.length : 0;
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
      description: `Validates a file (${UPLOAD_FORMATS_TEXT}) against a saved schema (\`schema_id\`) or an inline \`schema\` field, up to ${formatBytes(SYNC_MAX_BYTES)} and ${formatCount(SYNC_MAX_ROWS)} rows; larger files go to /v1/jobs. Counts one validation of the month. A file with errors is a 200 result with \`valid: false\`.`,
      query: uploadQuerySchema,
      multipart: validateFormSchema,
      responses: {
        200: { description: 'The result.', schema: validateResultSchema },
        400: {
          description:
            'No file, no schema, an empty file, a malformed form, a schema the engine refused, or a zip with several data files and no `entry` (or an unknown `entry` or `sheet`: invalid_upload).',
        },
        404: { description: 'No such schema_id for this account (not_found).' },
        413: {
          description:
            'Over the synchronous limits (sync_limit): use /v1/jobs. For gzip, zip and workbooks the limit applies to the decompressed data.',
        },
        415: {
          description:
            'Not multipart, or a file that is not read (unsupported_file): another format, an .xls or .xlsb, an encrypted workbook or zip, an archive inside an archive, or a zip bomb; the message gives the reason.',
        },
      },
      rowsAndBytes: true,
    },
    async ({ query, auth, request, reply }): Promise<ValidateResultV1> => {
      const plan = PLANS[auth.tier].limits;
      const { maxBytes: limitBytes, tooLarge } = uploadLimitFor(auth, {
        maxBytes: Math.min(plan.maxFileBytes ?? Infinity, SYNC_MAX_BYTES),
        tooLarge: (limit: number) => syncLimitError('bytes', limit),
      });
      const maxBytes = limitBytes!;
      const maxRows = Math.min(plan.maxRows ?? Infinity, SYNC_MAX_ROWS);
      const { outcome, columns } = await receiveUpload(
        {
          ...v1UploadOptions({
            app,
            request,
            reply,
            auth,
            schemaId: query.schema_id,
            maxBytes,
            tooLarge,
            monthlyValidations: plan.monthlyValidations,
          }),
          schemaCheck: 'run',
        },
        async (upload) => ({
          outcome: await runValidation(app, {
            source: upload.source,
            fileName: upload.fileName,
            schema: upload.schema,
            limits: { maxBytes, maxRows, report: plan.reportExport },
            signal: upload.signal,
            userId: auth.userId,
            ...(upload.schemaId ? { schemaId: upload.schemaId } : {}),
            // Bytes: the live or test-mode refusal chosen above; rows: always the sync limit.
            limitError: (kind, limit) =>
              kind === 'bytes' ? tooLarge(limit) : syncLimitError(kind, limit),
            beforeRecord: upload.finishForm,
            choice: choiceOf(query, upload.choice),
          }),
          columns: columnsOf(upload.schema),
        }),
      );
      const { result } = outcome;
      request.apiUsage = { rows: result.totalRows, bytes: outcome.bytes };
      return {
        valid: result.valid,
        error_count: result.errorCount,
        sample_errors: (result.errors as ValidationErrorItem[])
          .slice(0, SAMPLE_ERRORS)
          .map(sampleError),
        warning_count: result.warningCount ?? 0,
        sample_warnings: ((result.warningIssues ?? []) as ValidationErrorItem[])
          .slice(0, SAMPLE_ERRORS)
          .map(sampleError),
        stats: {
          rows: result.totalRows,
          columns,
          validated_in_ms: outcome.durationMs,
        },
        report_id: outcome.resultId,
        warnings: result.warnings.map(({ code, message }) => ({ code, message })),
        livemode: auth.livemode,
      };
    },
  );
}
