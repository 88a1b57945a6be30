import { reportJsonSchema, reportParamsSchema, reportQuerySchema } from '@schemacheck/contracts';
import { AppError } from '../../errors.ts';
import { rowOutputOf, sendRowOutput, type RowStream } from '../../reports/row-outputs.ts';
import { sendCsvReport } from '../../validation/files.ts';
import { findOwnResult } from '../../validation/results.ts';
import { nameComponent, type ApiV1 } from '../openapi.ts';
import { reportJsonStream } from '../report-json.ts';

// GET /v1/reports/{report_id}: the full error report of a validation, owner only; /valid and
// /invalid: the rows that passed and the rows that failed, in the input's form (decision 205).

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

  const rows = (stream: RowStream) => {
    const passed = stream === 'valid';
    v1.route(
      {
        method: 'GET',
        path: `/reports/{report_id}/${stream}`,
        operationId: passed ? 'getValidRows' : 'getInvalidRows',
        tag: 'Validation',
        summary: passed ? 'Download the valid rows' : 'Download the invalid rows',
        description: passed
          ? "The rows of the validated file that have no errors, as they were, streamed in the input's form: CSV (the header, then the rows, in the file's delimiter; UTF-8, CRLF) for CSV and Excel input (an .xlsx sheet comes back as CSV), a JSON array or NDJSON for JSON input. A gzip or zip input comes back uncompressed. Warnings never make a row invalid. Kept with the report, 90 days; 404 for a validation stored without its full report."
          : "The rows of the validated file that have errors, streamed in the input's form: for CSV and Excel input the header plus an `errors` column (`field: message; …`), each row as it was (a row that could not be cut into cells is in the first column); for JSON the records as they were, an array or NDJSON (a record that could not be parsed has no value and is left out). Kept with the report, 90 days; 404 for a validation stored without its full report.",
        params: reportParamsSchema,
        responses: {
          200: {
            description: passed ? 'The valid rows.' : 'The invalid rows.',
            content: {
              'text/csv': {
                schema: {
                  type: 'string',
                  description: 'CSV and Excel input: RFC 4180, CRLF line ends, UTF-8.',
                },
              },
              'application/json': {
                schema: {
                  type: 'array',
                  items: {},
                  description: 'A JSON array input: its records, as an array.',
                },
              },
              'application/x-ndjson': {
                schema: {
                  type: 'string',
                  description: 'NDJSON (JSON Lines) input: one record per line.',
                },
              },
            },
          },
          404: {
            description: 'No such report for this account, or no rows kept for it (not_found).',
          },
        },
      },
      async ({ params, auth, reply }) => {
        const row = await findOwnResult(app.db, auth.userId, params.report_id);
        if (!row) throw new AppError('not_found', { message: 'No such report' });
        return sendRowOutput(reply, app.storage, rowOutputOf(row), stream);
      },
    );
  };
  rows('valid');
  rows('invalid');
}
