// `npm run lighthouse`: mobile Lighthouse (Performance, Accessibility, Best Practices, SEO) on the
// public pages, against a server started here on the current web build, with Debian's Chromium.
// Prints a table, writes every report to artifacts/lighthouse/, and exits 1 when a score is below
// the bar (docs/performance.md, "The public site").
//
//   npm run lighthouse                       # /, /csv-validator, /templates, /api-docs; 3 runs each
//   LIGHTHOUSE_PATHS=/,/compare LIGHTHOUSE_RUNS=1 npm run lighthouse
//
// The web build is made first when apps/web/dist has none (npm run build -w @schemacheck/web).
// Each page is measured LIGHTHOUSE_RUNS times and the median run counts: one run on a busy
// machine says little.
//
// Lighthouse is installed on first use (scripts/on-demand.mjs), not by `npm ci`: only this script
// needs it.

import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { installOnDemand } from './on-demand.mjs';

// Pinned: a new Lighthouse changes scores, so the bar is moved on purpose, never by an install.
const fromLighthouse = installOnDemand('lighthouse', '12.8.2');
const { default: lighthouse } = await fromLighthouse('lighthouse');
const constants = await fromLighthouse('lighthouse/core/config/constants.js');
const chromeLauncher = await fromLighthouse('chrome-launcher');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'artifacts/lighthouse');
const PATHS = (process.env.LIGHTHOUSE_PATHS ?? '/,/csv-validator,/templates,/api-docs').split(',');
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const BAR = Number(process.env.LIGHTHOUSE_BAR ?? 95);
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
// Lighthouse's 4x CPU slowdown assumes a host about as fast as a mid-range phone (benchmarkIndex
// ~1000) and aims at a low-end one (~264, Chrome DevTools' CPU calibration figures). On a slower
// or busier host, LIGHTHOUSE_CALIBRATE=1 sets the multiplier to benchmarkIndex / 264 (at least 1),
// from the run before, so the simulated device stays the low-end phone. Reported beside the scores.
const CALIBRATE = process.env.LIGHTHOUSE_CALIBRATE === '1';
const LOW_END_BENCHMARK = 264;
const DEFAULT_SLOWDOWN = 4;

async function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function startServer() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'schemacheck-lighthouse-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      // Production settings, but no Stripe account: the test-mode billing, chosen on purpose.
      BILLING_MODE: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      APP_URL: baseUrl,
      WEB_DIST: webDist,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('The server exited before it was ready');
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error('The server did not answer /healthz within 180 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // The server rewrites the build's origin into each page and compresses the result on its first
  // request (decision 106); a deployment serves the build's own compressed copies. One request per
  // page first, so that no measured run times that compression as the server's response time.
  for (const pagePath of PATHS) {
    await fetch(`${baseUrl}${pagePath}`, { headers: { 'accept-encoding': 'br' } });
  }
  return { baseUrl, stop };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

// WEB_DIST (read by the server too) points at another build, e.g. one made with
// `node apps/web/scripts/build.mjs --out-dir /tmp/web`.
const webDist = path.resolve(ROOT, process.env.WEB_DIST ?? 'apps/web/dist');
if (!existsSync(path.join(webDist, 'prerender.json'))) {
  const outDir = process.env.WEB_DIST ? ['--', '--out-dir', webDist] : [];
  execFileSync('npm', ['run', 'build', '-w', '@schemacheck/web', ...outDir], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}
await mkdir(OUT, { recursive: true });

const server = await startServer();
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});

let slowdown = DEFAULT_SLOWDOWN;

/** One Lighthouse run; a run whose trace failed (NO_NAVSTART and the like) is tried again. */
async function measure(url, attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    // The default config is the mobile one: a Moto G Power-sized screen, slow 4G and a 4x
    // slower CPU, simulated.
    const result = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES },
      CALIBRATE
        ? {
            extends: 'lighthouse:default',
            settings: {
              throttling: {
                ...constants.throttling.mobileSlow4G,
                cpuSlowdownMultiplier: slowdown,
              },
            },
          }
        : undefined,
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const benchmark = result.lhr.environment.benchmarkIndex;
    if (CALIBRATE && benchmark > 0) {
      slowdown = Math.max(1, Math.round((benchmark / LOW_END_BENCHMARK) * 10) / 10);
    }
    if (!result.lhr.runtimeError) return result;
    if (attempt >= attempts) throw new Error(`${url}: ${result.lhr.runtimeError.message}`);
  }
}

// Interrupted: leave no browser or server behind.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    void Promise.allSettled([chrome.kill(), server.stop()]).then(() => process.exit(130));
  });
}

// Scores under load are noisy (CPU time is multiplied by the slowdown): the load is printed with them.
const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const loadAtStart = loadAverage();
const rows = [];
let failed = false;
try {
  // Calibration needs a benchmark first: one run whose result is not kept.
  if (CALIBRATE) await measure(`${server.baseUrl}${PATHS[0]}`);
  for (const pagePath of PATHS) {
    const runs = [];
    for (let run = 0; run < RUNS; run++) {
      // The default config is the mobile one: a Moto G Power-sized screen, slow 4G and a 4x
      // slower CPU, simulated.
      const result = await measure(`${server.baseUrl}${pagePath}`);
      const { lhr } = result;
      const scores = Object.fromEntries(
        CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]),
      );
      const metric = (id) => lhr.audits[id]?.numericValue ?? NaN;
      runs.push({
        scores,
        benchmark: lhr.environment.benchmarkIndex,
        slowdown: lhr.configSettings.throttling.cpuSlowdownMultiplier,
        fcp: metric('first-contentful-paint'),
        lcp: metric('largest-contentful-paint'),
        tbt: metric('total-blocking-time'),
        cls: metric('cumulative-layout-shift'),
        bytes: metric('total-byte-weight'),
        failing: Object.values(lhr.audits)
          .filter(
            (audit) =>
              audit.score !== null &&
              audit.score < 0.9 &&
              audit.scoreDisplayMode !== 'informative' &&
              audit.scoreDisplayMode !== 'manual' &&
              audit.scoreDisplayMode !== 'notApplicable',
          )
          .map((audit) => audit.id),
      });
      const name = pagePath === '/' ? 'home' : pagePath.slice(1).replaceAll('/', '-');
      await writeFile(path.join(OUT, `${name}-${run + 1}.json`), result.report);
      console.log(`${pagePath} run ${run + 1}: ${JSON.stringify(runs.at(-1).scores)}`);
    }
    const scores = Object.fromEntries(
      CATEGORIES.map((id) => [id, median(runs.map((r) => r.scores[id]))]),
    );
    const row = {
      path: pagePath,
      ...scores,
      fcp: median(runs.map((r) => r.fcp)),
      lcp: median(runs.map((r) => r.lcp)),
      tbt: median(runs.map((r) => r.tbt)),
      cls: median(runs.map((r) => r.cls)),
      kib: median(runs.map((r) => r.bytes)) / 1024,
      failing: [...new Set(runs.flatMap((r) => r.failing))],
      benchmark: median(runs.map((r) => r.benchmark)),
      slowdown: median(runs.map((r) => r.slowdown)),
    };
    rows.push(row);
    if (CATEGORIES.some((id) => scores[id] < BAR)) failed = true;
  }
} finally {
  await chrome.kill();
  await server.stop();
}

const ms = (value) => `${Math.round(value)} ms`;
console.log(
  `\nMobile Lighthouse, median of ${RUNS} run(s), bar ${BAR}; load average ${loadAtStart} at the start, ${loadAverage()} at the end (${os.cpus().length} cores)\n`,
);
console.log(
  '| page | Performance | Accessibility | Best Practices | SEO | FCP | LCP | TBT | CLS | transfer | benchmarkIndex | CPU slowdown |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.path} | ${r.performance} | ${r.accessibility} | ${r['best-practices']} | ${r.seo} | ${ms(r.fcp)} | ${ms(r.lcp)} | ${ms(r.tbt)} | ${r.cls.toFixed(3)} | ${r.kib.toFixed(0)} KiB | ${Math.round(r.benchmark)} | ${r.slowdown}x |`,
  );
}
for (const r of rows) {
  if (r.failing.length) console.log(`${r.path}: audits below 0.9: ${r.failing.join(', ')}`);
}
await writeFile(path.join(OUT, 'summary.json'), `${JSON.stringify(rows, null, 2)}\n`);
if (failed) {
  console.error(`\nFAIL: a score is below ${BAR}`);
  process.exit(1);
}
