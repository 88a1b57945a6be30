import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { DATE_PLACEHOLDER, DATE_TEXT_PLACEHOLDER } from '../src/plugins/web.ts';
import { makeWebDist, removeTempDirs, startTestApp, type TestApp } from './helpers.ts';

// One web build serves any origin on any day (docs/decisions/216): `npm start` no longer
// rebuilds for a new PORT, APP_URL or day. The server puts the origin into canonical links and
// the day into the legal pages when it serves them; the build's precompressed copies are used
// only for a page served exactly as built.

/** A build (made for http://localhost:3000) with a legal page holding the date placeholders. */
function distWithLegalPage(): string {
  const dir = makeWebDist();
  const terms = `<!doctype html><title>Terms</title><link rel="canonical" href="http://localhost:3000/terms"><div id="root"><p>Last updated: <time data-site-date="" datetime="${DATE_PLACEHOLDER}">${DATE_TEXT_PLACEHOLDER}</time></p></div>`;
  mkdirSync(path.join(dir, 'terms'));
  writeFileSync(path.join(dir, 'terms', 'index.html'), terms);
  // The build's precompressed copies: of the placeholder text, never to be sent as they are.
  writeFileSync(path.join(dir, 'terms', 'index.html.br'), brotliCompressSync(terms));
  writeFileSync(path.join(dir, 'terms', 'index.html.gz'), gzipSync(terms));
  // The home page's copies are marked, to see when they are sent as built.
  writeFileSync(path.join(dir, 'index.html.br'), brotliCompressSync('AS BUILT'));
  const manifest = path.join(dir, 'prerender.json');
  writeFileSync(
    manifest,
    JSON.stringify({
      origin: 'http://localhost:3000',
      buildDate: '2026-01-02',
      pages: [
        { path: '/', file: 'index.html', noindex: false },
        { path: '/terms', file: 'terms/index.html', noindex: false },
      ],
      notFound: '404.html',
      shell: 'spa.html',
      appRoutes: ['/dashboard'],
    }),
  );
  return dir;
}

const apps: TestApp[] = [];
async function serve(env: Record<string, string>) {
  // One database for the three apps (the first one's, dropped when it closes, last).
  const db = apps[0]?.db;
  const t = await startTestApp({
    env: { WEB_DIST: distWithLegalPage(), ...env },
    ...(db ? { db } : {}),
  });
  apps.push(t);
  return t;
}
afterAll(async () => {
  for (const t of apps.reverse()) await t.close();
  removeTempDirs();
});

const canonical = (html: string) => /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];

describe('the pre-rendered pages, filled in when served', () => {
  it('another APP_URL than the build’s: canonical links carry the configured origin, no rebuild', async () => {
    const t = await serve({ APP_URL: 'https://validate.example.org', PORT: '4123' });
    for (const [url, expected] of [
      ['/', 'https://validate.example.org/'],
      ['/terms', 'https://validate.example.org/terms'],
    ]) {
      const plain = await t.app.inject({ url });
      expect(plain.statusCode).toBe(200);
      expect(canonical(plain.body)).toBe(expected);
      expect(plain.body).not.toContain('localhost:3000');
      // Compressed here from the rewritten page, not the build's copy.
      const br = await t.app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    }
    const robots = await t.app.inject({ url: '/robots.txt' });
    expect(robots.body).toContain('Sitemap: https://validate.example.org/sitemap.xml');
  });

  it('the legal pages show the server’s day, in the markup and the datetime, and change with it', async () => {
    const t = await serve({});
    t.clock.t = Date.parse('2026-03-10T23:59:00Z');
    const first = await t.app.inject({ url: '/terms' });
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain(
      '<time data-site-date="" datetime="2026-03-10">10 March 2026</time>',
    );
    expect(first.body).not.toContain('__SCHEMACHECK_');
    for (const [encoding, inflate] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const res = await t.app.inject({ url: '/terms', headers: { 'accept-encoding': encoding } });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(inflate(res.rawPayload).toString()).toBe(first.body);
    }
    // Revalidation: the same day is a 304, the next day a new page with a new ETag.
    const etag = first.headers.etag as string;
    const again = await t.app.inject({ url: '/terms', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    t.clock.advance(2 * 60_000);
    const next = await t.app.inject({ url: '/terms', headers: { 'if-none-match': etag } });
    expect(next.statusCode).toBe(200);
    expect(next.headers.etag).not.toBe(etag);
    expect(next.body).toContain('datetime="2026-03-11">11 March 2026</time>');
    expect(next.headers['cache-control']).toBe('no-cache');
  });

  it('a page served as built (same origin, no date) sends the build’s precompressed copy', async () => {
    const t = await serve({});
    const res = await t.app.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe('AS BUILT');
  });
});
