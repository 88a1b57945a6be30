import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { SubscriptionTier } from '@schemacheck/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type AppDeps } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openMemoryDatabase, openPostgres, type Database } from '../src/db/client.ts';
import { users } from '../src/db/schema.ts';
import type { Mailer, MailMessage } from '../src/mail/mailer.ts';

// Test support: a database per test file (in-memory PGlite, or a fresh database on the
// PostgreSQL server named by TEST_DATABASE_URL), a config with a cheap scrypt cost, a fake clock,
// a mailer that keeps what it sends, and a cookie-keeping client over app.inject().

export const STRONG_PASSWORD = 'Blue-Kettle-42';

const tempDirs: string[] = [];

export function tempDir(prefix = 'sc-test-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** Removes every folder tempDir() made (call in afterAll). */
export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * A tiny stand-in for apps/web/dist as apps/web/scripts/build.mjs writes it: two pre-rendered
 * pages, the 404 page, the app shell and prerender.json (built for http://localhost:3000).
 */
export function makeWebDist(): string {
  const dir = tempDir('sc-web-');
  const html = (title: string) =>
    `<!doctype html><title>${title}</title><link rel="canonical" href="http://localhost:3000/"><div id="root"></div>`;
  writeFileSync(path.join(dir, 'index.html'), html('Home'));
  writeFileSync(path.join(dir, 'spa.html'), html('SPA'));
  writeFileSync(path.join(dir, '404.html'), html('Page Not Found'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), 'console.log("app");');
  mkdirSync(path.join(dir, 'csv-validator'));
  writeFileSync(path.join(dir, 'csv-validator', 'index.html'), html('CSV validator'));
  writeFileSync(
    path.join(dir, 'prerender.json'),
    JSON.stringify({
      origin: 'http://localhost:3000',
      buildDate: '2026-01-02',
      pages: [
        { path: '/', file: 'index.html', noindex: false },
        { path: '/csv-validator', file: 'csv-validator/index.html', noindex: false },
      ],
      notFound: '404.html',
      shell: 'spa.html',
      appRoutes: ['/reset-password', '/dashboard', '/profile', '/stripe/success'],
    }),
  );
  return dir;
}

/**
 * The configuration of a test app: a temp DATA_DIR, scrypt at N=2^10 (SCRYPT_LOG_N=10: the
 * production default 2^17 costs ~0.4 s per hash), logs off. Overrides are applied last.
 */
export function testConfig(
  env: Record<string, string> = {},
  overrides: Partial<Config> = {},
): Config {
  const dataDir = tempDir();
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
      SCRYPT_LOG_N: '10',
      LOG_LEVEL: 'silent',
      WEB_DIST: path.join(dataDir, 'no-web-build'),
      // pg-boss only where a test asks for it (workspace-retention.test.ts); one worker thread.
      RUN_JOBS: 'false',
      VALIDATION_WORKERS: '1',
      ...env,
    },
    { baseDir: dataDir },
  );
  return { ...config, ...overrides };
}

export interface TestDatabase {
  database: Database;
  drop(): Promise<void>;
}

/** A migrated, empty database: PGlite in memory, or PostgreSQL when TEST_DATABASE_URL is set. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await openMemoryDatabase();
    await database.migrate();
    return { database, drop: () => database.close() };
  }
  const name = `schemacheck_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = openPostgres(url.toString());
  await database.migrate();
  return {
    database,
    async drop() {
      await database.close();
      const a = new pg.Client({ connectionString: serverUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

export class FakeClock {
  t = Date.parse('2026-03-10T12:00:00.000Z');
  now = (): Date => new Date(this.t);
  advance(ms: number): void {
    this.t += ms;
  }
}

export class CapturingMailer implements Mailer {
  readonly kind = 'custom' as const;
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
  close(): void {}
}

/** Collects log lines (JSON) written by the app. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, cb: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    cb();
  }
  get text(): string {
    return this.lines.join('\n');
  }
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  db: TestDatabase;
  clock: FakeClock;
  mailer: CapturingMailer;
  close(): Promise<void>;
}

export async function startTestApp(
  options: {
    env?: Record<string, string>;
    config?: Partial<Config>;
    deps?: AppDeps;
    db?: TestDatabase;
  } = {},
): Promise<TestApp> {
  const config = testConfig(options.env, options.config);
  const db = options.db ?? (await createTestDatabase());
  const clock = new FakeClock();
  const mailer = new CapturingMailer();
  const app = await buildApp(config, {
    database: db.database,
    now: clock.now,
    mailer,
    ...options.deps,
  });
  return {
    app,
    config,
    db,
    clock,
    mailer,
    async close() {
      await app.close();
      if (!options.db) await db.drop();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One test app for the whole file: started before its tests, closed after them, and then every
 * temp folder is removed. Its parts can be read once the tests run.
 */
export function testAppForFile(options: Parameters<typeof startTestApp>[0] = {}): TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await startTestApp(options);
  });
  afterAll(async () => {
    await current?.close();
    removeTempDirs();
  });
  const started = (): TestApp => {
    if (!current) throw new Error('The test app starts in beforeAll');
    return current;
  };
  return {
    get app() {
      return started().app;
    },
    get config() {
      return started().config;
    },
    get db() {
      return started().db;
    },
    get clock() {
      return started().clock;
    },
    get mailer() {
      return started().mailer;
    },
    close: () => started().close(),
  };
}

/**
 * Makes clients of `t.app`, each from its own address in 10.`net`.0.0/16, so that per-IP limits
 * of one test do not reach another (each test file takes its own `net`).
 */
export function clientsOf(t: TestApp, net: number): () => Client {
  let n = 0;
  return () => {
    n++;
    return new Client(t.app, `10.${net}.${Math.floor(n / 250)}.${(n % 250) + 1}`);
  };
}

/** Registers a new user through `client` and puts them on `tier` directly in the database. */
export async function registerOnTier(
  t: TestApp,
  client: Client,
  tier: SubscriptionTier,
  prefix: string,
) {
  const user = await client.register(newUser(prefix));
  const db = t.db.database.db;
  await db.update(users).set({ subscriptionTier: tier }).where(eq(users.username, user.username));
  const [row] = await db.select().from(users).where(eq(users.username, user.username));
  return { user, id: row!.id };
}

let counter = 0;
/** A fresh, valid username/email pair. */
export function newUser(prefix = 'user') {
  counter++;
  const id = `${prefix}${counter}${randomBytes(3).toString('hex')}`;
  return { username: id, email: `${id}@example.com`, password: STRONG_PASSWORD };
}

type Req = Omit<InjectOptions, 'cookies'> & { csrf?: boolean | string };

/** A browser over app.inject(): keeps cookies, fetches and sends the CSRF token. */
export class Client {
  readonly cookies = new Map<string, string>();
  csrfToken: string | null = null;

  constructor(
    readonly app: FastifyInstance,
    readonly ip = '127.0.0.1',
  ) {}

  async request(req: Req): Promise<LightMyRequestResponse> {
    const { csrf, headers, ...rest } = req;
    const method = String(req.method ?? 'GET').toUpperCase();
    const h: Record<string, string> = { ...(headers as Record<string, string>) };
    const wantsToken = csrf ?? !['GET', 'HEAD', 'OPTIONS'].includes(method);
    if (typeof wantsToken === 'string') h['x-csrf-token'] = wantsToken;
    else if (wantsToken) h['x-csrf-token'] = await this.token();
    const res = await this.app.inject({
      ...rest,
      method: method as InjectOptions['method'],
      headers: h,
      cookies: Object.fromEntries(this.cookies),
      remoteAddress: this.ip,
    });
    for (const c of res.cookies as Array<{
      name: string;
      value: string;
      maxAge?: number;
      expires?: Date;
    }>) {
      const expired =
        c.maxAge === 0 || (c.expires !== undefined && c.expires.getTime() < Date.now());
      if (expired || c.value === '') this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    const body = res.headers['content-type']?.toString().includes('json')
      ? safeJson(res.body)
      : null;
    if (
      body &&
      typeof body === 'object' &&
      'csrfToken' in body &&
      typeof body.csrfToken === 'string'
    ) {
      this.csrfToken = body.csrfToken;
    }
    return res;
  }

  async token(): Promise<string> {
    if (!this.csrfToken) {
      const res = await this.request({ method: 'GET', url: '/api/csrf-token' });
      this.csrfToken = res.json().csrfToken as string;
    }
    return this.csrfToken;
  }

  post(url: string, payload?: unknown, extra: Partial<Req> = {}) {
    return this.request({
      method: 'POST',
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      ...extra,
    });
  }

  get(url: string, extra: Partial<Req> = {}) {
    return this.request({ method: 'GET', url, ...extra });
  }

  async register(user = newUser()) {
    const res = await this.post('/api/auth/register', user);
    if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
    return user;
  }

  login(usernameOrEmail: string, password: string) {
    return this.post('/api/auth/login', { usernameOrEmail, password });
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The headers of a response without the ones that differ on every request. */
export function stableHeaders(res: LightMyRequestResponse): Record<string, unknown> {
  const { date: _date, 'x-request-id': _id, ...rest } = res.headers;
  return rest;
}

export type Part =
  | { name: string; value: string }
  | { name: string; filename: string; content: Buffer | string; contentType?: string };

/** A multipart/form-data body made by hand (parts in the order given). */
export function multipartBody(parts: Part[], boundary = `----sc${randomBytes(8).toString('hex')}`) {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('filename' in p) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\n` +
            `Content-Type: ${p.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
      );
      chunks.push(Buffer.isBuffer(p.content) ? p.content : Buffer.from(p.content));
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${p.name}"\r\n\r\n`));
      chunks.push(Buffer.from(p.value));
    }
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
