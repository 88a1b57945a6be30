import { openApiDocument, type ApiV1 } from '../openapi.ts';

// GET /api/v1/openapi.json: the public API's document, built on the first request from every route
// registered with v1.route() (so it is registered last), cached by clients for five minutes.

export default function openApiDocumentRoute(v1: ApiV1) {
  const { app } = v1;
  let document: Record<string, unknown> | null = null;
  app.get('/openapi.json', { config: { apiPublic: true } }, async (_request, reply) => {
    document ??= openApiDocument(v1, { appUrl: app.config.appUrl });
    reply.header('cache-control', 'public, max-age=300');
    return document;
  });
}
