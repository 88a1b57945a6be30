import { reportJsonSchema, reportParamsSchema, reportQuerySchema } from '@schemacheck/contracts';
import { AppError } from '../../errors.ts';
import { sendCsvReport } from '../../validation/files.ts';
import { findOwnResult } from '../../validation/results.ts';
import { nameComponent, type ApiV1 } from '../openapi.ts';
import { reportJsonStream } from '../report-json.ts';

// GET /v1/reports/{report_id}: the full error report of a validation, owner only.

nameComponent(reportJsonSchema, 'Report');

export default function reportRoutes(v1: ApiV1) {
  const { app } = v1;

  v1.route(
    {
      method: 'GET',
      path: '/reports/{report_id}',
      operationId: 'getReport',
      tag: 'Validation',
      summary: 'Download a report',
      description:
        'Every error of a validation: as CSV (row, field, code, message, value, and path for JSON files; formula-like values are prefixed with an apostrophe so spreadsheets never run them), or with `format=json` the summary and every error as JSON. Reports are kept 90 days.',
      params: reportParamsSchema,
      query: reportQuerySchema,
      responses: {
        200: {
          description: 'The report.',
          content: {
            'text/csv': {
              schema: { type: 'string', description: 'RFC 4180, CRLF line ends, UTF-8.' },
            },
            'application/json': { schema: { $ref: '#/components/schemas/Report' } },
          },
        },
        404: { description: 'No such report for this account (not_found).' },
      },
    },
    async ({ params, query, auth, reply }) => {
      const row = await findOwnResult(app.db, auth.userId, params.report_id);
      if (!row) throw new AppError('not_found', { message: 'No such report' });
      const stream = row.reportKey ? await app.storage.get(row.reportKey) : null;
      if (query.format === 'json') {
        return reply
          .header('content-type', 'application/json; charset=utf-8')
          .send(reportJsonStream(row, stream));
      }
      return sendCsvReport(reply, row.fileName, stream);
    },
  );
}
