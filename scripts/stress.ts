// npm run stress: the heavy checks behind docs/performance.md's "Budgets" section, against the
// real server (`node --import tsx apps/server/src/server.ts`, as `npm start` runs it) on PGlite in
// a temp DATA_DIR, on loopback only. Bounded: 50 users, one upload each, about a minute.
//
//   1. idle RSS of the server process (and how much of it is the worker pool and PGlite)
//   2. /healthz latency, probed from its own thread, while 50 users upload three files each
//   3. a one-record JSON upload with 2 million tiny objects (the old way to take a worker for
//      minutes): answered at once with record_too_large, while a small upload is not held up
//
// Prints one figure per line; exits 1 when a budget is broken.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import {
  serverUrl,
  signUp,
  spawnServer,
  type Session,
} from '../apps/server/test/server-process.ts';

const USERS = 50;
const ROUNDS = 3;
/** Probes /healthz every 10 ms until told to stop, then posts the latencies (ms). */
const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
let running = true;
parentPort.once('message', () => (running = false));
(async () => {
  const latencies = [];
  while (running) {
    const t0 = performance.now();
    const r = await fetch(workerData.url);
    await r.arrayBuffer();
    latencies.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 10));
  }
  parentPort.postMessage(latencies);
})();
`;
const BUDGET_IDLE_RSS_MB = Number(process.env.BUDGET_IDLE_RSS_MB ?? 400);
const BUDGET_HEALTHZ_P99_MS = Number(process.env.BUDGET_HEALTHZ_P99_MS ?? 100);

const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-stress-'));
// STRESS_DATABASE_URL runs the same checks on PostgreSQL (the default is PGlite, as npm start).
const server = spawnServer(
  dataDir,
  process.env.STRESS_DATABASE_URL ? { DATABASE_URL: process.env.STRESS_DATABASE_URL } : {},
);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

function upload(base: string, s: Session, schema: object, name: string, body: string) {
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
  const base = await serverUrl(server);

  // 1. Idle RSS once start-up work has settled.
  await fetch(`${base}/healthz`);
  await sleep(5_000);
  const idle = rssMb(server.child.pid!);
  console.log(`idle RSS: ${idle.toFixed(0)} MB (budget ${BUDGET_IDLE_RSS_MB})`);
  if (idle > BUDGET_IDLE_RSS_MB) failures.push(`idle RSS ${idle.toFixed(0)} MB`);

  // 2. /healthz while 50 users upload at once.
  const sessions = [];
  for (let i = 0; i < USERS; i++)
    sessions.push(await signUp(base, `stress${i}${Date.now() % 100000}`, 'Blue-Kettle-42'));
  const row = `${'x'.repeat(1900)},1`;
  const csv = `name,n\n${Array(400).fill(row).join('\n')}\n`;
  const schema = {
    fileType: 'csv',
    fields: [
      { name: 'name', type: 'string', required: true },
      { name: 'n', type: 'integer', required: true },
    ],
  };
  // The prober has its own thread (its own event loop): building and sending 50 bodies here
  // must not be counted as the server's latency.
  const prober = new Worker(PROBER, { eval: true, workerData: { url: `${base}/healthz` } });
  const latencies = new Promise<number[]>((resolve) => prober.once('message', resolve));
  const t0 = performance.now();
  // Each user uploads ROUNDS times in a row: 50 uploads in flight for a few seconds.
  const results = (
    await Promise.all(
      sessions.map(async (s) => {
        const statuses = [];
        for (let i = 0; i < ROUNDS; i++)
          statuses.push((await upload(base, s, schema, 'a.csv', csv)).status);
        return statuses;
      }),
    )
  ).flat();
  const wall = performance.now() - t0;
  prober.postMessage('stop');
  const probes = await latencies;
  await prober.terminate();
  const statuses = results;
  const peak = rssMb(server.child.pid!);
  console.log(
    `${USERS} users uploading ${ROUNDS} × ${(csv.length / 1024).toFixed(0)} KB at once: ${statuses.filter((s) => s === 200).length} × 200 in ${wall.toFixed(0)} ms; RSS after ${peak.toFixed(0)} MB`,
  );
  const p50 = pct(probes, 50);
  const p99 = pct(probes, 99);
  console.log(
    `/healthz during them: ${probes.length} probes, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...probes).toFixed(1)} ms (budget p99 ${BUDGET_HEALTHZ_P99_MS}); load average ${loadavg()[0]!.toFixed(1)}`,
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
  server.child.kill('SIGTERM');
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.log(`over budget or failed: ${failures.join('; ')}`);
  process.exitCode = 1;
}
