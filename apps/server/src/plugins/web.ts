import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { apiNotFound } from './errors.ts';

// The built web app (WEB_DIST) and what every unknown URL gets:
// - /api/* and /healthz: JSON 404, or 405 when another method serves the path;
// - a file of the build: the file (hashed /assets/* cached for a year, the rest revalidated);
// - a pre-rendered page (dist/<path>/index.html or dist/<path>.html): that page;
// - a missing /assets/* file: plain 404 (an HTML page there would only confuse the browser);
// - any other GET: index.html with 200, so client-side routes and the client-side 404 work.
// Without a build, non-API URLs answer 503 with the command that makes one.

export const WEB_NOT_BUILT = 'Web app not built: run npm run build -w @schemacheck/web';

function isApiPath(p: string): boolean {
  return p === '/api' || p.startsWith('/api/') || p === '/healthz' || p.startsWith('/healthz/');
}

export default fp(
  async (app) => {
    const root = app.config.webDist;
    const built = existsSync(path.join(root, 'index.html'));
    if (!built) app.log.warn({ webDist: root }, WEB_NOT_BUILT);

    if (built) {
      await app.register(fastifyStatic, {
        root,
        wildcard: true,
        index: ['index.html'],
        cacheControl: false,
        dotfiles: 'deny',
        setHeaders(res, filePath) {
          const rel = path.relative(root, filePath);
          res.setHeader(
            'cache-control',
            rel.startsWith(`assets${path.sep}`)
              ? 'public, max-age=31536000, immutable'
              : 'no-cache',
          );
        },
      });
    }

    /** A pre-rendered page for this path, relative to root, if the build has one. */
    function prerendered(urlPath: string): string | null {
      let decoded: string;
      try {
        decoded = decodeURIComponent(urlPath);
      } catch {
        return null;
      }
      const rel = path
        .normalize(decoded)
        .replace(/^[/\\]+/, '')
        .replace(/[/\\]+$/, '');
      if (!rel || rel.startsWith('..') || rel.includes('\0')) return null;
      for (const candidate of [path.join(rel, 'index.html'), `${rel}.html`]) {
        const abs = path.join(root, candidate);
        if (!abs.startsWith(root + path.sep)) continue;
        try {
          if (statSync(abs).isFile()) return candidate;
        } catch {
          // not there
        }
      }
      return null;
    }

    app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
      const urlPath = request.url.split('?')[0] ?? '/';
      if (isApiPath(urlPath)) return apiNotFound(request, reply);
      if (request.method !== 'GET' && request.method !== 'HEAD') return apiNotFound(request, reply);
      if (!built) return reply.code(503).type('text/plain; charset=utf-8').send(WEB_NOT_BUILT);
      if (urlPath.startsWith('/assets/')) {
        return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
      }
      return reply.sendFile(prerendered(urlPath) ?? 'index.html');
    });
  },
  { name: 'web', dependencies: ['errors'] },
);
