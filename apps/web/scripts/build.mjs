// `npm run build -w @schemacheck/web`: the browser build, the pre-render of every public page, and
// the precompressed copies of every text file (docs/decisions/105, 106).
//
// 1. vite build: the single-page app in dist/ (its index.html, with modulepreload links for the
//    app's chunks, becomes dist/spa.html, the shell of the signed-in app's routes).
// 2. vite build --ssr src/entry-server.tsx: the same app for Node, into node_modules/.cache.
// 3. Each public path is rendered with React's static renderer and written as dist/<path>/index.html
//    (dist/index.html for /, dist/404.html for the 404 page) with its title, metadata and JSON-LD
//    in the head and its route chunks in #root's data-preload (loaded after the first paint).
// 4. dist/prerender.json tells the server what exists (pages, app routes, the origin used).
// 5. Every text file of 1 KiB or more gets a .br and a .gz beside it.
// `BUILD_TIMING=1` prints how long each part took.

import { readFileSync, rmSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

import { build } from 'vite';

const webDir = fileURLToPath(new URL('..', import.meta.url));
// `--out-dir <dir>` builds somewhere else than apps/web/dist (a server reads it with WEB_DIST).
const outDirFlag = process.argv.indexOf('--out-dir');
const target =
  outDirFlag > 0 ? path.resolve(process.argv[outDirFlag + 1] ?? '') : path.join(webDir, 'dist');
// Everything is written beside the target and swapped in at the end, so that a server or a
// second build never sees a half-written folder.
const dist = `${target}.build-${process.pid}`;
process.on('exit', () => rmSync(dist, { recursive: true, force: true }));

// React's production builds for the pre-render too (react-dom/server picks by NODE_ENV).
process.env.NODE_ENV = 'production';
// The build's day: the sitemap's lastmod. Pages that show a day get a placeholder instead, which
// the server fills with its own day when it serves them (decision 216): one build serves for
// every day.
const buildDate = process.env.BUILD_DATE ?? new Date().toISOString().slice(0, 10);
// The origin written into canonical and Open Graph URLs: the server's own default, or APP_URL.
// The server rewrites it when it runs under another origin (decision 216): one build serves any
// origin, and `npm start` never rebuilds for a new PORT or APP_URL.
const origin = new URL(process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`)
  .origin;

const ssrOut = path.join(webDir, 'node_modules/.cache', `prerender-${process.pid}`);

const started = Date.now();
const phase = (name) =>
  process.env.BUILD_TIMING &&
  console.log(`${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
await build({ root: webDir, logLevel: 'warn', build: { outDir: dist } });
await build({
  root: webDir,
  logLevel: 'warn',
  build: {
    ssr: 'src/entry-server.tsx',
    outDir: ssrOut,
    emptyOutDir: true,
    manifest: false,
    copyPublicDir: false,
    target: 'node20',
  },
  define: { __PRERENDER__: 'true' },
});

phase('client and SSR builds');
const entry = await import(pathToFileURL(path.join(ssrOut, 'entry-server.js')).href);
/** @type {Record<string, {file: string, imports?: string[], css?: string[], isEntry?: boolean}>} */
const manifest = JSON.parse(await readFile(path.join(dist, '.vite/manifest.json'), 'utf8'));

const shellHtml = await readFile(path.join(dist, 'index.html'), 'utf8');

/** A manifest entry and every chunk it imports statically, as manifest keys. */
function collect(key, into) {
  if (into.has(key)) return;
  into.add(key);
  for (const imported of manifest[key]?.imports ?? []) collect(imported, into);
}

// The HTML's script is src/boot.ts, which imports src/main.tsx (the app) once the page is painted
// (decision 108). Chunks the entry and the app load with no help from the page.
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('No entry chunk in the Vite manifest');
const appKey = 'src/main.tsx';
if (!manifest[appKey]) throw new Error(`No chunk for ${appKey} in the Vite manifest`);
const loadedByEntry = new Set();
collect(entryKey, loadedByEntry);
const loadedByApp = new Set(loadedByEntry);
collect(appKey, loadedByApp);

// The signed-in app's shell paints nothing without the app: its chunks are fetched with the HTML
// (Vite links the entry's own).
const appPreloads = [...loadedByApp]
  .filter((key) => !loadedByEntry.has(key))
  .map((key) => `<link rel="modulepreload" crossorigin href="/${manifest[key].file}">`);
const shell = shellHtml.replace('</head>', () => `  ${appPreloads.join('\n    ')}\n  </head>`);
await writeFile(path.join(dist, 'spa.html'), shell);

/**
 * The chunks of the route modules a page is made of, beyond the app's own, as URLs: #root's
 * data-preload, which boot.ts turns into modulepreload links after the first paint.
 */
function pageChunks(modules) {
  const keys = new Set();
  for (const module of modules) {
    const key = `src/app/routes/${module}.tsx`;
    if (!manifest[key]) throw new Error(`No chunk for ${key} in the Vite manifest`);
    collect(key, keys);
  }
  const urls = [];
  for (const key of keys) {
    if (loadedByApp.has(key)) continue;
    if (manifest[key].css?.length) throw new Error(`${key} has its own stylesheet; inline it`);
    urls.push(`/${manifest[key].file}`);
  }
  return urls;
}

const cssCache = new Map();
/**
 * The stylesheet inside the page (<style>; the CSP allows inline styles): a pre-rendered page
 * paints without waiting for a second request.
 */
function inlineCss(html) {
  return html.replace(
    /<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/g,
    (_, file) => {
      if (!cssCache.has(file)) cssCache.set(file, readFileSync(path.join(dist, file), 'utf8'));
      return `<style>${cssCache.get(file)}</style>`;
    },
  );
}

function pageHtml(rendered, marker) {
  const head = entry.headHtml(rendered.meta, origin);
  let html = inlineCss(shellHtml)
    .replace(/<title>[\s\S]*?<\/title>/, () => '')
    .replace(/<meta[^>]*data-page-meta[^>]*>/, () => head)
    // The page reads without JavaScript; only the app shell needs the notice.
    .replace(/<noscript>[\s\S]*?<\/noscript>/, '');
  if (!html.includes(head)) throw new Error('index.html lost its data-page-meta description');
  const root = '<div id="root"></div>';
  if (!html.includes(root)) throw new Error(`index.html has no ${root}`);
  html = html.replace(
    root,
    () =>
      `<div id="root" data-prerendered="${marker}" data-preload="${pageChunks(rendered.modules).join(' ')}">${rendered.html}</div>`,
  );
  return html;
}

const pages = [];
for (const pagePath of entry.PRERENDERED_PATHS) {
  const rendered = await entry.renderPage(pagePath, origin);
  const file = pagePath === '/' ? 'index.html' : `${pagePath.slice(1)}/index.html`;
  await mkdir(path.dirname(path.join(dist, file)), { recursive: true });
  await writeFile(path.join(dist, file), pageHtml(rendered, pagePath));
  pages.push({ path: pagePath, file, noindex: Boolean(rendered.meta.noindex) });
}
const notFound = await entry.renderPage(entry.NOT_FOUND_RENDER_PATH, origin);
await writeFile(path.join(dist, '404.html'), pageHtml(notFound, '*'));

const prerendered = new Set(entry.PRERENDERED_PATHS);
const appRoutes = entry.routePaths().filter((route) => !prerendered.has(route));
await writeFile(
  path.join(dist, 'prerender.json'),
  `${JSON.stringify({ origin, buildDate, pages, notFound: '404.html', shell: 'spa.html', appRoutes }, null, 2)}\n`,
);

phase('pre-render');
await rm(ssrOut, { recursive: true, force: true });

// Precompressed copies for @fastify/static (preCompressed) and the server's page cache.
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const TEXT = /\.(?:html|js|mjs|css|svg|json|txt|xml|webmanifest|map)$/;
async function* files(dir) {
  for (const dirent of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, dirent.name);
    if (dirent.isDirectory()) yield* files(full);
    else yield full;
  }
}
// Brotli quality 10: within 1-2% of 11 in size at a fraction of the time; every file at once
// (zlib works on libuv's thread pool).
const toCompress = [];
for await (const file of files(dist)) {
  if (!TEXT.test(file) || file.includes(`${path.sep}.vite${path.sep}`)) continue;
  if ((await stat(file)).size >= 1024) toCompress.push(file);
}
await Promise.all(
  toCompress.map(async (file) => {
    const data = await readFile(file);
    const [br, gz] = await Promise.all([
      brotli(data, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 10,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      }),
      gzip(data, { level: 9 }),
    ]);
    await writeFile(`${file}.br`, br);
    await writeFile(`${file}.gz`, gz);
  }),
);
const compressed = toCompress.length;

phase('precompression');
// Swap in (again if another build swapped its own in between).
const previous = `${target}.old-${process.pid}`;
for (let attempt = 1; ; attempt++) {
  await rm(previous, { recursive: true, force: true });
  await rename(target, previous).catch((error) => {
    if (error.code !== 'ENOENT') throw error;
  });
  try {
    await rename(dist, target);
    break;
  } catch (error) {
    if (attempt >= 3 || (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST')) throw error;
  }
}
await rm(previous, { recursive: true, force: true });

console.log(
  `web: built, ${pages.length} pages and the 404 page pre-rendered, ${compressed} files precompressed in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
