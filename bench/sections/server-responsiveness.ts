// Server responsiveness: the real server (a child process on a temp DATA_DIR) validates a ~100 MB
// CSV uploaded to POST /api/validate while GET /healthz and GET /api/auth/me are polled every
// 50 ms. Validation runs in worker threads (docs/decisions/030), so those requests must keep
// answering: target p99 < 100 ms during the upload. Also reports the validation's MB/s, against
// the built CLI's (`--jobs 1`, spawn to exit, before and after the upload) on the same file and
// schema: target (issue 24) the upload keeps at least 80% of the CLI's throughput.
//
//   BENCH_SKIP_SERVER=1   skip this section        BENCH_SERVER_MB=100   size of the upload (MB)
//   BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"   node flags for the server (profiling)
//   VALIDATION_WORKERS=2  the server's own setting, passed through (2: an idle worker writes the
//                         upload's valid and invalid rows, docs/decisions/259)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  createReadStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { REPO_ROOT, env, envInt } from '../lib/env.ts';
import { fmt, markdownTable, mbPerSecond, textTable } from '../lib/format.ts';
import { PRODUCTS_SCHEMA, writeProductsCsv } from '../lib/products-csv.ts';
import type { BenchContext, Section, SectionResult, Target } from '../lib/types.ts';

const POLL_MS = 50;
const TARGET_P99_MS = 100;
/** The upload's MB/s as a share of the CLI's on the same file (issue 24). */
const TARGET_CLI_SHARE = 0.8;
const BUILT_CLI = join(REPO_ROOT, 'packages/cli/bin/schemacheck.js');
const TIER = 'business';
const PASSWORD = 'Bench-Kettle-42!';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

interface Session {
  cookie: string;
  csrf: string;
}

function request(
  port: number,
  options: http.RequestOptions & { body?: string },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, ...options }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

function cookiesOf(headers: http.IncomingHttpHeaders, jar: Map<string, string>): string {
  for (const c of headers['set-cookie'] ?? []) {
    const [pair] = c.split(';');
    const i = pair!.indexOf('=');
    const name = pair!.slice(0, i);
    const value = pair!.slice(i + 1);
    if (value === '') jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

async function signIn(port: number, username: string, register: boolean): Promise<Session> {
  const jar = new Map<string, string>();
  const t = await request(port, { path: '/api/csrf-token' });
  let cookie = cookiesOf(t.headers, jar);
  const body = register
    ? JSON.stringify({ username, email: `${username}@example.com`, password: PASSWORD })
    : JSON.stringify({ usernameOrEmail: username, password: PASSWORD });
  const r = await request(port, {
    method: 'POST',
    path: register ? '/api/auth/register' : '/api/auth/login',
    headers: {
      'content-type': 'application/json',
      'x-csrf-token': JSON.parse(t.body).csrfToken,
      cookie,
    },
    body,
  });
  if (r.status !== 200 && r.status !== 201) throw new Error(`sign-in: ${r.status} ${r.body}`);
  cookie = cookiesOf(r.headers, jar);
  return { cookie, csrf: JSON.parse(r.body).csrfToken };
}

function startServer(port: number, dataDir: string): Promise<ChildProcess> {
  // BENCH_SERVER_NODE_ARGS: extra node flags for the server, e.g. `--cpu-prof --cpu-prof-dir=DIR`.
  const extra = env('BENCH_SERVER_NODE_ARGS', '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [...extra, '--import', 'tsx', 'apps/server/src/server.ts'],
    {
      cwd: REPO_ROOT,
      env: serverEnv(port, dataDir),
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 60_000;
    const poll = async () => {
      if (child.exitCode !== null) return reject(new Error(`server exited: ${stderr}`));
      try {
        const r = await request(port, { path: '/healthz' });
        if (r.status === 200) return resolve(child);
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) return reject(new Error('server did not start in 60 s'));
      setTimeout(poll, 200);
    };
    void poll();
  });
}

function serverEnv(port: number, dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SCRYPT_LOG_N: '10',
    WEB_DIST: join(dataDir, 'no-web'),
    DATABASE_URL: '',
  };
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Polls `path` every POLL_MS until stop() and keeps each answer's latency. */
function poller(port: number, path: string, cookie: string) {
  const latencies: number[] = [];
  let failures = 0;
  let running = true;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const r = await request(port, { path, agent, headers: { cookie } });
        if (r.status !== 200) failures++;
      } catch {
        failures++;
      }
      const ms = performance.now() - started;
      latencies.push(ms);
      await new Promise((r) => setTimeout(r, Math.max(0, POLL_MS - ms)));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      agent.destroy();
      return { latencies, failures };
    },
  };
}

const TIME = '/usr/bin/time';

/**
 * The built CLI on the file, one thread, whole process: wall ms, CPU ms (user + system, from
 * /usr/bin/time when present) and the errors it found.
 */
function cliRun(
  csvPath: string,
  schemaPath: string,
  rowsOut?: string,
): { ms: number; cpuMs: number | null; errors: number } {
  const args = [
    BUILT_CLI,
    'validate',
    csvPath,
    '--schema',
    schemaPath,
    '--format',
    'json',
    '--jobs',
    '1',
    ...(rowsOut === undefined
      ? []
      : ['--valid-out', `${rowsOut}.valid.csv`, '--invalid-out', `${rowsOut}.invalid.csv`]),
  ];
  const timed = existsSync(TIME);
  const started = performance.now();
  const r = timed
    ? spawnSync(TIME, ['-f', 'cpu %U %S', process.execPath, ...args], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        maxBuffer: 1 << 28,
      })
    : spawnSync(process.execPath, args, { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - started;
  if (r.status !== 0 && r.status !== 1) throw new Error(`CLI exited ${r.status}: ${r.stderr}`);
  const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr ?? '');
  return {
    ms,
    cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : null,
    errors: (JSON.parse(r.stdout) as { errorCount: number }).errorCount,
  };
}

/**
 * CPU ms a process has used, all its threads (validation workers included), from /proc; null
 * where there is none. Clock ticks of 10 ms, as on Linux.
 */
function processCpuMs(pid: number | undefined, thread?: number): number | null {
  const file = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
  if (pid === undefined || !existsSync(file)) return null;
  // After the command name in parentheses: field 14 and 15 of the whole line are utime and stime.
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU ms of each thread of `pid` by thread id (Linux), empty where /proc is not there. */
function threadCpuMs(pid: number | undefined): Map<number, number> {
  const threads = new Map<number, number>();
  if (pid === undefined || !existsSync(`/proc/${pid}/task`)) return threads;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const ms = processCpuMs(pid, Number(tid));
    if (ms !== null) threads.set(Number(tid), ms);
  }
  return threads;
}

async function upload(port: number, session: Session, csvPath: string) {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="schema"\r\n\r\n${JSON.stringify(PRODUCTS_SCHEMA)}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.csv"\r\n` +
      `Content-Type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = statSync(csvPath).size;
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/validate',
        headers: {
          cookie: session.cookie,
          'x-csrf-token': session.csrf,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + size + tail.length,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.write(head);
    const file = createReadStream(csvPath);
    file.pipe(req, { end: false });
    file.on('end', () => req.end(tail));
    file.on('error', reject);
  });
}

export const serverResponsivenessSection: Section = {
  id: 'server-responsiveness',
  title: 'Server responsiveness during a ~100 MB upload',
  skipReason: () => (env('BENCH_SKIP_SERVER', '0') === '1' ? 'BENCH_SKIP_SERVER=1' : null),
  async run(ctx: BenchContext): Promise<SectionResult> {
    const mb = envInt('BENCH_SERVER_MB', 100);
    const dir = mkdtempSync(join(tmpdir(), 'sc-bench-server-'));
    const dataDir = join(dir, 'data');
    const failures: string[] = [];
    let child: ChildProcess | null = null;
    try {
      const csvPath = join(dir, 'bench.csv');
      const planted = await writeProductsCsv(csvPath, mb * 1e6);
      const bytes = statSync(csvPath).size;
      ctx.log(`  generated ${fmt(bytes / 1e6)} MB, ${fmt(planted.rows)} rows`);

      const schemaPath = join(dir, 'schema.json');
      writeFileSync(schemaPath, JSON.stringify(PRODUCTS_SCHEMA));
      const build = spawnSync('npm', ['run', 'build', '-w', 'packages/cli'], { cwd: REPO_ROOT });
      if (build.status !== 0) throw new Error(`CLI build failed: ${build.stderr}`);
      // The server writes the valid and invalid rows beside the report on this plan (decision
      // 205): the CLI is also run writing them, to show what part of the gap they are.
      const rowsOut = join(dir, 'rows');
      const cliRuns = [cliRun(csvPath, schemaPath)];
      const cliRowsRuns = [cliRun(csvPath, schemaPath, rowsOut)];

      const port = await freePort();
      const username = `bench${randomBytes(4).toString('hex')}`;
      child = await startServer(port, dataDir);
      await signIn(port, username, true);
      await stopServer(child);
      // The plan is set directly in the database (npm run set-tier), with the server stopped:
      // the embedded database belongs to one process at a time.
      const tier = spawn(
        process.execPath,
        ['--import', 'tsx', 'apps/server/src/cli/set-tier.ts', username, TIER],
        { cwd: REPO_ROOT, env: serverEnv(port, dataDir), stdio: 'ignore' },
      );
      const [code] = await once(tier, 'exit');
      if (code !== 0) throw new Error(`set-tier exited with ${code}`);
      child = await startServer(port, dataDir);
      const session = await signIn(port, username, false);

      // Idle baseline, then the same polling during the upload.
      const idleHealth = poller(port, '/healthz', '');
      await new Promise((r) => setTimeout(r, 1000));
      const idle = await idleHealth.stop();

      const health = poller(port, '/healthz', '');
      const me = poller(port, '/api/auth/me', session.cookie);
      const serverCpuBefore = processCpuMs(child.pid);
      const mainCpuBefore = processCpuMs(child.pid, child.pid);
      const threadsBefore = threadCpuMs(child.pid);
      const started = performance.now();
      const res = await upload(port, session, csvPath);
      const ms = performance.now() - started;
      const serverCpuAfter = processCpuMs(child.pid);
      const mainCpuAfter = processCpuMs(child.pid, child.pid);
      // The other threads' CPU over the upload, the busiest first: the validation workers. With a
      // core each, the busiest one is how long the upload would take (docs/decisions/259).
      const otherThreadsMs = [...threadCpuMs(child.pid)]
        .filter(([tid]) => tid !== child!.pid)
        .map(([tid, ms]) => ms - (threadsBefore.get(tid) ?? 0))
        .sort((a, b) => b - a)
        .slice(0, 3);
      // The server's CPU over the upload (the pollers' requests included: a few ms).
      const serverCpuMs =
        serverCpuBefore === null || serverCpuAfter === null
          ? null
          : serverCpuAfter - serverCpuBefore;
      // Of which the event loop's thread (HTTP, the form, storage writes, the database).
      const mainCpuMs =
        mainCpuBefore === null || mainCpuAfter === null ? null : mainCpuAfter - mainCpuBefore;
      const h = await health.stop();
      const m = await me.stop();
      cliRuns.push(cliRun(csvPath, schemaPath));
      cliRowsRuns.push(cliRun(csvPath, schemaPath, rowsOut));
      for (const run of [...cliRuns, ...cliRowsRuns]) {
        if (run.errors !== planted.errors)
          failures.push(`the CLI found ${run.errors} errors, expected ${planted.errors}`);
      }

      if (res.status !== 200)
        failures.push(`upload answered ${res.status}: ${res.body.slice(0, 200)}`);
      else {
        const body = JSON.parse(res.body) as { totalRows: number; errorCount: number };
        if (body.totalRows !== planted.rows || body.errorCount !== planted.errors) {
          failures.push(
            `server found ${body.totalRows} rows and ${body.errorCount} errors, expected ${planted.rows} and ${planted.errors}`,
          );
        }
      }
      if (h.failures + m.failures > 0) {
        failures.push(`${h.failures + m.failures} polling requests failed during the upload`);
      }

      const stats = (l: number[]) => {
        const s = [...l].sort((a, b) => a - b);
        return {
          n: s.length,
          p50: percentile(s, 50),
          p99: percentile(s, 99),
          max: s.at(-1) ?? NaN,
        };
      };
      const rows = [
        ['GET /healthz (idle)', stats(idle.latencies)],
        ['GET /healthz (during upload)', stats(h.latencies)],
        ['GET /api/auth/me (during upload)', stats(m.latencies)],
      ] as const;
      const header = ['request', 'n', 'p50 ms', 'p99 ms', 'max ms'];
      const table = rows.map(([name, s]) => [
        name,
        fmt(s.n),
        fmt(s.p50, 1),
        fmt(s.p99, 1),
        fmt(s.max, 1),
      ]);
      const worstP99 = Math.max(stats(h.latencies).p99, stats(m.latencies).p99);
      const rate = mbPerSecond(bytes, ms);
      const cliMs = (cliRuns[0]!.ms + cliRuns[1]!.ms) / 2;
      const cliRowsMs = (cliRowsRuns[0]!.ms + cliRowsRuns[1]!.ms) / 2;
      const cliRate = mbPerSecond(bytes, cliMs);
      const share = rate / cliRate;
      const cliCpu = cliRuns.map((r) => r.cpuMs).filter((c): c is number => c !== null);
      const cliCpuMs = cliCpu.length ? cliCpu.reduce((a, b) => a + b, 0) / cliCpu.length : null;
      // The validation threads run at nice 10 (decision 061): on a busy machine the upload's wall
      // time says more about the neighbours than about the server, CPU time much less.
      const cpuNote =
        serverCpuMs !== null && cliCpuMs !== null
          ? `; CPU: server ${fmt(serverCpuMs / 1000, 2)} s (event loop ${mainCpuMs === null ? '?' : fmt(mainCpuMs / 1000, 2)} s, the busiest other threads ${otherThreadsMs.map((t) => fmt(t / 1000, 2)).join(' / ')} s), CLI ${fmt(cliCpuMs / 1000, 2)} s (${fmt((cliCpuMs / serverCpuMs) * 100)}%)`
          : '';
      const summary =
        `upload + validation of ${fmt(bytes / 1e6)} MB (${fmt(planted.rows)} rows, ${TIER} plan): ${fmt(ms / 1000, 1)} s, ${fmt(rate, 1)} MB/s; ` +
        `the CLI on the same file (--jobs 1, spawn to exit, mean of the runs before and after: ${cliRuns.map((r) => fmt(r.ms / 1000, 2)).join(' / ')} s): ${fmt(cliRate, 1)} MB/s, so the upload keeps ${fmt(share * 100)}%${cpuNote}; ` +
        `writing the valid and invalid rows too, as the server does: ${fmt(mbPerSecond(bytes, cliRowsMs), 1)} MB/s (${fmt((cliRowsMs / ms) * 100)}%)`;
      ctx.log(`  ${summary}`);
      const targets: Target[] = [
        {
          name: 'server p99 latency during a 100 MB validation',
          goal: `< ${TARGET_P99_MS} ms`,
          actual: `${fmt(worstP99, 1)} ms`,
          met: Number.isFinite(worstP99) ? worstP99 < TARGET_P99_MS : null,
        },
        {
          name: 'HTTP upload vs the CLI, one core',
          goal: `≥ ${fmt(TARGET_CLI_SHARE * 100)}% of the CLI's MB/s`,
          actual: `${fmt(share * 100)}% (${fmt(rate, 1)} vs ${fmt(cliRate, 1)} MB/s)`,
          met: Number.isFinite(share) ? share >= TARGET_CLI_SHARE : null,
        },
      ];
      return {
        text: `${summary}\n\n${textTable(header, table)}`,
        markdown: `${summary}. Requests polled every ${POLL_MS} ms.\n\n${markdownTable(header, table)}`,
        data: {
          bytes,
          rows: planted.rows,
          ms,
          mbPerSecond: rate,
          cli: { runsMs: cliRuns.map((r) => r.ms), mbPerSecond: cliRate, share, cpuMs: cliCpuMs },
          cliWithRowOutputs: { runsMs: cliRowsRuns.map((r) => r.ms) },
          serverCpuMs,
          mainCpuMs,
          otherThreadsMs,
          latency: Object.fromEntries(rows.map(([name, s]) => [name, s])),
        },
        targets,
        failures,
      };
    } catch (err) {
      failures.push(`server responsiveness: ${(err as Error).message}`);
      return { text: 'failed', markdown: 'Failed.', data: null, targets: [], failures };
    } finally {
      if (child) await stopServer(child).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
