import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';
import { assertFeature, hasFeature } from '../plans.ts';
import { requireUser } from '../plugins/session.ts';
import { sendCsvReport } from '../validation/files.ts';
import { findOwnResult, toResponse } from '../validation/results.ts';

// GET /api/validation-results/:id and its full CSV report (docs/decisions/034). Only the owner
// sees either; another user's, an unknown and an ill-formed id are the same 404 (docs/decisions/034-report-download-headers.md).

export default async function resultRoutes(app: FastifyInstance) {
  app.get<{ Params: { id: string } }>(
    '/api/validation-results/:id',
    { onRequest: requireUser },
    async (request) => {
      const user = request.auth!.user;
      const row = await findOwnResult(app.db, user.id, request.params.id);
      if (!row) throw new AppError('not_found', { message: 'No such validation result' });
      return toResponse(row, hasFeature(user.subscriptionTier, 'reportExport'));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/validation-results/:id/error-report',
    { onRequest: requireUser },
    async (request, reply) => {
      const user = request.auth!.user;
      const row = await findOwnResult(app.db, user.id, request.params.id);
      if (!row) throw new AppError('not_found', { message: 'No such validation result' });
      assertFeature(user.subscriptionTier, 'reportExport');
      const stream = row.reportKey ? await app.storage.get(row.reportKey) : null;
      return sendCsvReport(reply, row.fileName, stream);
    },
  );
}
