import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DESKTOP, launchBrowser, newTestContext, PHONE } from './support/browser.ts';
import { startMailCatcher, type MailCatcher } from './support/smtp.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { ensureWebBuild } from './support/web-build.ts';
import { screenshot } from './support/workspace.ts';

// The public site (docs/decisions/105-107): what a search engine gets without JavaScript (every
// page's H1, title, description, canonical URL and JSON-LD; links that lead somewhere; a real 404;
// robots.txt and sitemap.xml; compression and caching), then what a visitor gets in Chromium
// (the pre-rendered page hydrated in place, no serious or critical axe violation, no sideways
// scrolling from 320 to 1280 px) and screenshots of every page at 1280 and 390 px.

const PUBLIC_PATHS = [
  '/',
  '/csv-validator',
  '/json-validator',
  '/csv-schema-validator',
  '/json-schema-validator',
  '/validation-api',
  '/csv-upload-errors',
  '/json-validation-errors',
  '/templates',
  '/compare',
  '/industries',
  '/buying-guide',
  '/help',
  '/api-docs',
  '/api-docs/reference',
  '/privacy',
  '/terms',
  '/auth',
  '/forgot-password',
];
const NOT_FOUND_PATH = '/no-such-page-here';

/** Structured data each page must carry (at least). */
const EXPECTED_JSON_LD: Record<string, string[]> = {
  '/': ['SoftwareApplication', 'HowTo', 'FAQPage', 'WebSite'],
  '/csv-schema-validator': ['BreadcrumbList', 'FAQPage'],
  '/json-schema-validator': ['BreadcrumbList', 'FAQPage'],
  '/validation-api': ['BreadcrumbList', 'FAQPage'],
};

const WIDTHS = [320, 390, 768, 1280];

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

let mail: MailCatcher;
let server: RunningServer;

interface RawPage {
  status: number;
  headers: Headers;
  html: string;
}
const raw = new Map<string, RawPage>();

async function get(path: string, init: RequestInit = {}): Promise<RawPage> {
  const response = await fetch(server.baseUrl + path, { redirect: 'manual', ...init });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

function textOf(html: string): string {
  return decodeEntities(html.replace(/<[^>]+>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

function attr(html: string, tag: RegExp, name: string): string | undefined {
  const element = html.match(tag)?.[0];
  const value = element?.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];
  return value === undefined ? undefined : decodeEntities(value);
}

/** The markup the browser will hydrate: everything inside #root. */
function rootOf(html: string): string {
  const start = html.indexOf('<div id="root"');
  return start < 0 ? '' : html.slice(start);
}

function jsonLdBlocks(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1] ?? '') as unknown,
  );
}

function typesOf(block: unknown): string[] {
  const type = (block as { '@type'?: unknown })['@type'];
  return Array.isArray(type) ? type.map(String) : type ? [String(type)] : [];
}

beforeAll(async () => {
  ensureWebBuild();
  mail = await startMailCatcher();
  server = await startServer({ smtpUrl: mail.url });
  for (const path of [...PUBLIC_PATHS, NOT_FOUND_PATH]) raw.set(path, await get(path));
});

afterAll(async () => {
  await server?.stop();
  await mail?.close();
});

describe('the pre-rendered HTML, without JavaScript', () => {
  it.each(PUBLIC_PATHS)(
    '%s has its H1, title, description, canonical URL and social tags',
    (path) => {
      const page = raw.get(path)!;
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const root = rootOf(page.html);
      expect(root).toContain(`data-prerendered="${path}"`);
      const h1s = [...root.matchAll(/<h1[^>]*>([\s\S]*?)<\/h1>/g)].map((m) => textOf(m[1] ?? ''));
      expect(h1s).toHaveLength(1);
      expect(h1s[0]!.length).toBeGreaterThan(3);
      const title = textOf(page.html.match(/<title>([\s\S]*?)<\/title>/)?.[1] ?? '');
      expect(title).toContain('SchemaCheck');
      expect(page.html.match(/<title>/g)).toHaveLength(1);
      const description = attr(page.html, /<meta name="description"[^>]*>/, 'content') ?? '';
      expect(description.length).toBeGreaterThan(40);
      expect(attr(page.html, /<link rel="canonical"[^>]*>/, 'href')).toBe(server.baseUrl + path);
      expect(attr(page.html, /<meta property="og:url"[^>]*>/, 'content')).toBe(
        server.baseUrl + path,
      );
      expect(attr(page.html, /<meta property="og:title"[^>]*>/, 'content')).toBe(title);
      expect(attr(page.html, /<meta property="og:image"[^>]*>/, 'content')).toBe(
        `${server.baseUrl}/og-image.png`,
      );
      expect(attr(page.html, /<meta name="twitter:card"[^>]*>/, 'content')).toBe(
        'summary_large_image',
      );
      // The strict CSP allows no inline script: the only <script> elements are the module entry
      // and JSON-LD data.
      for (const script of page.html.match(/<script[^>]*>/g) ?? []) {
        expect(script).toMatch(/type="module"[^>]* src="\/assets\/|type="application\/ld\+json"/);
      }
    },
  );

  it('a page paints from its document alone: the script it references before paint is small', async () => {
    // Decision 108: the app's code (about 125 KiB compressed) and the page's chunks are requested
    // after the first paint, so on a slow connection nothing competes with the document.
    for (const path of PUBLIC_PATHS) {
      const html = raw.get(path)!.html;
      expect(html, path).not.toMatch(/<link rel="stylesheet"/);
      const urls = [
        ...html.matchAll(
          /<(?:script type="module"|link rel="modulepreload")[^>]* (?:src|href)="([^"]+)"/g,
        ),
      ].map((match) => match[1]!);
      let bytes = 0;
      for (const url of urls)
        bytes += (await (await fetch(server.baseUrl + url)).arrayBuffer()).byteLength;
      expect(bytes, `${path}: ${urls.join(', ')}`).toBeLessThan(8 * 1024);
      expect(rootOf(html), path).toMatch(/data-preload="\/assets\/[^"]+\.js/);
    }
  });

  it('every JSON-LD block parses, names schema.org and has the expected @type', () => {
    for (const path of PUBLIC_PATHS) {
      const blocks = jsonLdBlocks(raw.get(path)!.html);
      const types = blocks.flatMap(typesOf);
      for (const block of blocks) {
        expect((block as { '@context'?: string })['@context'], path).toMatch(
          /^https:\/\/schema\.org\/?$/,
        );
        expect(typesOf(block).length, path).toBeGreaterThan(0);
      }
      for (const expected of EXPECTED_JSON_LD[path] ?? []) expect(types, path).toContain(expected);
    }
    const home = jsonLdBlocks(raw.get('/')!.html) as Record<string, unknown>[];
    const app = home.find((block) => typesOf(block).includes('SoftwareApplication'))!;
    const offers = ([] as { priceCurrency?: string }[]).concat(
      (app.offers as { priceCurrency?: string }[]) ?? [],
    );
    expect(offers.length).toBeGreaterThan(0);
    for (const offer of offers) expect(offer.priceCurrency).toBe('GBP');
    const site = home.find((block) => typesOf(block).includes('WebSite'))!;
    expect(JSON.stringify(site.potentialAction)).toContain('SearchAction');
  });

  it('no internal link is broken (a crawl from / over the pre-rendered HTML)', async () => {
    const seen = new Map<string, RawPage>();
    const queue = ['/'];
    const anchors: { from: string; path: string; id: string }[] = [];
    const broken: string[] = [];
    while (queue.length) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      const page = raw.get(path) ?? (await get(path));
      seen.set(path, page);
      if (page.status !== 200) {
        broken.push(`${path}: HTTP ${page.status}`);
        continue;
      }
      if (!(page.headers.get('content-type') ?? '').startsWith('text/html')) continue;
      for (const match of rootOf(page.html).matchAll(/<a\s[^>]*href="([^"]*)"/g)) {
        const href = decodeEntities(match[1] ?? '');
        if (/^(?:[a-z]+:|\/\/)/i.test(href)) continue;
        const url = new URL(href, server.baseUrl + path);
        if (url.pathname.startsWith('/api/')) continue;
        if (url.hash.length > 1) {
          anchors.push({
            from: path,
            path: url.pathname,
            id: decodeURIComponent(url.hash.slice(1)),
          });
        }
        if (!seen.has(url.pathname)) queue.push(url.pathname);
      }
    }
    for (const { from, path, id } of anchors) {
      const target = seen.get(path);
      if (target?.status === 200 && !target.html.includes(`id="${id}"`)) {
        broken.push(`${from} links to ${path}#${id}, which has no such id`);
      }
    }
    expect(broken).toEqual([]);
    // The crawl reaches every public page from the home page.
    for (const path of PUBLIC_PATHS) expect([...seen.keys()], path).toContain(path);
  });

  it('/api-docs: every cURL sample has the absolute API URL, so a copied line works', () => {
    const text = textOf(rootOf(raw.get('/api-docs')!.html));
    const base = `${server.baseUrl}/api/v1`;
    for (const path of ['/usage', '/schemas', '/validate', '/jobs', '/webhooks']) {
      expect(text).toContain(`"${base}${path}`);
    }
    expect(text).not.toMatch(/curl [^"]*"\/api\/v1/);
  });

  it('an unknown path is HTTP 404 with the 404 page, noindex', () => {
    const page = raw.get(NOT_FOUND_PATH)!;
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(textOf(page.html.match(/<h1[^>]*>([\s\S]*?)<\/h1>/)?.[1] ?? '')).toBe('Page Not Found');
    expect(page.html).toContain('Return Home');
    expect(page.html).toMatch(/<meta name="robots" content="noindex/);
    expect(page.html).not.toContain('rel="canonical"');
  });

  it('the signed-in app stays a single-page app: its routes get the empty shell', async () => {
    for (const path of ['/dashboard', '/profile', '/stripe/success', '/reset-password']) {
      const page = await get(path);
      expect(page.status, path).toBe(200);
      expect(page.html, path).toContain('<div id="root"></div>');
    }
  });

  it('robots.txt and sitemap.xml list the public site, with lastmod', async () => {
    const robots = await get('/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(robots.html).toContain('User-agent: *');
    expect(robots.html).toContain('Disallow: /api/');
    expect(robots.html).toContain('Disallow: /dashboard');
    expect(robots.html).toContain(`Sitemap: ${server.baseUrl}/sitemap.xml`);

    const sitemap = await get('/sitemap.xml');
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers.get('content-type')).toMatch(/^application\/xml/);
    const entries = [
      ...sitemap.html.matchAll(/<url><loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod><\/url>/g),
    ].map((m) => ({ loc: m[1]!, lastmod: m[2]! }));
    const indexable = PUBLIC_PATHS.filter(
      (path) => !/<meta name="robots" content="noindex/.test(raw.get(path)!.html),
    );
    expect(entries.map((e) => e.loc).sort()).toEqual(
      indexable.map((path) => server.baseUrl + path).sort(),
    );
    for (const { lastmod } of entries) expect(lastmod).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('compresses pages and assets; hashed assets are immutable, pages revalidated', async () => {
    const page = await fetch(`${server.baseUrl}/`, { headers: { 'accept-encoding': 'br' } });
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('vary')).toMatch(/accept-encoding/i);
    const etag = page.headers.get('etag')!;
    const again = await fetch(`${server.baseUrl}/`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);

    const script = raw.get('/')!.html.match(/<script type="module" crossorigin src="([^"]+)"/)![1]!;
    for (const encoding of ['br', 'gzip']) {
      const asset = await fetch(server.baseUrl + script, {
        headers: { 'accept-encoding': encoding },
      });
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-encoding')).toBe(encoding);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.get('content-type')).toMatch(/javascript/);
    }
    const sitemap = await fetch(`${server.baseUrl}/sitemap.xml`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(sitemap.headers.get('content-encoding')).toBe('gzip');
  });
});

describe('the public site in Chromium', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await newTestContext(browser, server.baseUrl, DESKTOP);
    // Before any script of the page: note every node React removes from the pre-rendered #root
    // (a failed hydration throws the server's markup away and renders again).
    await context.addInitScript(() => {
      const w = window as unknown as { __rootRemovals: number };
      w.__rootRemovals = 0;
      new MutationObserver((records) => {
        for (const record of records) {
          if ((record.target as Element).id === 'root')
            w.__rootRemovals += record.removedNodes.length;
        }
      }).observe(document, { childList: true, subtree: true });
    });
    page = await context.newPage();
    // DevTools issues: a CSP violation (an inline script, an eval) is reported here even when
    // nothing reaches the console.
    const cdp = await context.newCDPSession(page);
    cdp.on('Audits.issueAdded', ({ issue }) => {
      if (issue.code === 'ContentSecurityPolicyIssue') {
        problems.push(`CSP: ${JSON.stringify(issue.details.contentSecurityPolicyIssueDetails)}`);
      }
    });
    await cdp.send('Audits.enable');
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      // The 404 page's own status and the signed-out /api/auth/me (401) are expected.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
        problems.push(`console: ${message.text()}`);
      }
    });
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it.each([...PUBLIC_PATHS, NOT_FOUND_PATH])(
    '%s hydrates in place, passes axe, does not scroll sideways; screenshots',
    async (path) => {
      problems.length = 0;
      await page.setViewportSize(DESKTOP);
      await page.goto(path, { waitUntil: 'networkidle' });
      // Hydrated: React owns the pre-rendered H1, and never removed what the server sent.
      await page.waitForFunction(() => {
        const h1 = document.querySelector('h1');
        return Boolean(h1 && Object.keys(h1).some((key) => key.startsWith('__reactFiber')));
      });
      expect(
        await page.evaluate(() => (window as unknown as { __rootRemovals: number }).__rootRemovals),
      ).toBe(0);
      expect(problems).toEqual([]);

      await page.evaluate(axeSource);
      const violations = await page.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: {
              run: (
                context: Document,
                options: object,
              ) => Promise<{
                violations: { id: string; impact?: string; nodes: { target: string[] }[] }[];
              }>;
            };
          }
        ).axe;
        const result = await axe.run(document, { resultTypes: ['violations'] });
        return result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map(
            (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
          );
      });
      expect(violations).toEqual([]);

      const name = path === '/' ? 'home' : path === NOT_FOUND_PATH ? '404' : path.slice(1);
      await screenshot(page, `site-${name}-1280`);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: PHONE.height });
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(0);
        if (width === PHONE.width) await screenshot(page, `site-${name}-390`);
      }
    },
  );
});
