// npm run stress: the heavy checks behind docs/performance.md's "Budgets" section, against the
// real server (`node --import tsx apps/server/src/server.ts`, as `npm start` runs it) on PGlite in
// a temp DATA_DIR, on loopback only. Bounded: 50 users, one upload each, about a minute.
//
//   1. idle RSS of the server process (and how much of it is the worker pool and PGlite)
//   2. /healthz latency while 50 uploads run at once
//   3. a one-record JSON upload with 2 million tiny objects (the old way to take a worker for
//      minutes): answered at once with record_too_large, while a small upload is not held up
//
// Prints one figure per line; exits 1 when a budget is broken.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const USERS = 50;
const BUDGET_IDLE_RSS_MB = Number(process.env.BUDGET_IDLE_RSS_MB ?? 400);
const BUDGET_HEALTHZ_P99_MS = Number(process.env.BUDGET_HEALTHZ_P99_MS ?? 100);

const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-stress-'));
const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SCRYPT_LOG_N: '10',
    // What npm start logs by default: a line per request is part of the cost.
    LOG_LEVEL: 'info',
    WEB_DIST: path.join(dataDir, 'no-web'),
    DATABASE_URL: '',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let out = '';
child.stdout.on('data', (d) => (out += d));
child.stderr.on('data', (d) => (out += d));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function waitForPort(): Promise<string> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const m = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
    if (m && out.includes('SchemaCheck is ready')) return m[1]!;
    if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
    await sleep(100);
  }
  throw new Error('server did not start');
}

async function session(base: string, username: string) {
  const t = await fetch(`${base}/api/csrf-token`);
  const pre = t.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { csrfToken } = (await t.json()) as { csrfToken: string };
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken, cookie: pre },
    body: JSON.stringify({
      username,
      email: `${username}@example.com`,
      password: 'Blue-Kettle-42',
    }),
  });
  if (res.status !== 201) throw new Error(`register ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, csrf: ((await res.json()) as { csrfToken: string }).csrfToken };
}

function upload(
  base: string,
  s: { cookie: string; csrf: string },
  schema: object,
  name: string,
  body: string,
) {
  const form = new FormData();
  form.append('schema', JSON.stringify(schema));
  form.append('file', new Blob([body]), name);
  return fetch(`${base}/api/validate`, {
    method: 'POST',
    headers: { cookie: s.cookie, 'x-csrf-token': s.csrf },
    body: form,
  });
}

const failures: string[] = [];
try {
  const base = await waitForPort();

  // 1. Idle RSS once start-up work has settled.
  await fetch(`${base}/healthz`);
  await sleep(5_000);
  const idle = rssMb(child.pid!);
  console.log(`idle RSS: ${idle.toFixed(0)} MB (budget ${BUDGET_IDLE_RSS_MB})`);
  if (idle > BUDGET_IDLE_RSS_MB) failures.push(`idle RSS ${idle.toFixed(0)} MB`);

  // 2. /healthz while 50 uploads run at once.
  const sessions = [];
  for (let i = 0; i < USERS; i++)
    sessions.push(await session(base, `stress${i}${Date.now() % 100000}`));
  const row = `${'x'.repeat(1900)},1`;
  const csv = `name,n\n${Array(400).fill(row).join('\n')}\n`;
  const schema = {
    fileType: 'csv',
    fields: [
      { name: 'name', type: 'string', required: true },
      { name: 'n', type: 'integer', required: true },
    ],
  };
  const latencies: number[] = [];
  let running = true;
  const prober = (async () => {
    while (running) {
      const t0 = performance.now();
      const r = await fetch(`${base}/healthz`);
      await r.arrayBuffer();
      latencies.push(performance.now() - t0);
      await sleep(10);
    }
  })();
  const t0 = performance.now();
  const results = await Promise.all(sessions.map((s) => upload(base, s, schema, 'a.csv', csv)));
  const wall = performance.now() - t0;
  running = false;
  await prober;
  const statuses = results.map((r) => r.status);
  const peak = rssMb(child.pid!);
  console.log(
    `50 concurrent uploads of ${(csv.length / 1024).toFixed(0)} KB: ${statuses.filter((s) => s === 200).length} × 200 in ${wall.toFixed(0)} ms; RSS after ${peak.toFixed(0)} MB`,
  );
  const p50 = pct(latencies, 50);
  const p99 = pct(latencies, 99);
  console.log(
    `/healthz during them: ${latencies.length} probes, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms (budget p99 ${BUDGET_HEALTHZ_P99_MS})`,
  );
  if (statuses.some((s) => s !== 200)) failures.push(`upload statuses ${[...new Set(statuses)]}`);
  if (p99 > BUDGET_HEALTHZ_P99_MS) failures.push(`/healthz p99 ${p99.toFixed(0)} ms`);

  // 3. The attack shape: one record of tiny objects, within the free plan's 1 MB.
  const attacker = sessions[0]!;
  const small = sessions[1]!;
  const jsonSchema = { fileType: 'json', fields: [{ name: 'a', type: 'string' }] };
  const tiny = `[{"a":[${Array(300_000).fill('{}').join(',')}]}]`;
  const a0 = performance.now();
  const attack = upload(base, attacker, jsonSchema, 'a.json', tiny).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { errorsByCode?: Record<string, number> },
    ms: performance.now() - a0,
  }));
  const s0 = performance.now();
  const smallRes = await upload(base, small, jsonSchema, 's.json', '[{"a":"b"}]');
  const smallMs = performance.now() - s0;
  const done = await attack;
  console.log(
    `one record of 300,000 tiny objects (${(tiny.length / 1e6).toFixed(1)} MB): ${done.status} ${JSON.stringify(done.body.errorsByCode)} in ${done.ms.toFixed(0)} ms; a 12-byte upload meanwhile: ${smallRes.status} in ${smallMs.toFixed(0)} ms`,
  );
  if (!done.body.errorsByCode?.record_too_large) failures.push('no record_too_large');
  if (smallMs > 3_000) failures.push(`small upload waited ${smallMs.toFixed(0)} ms`);
} catch (err) {
  failures.push(String(err));
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.log(`over budget or failed: ${failures.join('; ')}`);
  process.exitCode = 1;
}
