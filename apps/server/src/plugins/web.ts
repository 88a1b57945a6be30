import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { apiNotFound } from './errors.ts';

// The built web app (WEB_DIST; docs/decisions/105, 106):
// - every public page is pre-rendered HTML (dist/prerender.json lists them), served from memory,
//   compressed (the build's .br/.gz when the page is served as built, else compressed once here),
//   with `cache-control: no-cache` and an ETag of what is sent;
// - what the build cannot know is put in when serving (decision 216), so that one build serves
//   any origin on any day and `npm start` never rebuilds for them: the build's origin in canonical
//   and Open Graph URLs becomes APP_URL's, and the legal pages' date placeholders become the
//   server's current day (UTC); such a page is made and compressed again when the day changes;
// - the signed-in app's routes (prerender.json's appRoutes) get the single-page app's shell;
// - /robots.txt and /sitemap.xml are written from the same list and the server's own origin;
// - files of the build come from @fastify/static with their precompressed copies; hashed
//   /assets/* are cached for a year, anything else revalidated;
// - anything else: /api/* and /healthz a JSON 404 (405 when another method serves the path), a
//   missing /assets/* file a plain 404, any other GET the 404 page with HTTP 404.
// Without a build, non-API URLs answer 503 with the command that makes one.

export const WEB_NOT_BUILT = 'Web app not built: run npm run build -w @schemacheck/web';

/** Written by the pre-render (apps/web/src/components/seo/build-date.ts), filled here. */
export const DATE_PLACEHOLDER = '__SCHEMACHECK_DATE_ISO__';
export const DATE_TEXT_PLACEHOLDER = '__SCHEMACHECK_DATE_TEXT__';

/** A day (YYYY-MM-DD) as the web app writes it: "24 November 2026". */
export function dateText(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** dist/prerender.json, written by apps/web/scripts/build.mjs. */
interface PrerenderManifest {
  origin: string;
  buildDate: string;
  pages: { path: string; file: string; noindex: boolean }[];
  notFound: string;
  shell: string;
  appRoutes: string[];
}

type Encoding = 'br' | 'gzip';

/** One HTML document and its compressed forms (made on first use when the build has none). */
class HtmlDocument {
  readonly etag: string;
  private readonly encoded = new Map<Encoding, Promise<Buffer>>();

  constructor(
    readonly body: Buffer,
    precompressed: Partial<Record<Encoding, Buffer>>,
  ) {
    this.etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    for (const [encoding, data] of Object.entries(precompressed) as [Encoding, Buffer][]) {
      this.encoded.set(encoding, Promise.resolve(data));
    }
  }

  as(encoding: Encoding): Promise<Buffer> {
    let data = this.encoded.get(encoding);
    if (!data) {
      data =
        encoding === 'br'
          ? brotli(this.body, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: this.body.length,
              },
            })
          : gzip(this.body, { level: 9 });
      this.encoded.set(encoding, data);
    }
    return data;
  }
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

function isApiPath(p: string): boolean {
  return (
    p === '/api' ||
    p.startsWith('/api/') ||
    p === '/healthz' ||
    p.startsWith('/healthz/') ||
    p === '/readyz'
  );
}

/** The best encoding the client accepts (brotli, then gzip), or null for identity. */
export function pickEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && !(Number(q.slice(2)) > 0)) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return null;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export default fp(
  async (app) => {
    const root = app.config.webDist;
    const origin = app.config.appUrl;
    const manifestFile = path.join(root, 'prerender.json');
    const built = existsSync(manifestFile);
    if (!built) app.log.warn({ webDist: root }, WEB_NOT_BUILT);

    app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
      const urlPath = request.url.split('?')[0] ?? '/';
      if (isApiPath(urlPath)) return apiNotFound(request, reply);
      if (request.method !== 'GET' && request.method !== 'HEAD') return apiNotFound(request, reply);
      if (!built) return reply.code(503).type('text/plain; charset=utf-8').send(WEB_NOT_BUILT);
      if (urlPath.startsWith('/assets/')) {
        return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
      }
      return notFoundPage(request, reply);
    });
    if (!built) return;

    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as PrerenderManifest;
    // The build wrote its own origin into canonical and Open Graph URLs; a server elsewhere
    // rewrites them (and compresses the result itself).
    const sameOrigin = manifest.origin === origin;
    const today = () => app.now().toISOString().slice(0, 10);
    /** A page as served: the build's file, or (origin, day) put in, made once per day. */
    const load = (file: string): (() => HtmlDocument) => {
      const full = path.join(root, file);
      const built = readFileSync(full, 'utf8');
      const text = sameOrigin ? built : built.replaceAll(manifest.origin, origin);
      if (!text.includes(DATE_PLACEHOLDER) && !text.includes(DATE_TEXT_PLACEHOLDER)) {
        // Served as built: the build's precompressed copies are this very text.
        const precompressed: Partial<Record<Encoding, Buffer>> = {};
        if (sameOrigin && existsSync(`${full}.br`)) precompressed.br = readFileSync(`${full}.br`);
        if (sameOrigin && existsSync(`${full}.gz`)) precompressed.gzip = readFileSync(`${full}.gz`);
        const doc = new HtmlDocument(Buffer.from(text), precompressed);
        return () => doc;
      }
      // The build's .br/.gz hold the placeholders: never sent; compressed here per day.
      let current: { day: string; doc: HtmlDocument } | undefined;
      return () => {
        const day = today();
        if (current?.day !== day) {
          const filled = text
            .replaceAll(DATE_PLACEHOLDER, day)
            .replaceAll(DATE_TEXT_PLACEHOLDER, dateText(day));
          current = { day, doc: new HtmlDocument(Buffer.from(filled), {}) };
        }
        return current.doc;
      };
    };
    const pages = new Map(manifest.pages.map((page) => [page.path, load(page.file)]));
    const notFound = load(manifest.notFound);
    const shell = load(manifest.shell);
    const appRoutes = new Set(manifest.appRoutes);

    async function sendHtml(
      request: FastifyRequest,
      reply: FastifyReply,
      page: () => HtmlDocument,
      status = 200,
    ): Promise<FastifyReply> {
      const doc = page();
      reply
        .code(status)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding')
        .header('etag', doc.etag);
      if (status === 200 && request.headers['if-none-match'] === doc.etag) {
        return reply.code(304).send();
      }
      const encoding = pickEncoding(request.headers['accept-encoding']);
      if (!encoding) return reply.send(doc.body);
      return reply.header('content-encoding', encoding).send(await doc.as(encoding));
    }

    /** A page's path with its trailing slashes, or null. */
    function withoutTrailingSlash(urlPath: string): string | null {
      const trimmed = urlPath.replace(/\/+$/, '');
      return trimmed && trimmed !== urlPath ? trimmed : null;
    }

    function notFoundPage(request: FastifyRequest, reply: FastifyReply) {
      return sendHtml(request, reply, notFound, 404);
    }

    // /help/ is /help: one URL per page (before @fastify/static, which would refuse the folder).
    app.addHook('onRequest', async (request, reply) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      const urlPath = request.url.split('?')[0] ?? '/';
      const trimmed = withoutTrailingSlash(urlPath);
      if (trimmed && (pages.has(trimmed) || appRoutes.has(trimmed))) {
        return reply.redirect(trimmed + request.url.slice(urlPath.length), 301);
      }
    });

    for (const [pagePath, doc] of pages) {
      app.get(pagePath, (request, reply) => sendHtml(request, reply, doc));
    }
    for (const route of appRoutes) {
      app.get(route, (request, reply) => sendHtml(request, reply, shell));
    }

    const robots = [
      'User-agent: *',
      'Allow: /',
      'Disallow: /api/',
      ...[...appRoutes].map((route) => `Disallow: ${route}`),
      '',
      `Sitemap: ${origin}/sitemap.xml`,
      '',
    ].join('\n');
    app.get('/robots.txt', (_request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(robots),
    );

    const sitemap = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ...manifest.pages
        .filter((page) => !page.noindex)
        .map(
          (page) =>
            `  <url><loc>${escapeXml(origin + page.path)}</loc><lastmod>${manifest.buildDate}</lastmod></url>`,
        ),
      '</urlset>',
      '',
    ].join('\n');
    app.get('/sitemap.xml', (_request, reply) =>
      reply
        .type('application/xml; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(sitemap),
    );

    await app.register(fastifyStatic, {
      root,
      wildcard: true,
      index: false,
      cacheControl: false,
      dotfiles: 'deny',
      preCompressed: true,
      // HTML goes through the routes above (the origin rewrite, the 404 status); the manifest
      // is the server's business.
      allowedPath: (pathName) =>
        !/\.(?:html|br|gz)$/.test(pathName) && pathName !== '/prerender.json',
      setHeaders(res, filePath) {
        const rel = path.relative(root, filePath);
        // Text files have .br/.gz copies: caches must key on the encoding asked for.
        res.setHeader('vary', 'accept-encoding');
        res.setHeader(
          'cache-control',
          rel.startsWith(`assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  },
  { name: 'web', dependencies: ['errors'] },
);
