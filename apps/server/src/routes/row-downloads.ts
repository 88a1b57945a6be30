import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';
import { assertFeature } from '../plans.ts';
import { requireUser } from '../plugins/session.ts';
import { ROW_STREAMS, rowOutputOf, sendRowOutput } from '../reports/row-outputs.ts';
import { findOwnResult } from '../validation/results.ts';

// GET /api/validation-results/:id/valid-rows and /invalid-rows: the web's downloads of the rows
// that passed and the rows that failed, kept with the full report (docs/decisions/205). Owner
// only, on the plans with the full report, like the report itself (routes/results.ts).

export default async function rowDownloadRoutes(app: FastifyInstance) {
  for (const which of ROW_STREAMS) {
    app.get<{ Params: { id: string } }>(
      `/api/validation-results/:id/${which}-rows`,
      { onRequest: requireUser },
      async (request, reply) => {
        const user = request.auth!.user;
        const row = await findOwnResult(app.db, user.id, request.params.id);
        if (!row) throw new AppError('not_found', { message: 'No such validation result' });
        assertFeature(user.subscriptionTier, 'rowDownloads');
        return sendRowOutput(reply, app.storage, rowOutputOf(row), which);
      },
    );
  }
}
