import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

// Configuration is read from the environment once, at start, and checked here; nothing else reads
// process.env. A bad value stops start-up with one line naming the variable (ConfigError).

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** scrypt cost N = 2^logN. OWASP's minimum (and our default) is N=2^17, r=8, p=1. */
export const PRODUCTION_SCRYPT = { logN: 17, r: 8, p: 1 } as const;

export interface PasswordHashConfig {
  logN: number;
  r: number;
  p: number;
}

export interface Config {
  port: number;
  host: string;
  /** Absolute. Holds the PGlite database (db/), the outbox, the session secret and the lock. */
  dataDir: string;
  /** PostgreSQL connection string; null means the embedded PGlite database under dataDir/db. */
  databaseUrl: string | null;
  /** null means mails are written as .eml files under dataDir/outbox (and reset links logged). */
  smtpUrl: string | null;
  mailFrom: string;
  /** Public origin without a trailing slash, e.g. https://schemacheck.example. Used for links. */
  appUrl: string;
  /** True when appUrl is https: cookies get Secure and the __Host- prefix, HSTS is sent. */
  secureCookies: boolean;
  /** Key material for CSRF tokens and throttle keys (≥ 32 characters). */
  sessionSecret: string;
  logLevel: LogLevel;
  /** Absolute path of the built web app (index.html and assets). */
  webDist: string;
  /** Fastify trustProxy: false, a hop count, or the proxies' addresses/CIDRs. */
  trustProxy: false | number | string[];
  passwordHash: PasswordHashConfig;
  /** Worker threads that run validations (docs/decisions/030). */
  validationWorkers: number;
  /** Heap limit of each validation worker in MB; past it only that worker dies (061). */
  validationWorkerHeapMb: number;
  /** Run the pg-boss worker (scheduled jobs such as the retention purge) in this process. */
  runJobs: boolean;
  /** How often the in-process pg-boss worker looks for jobs (tests lower it). */
  jobsPollSeconds: number;
  /** Public API requests per key per minute (docs/decisions/083). */
  apiRateLimit: { perMinute: number; enterprisePerMinute: number };
  /**
   * Live Stripe (STRIPE_SECRET_KEY and the rest set together), or null for test mode: the
   * in-process Stripe-protocol server of packages/stripe-test-mode (docs/decisions/070, 195).
   */
  stripe: StripeConfig | null;
  /** Outgoing webhooks (docs/decisions/091, 092). */
  webhooks: {
    /** Plain http URLs accepted (local development, tests); https only otherwise. */
    allowHttp: boolean;
    /** Addresses or CIDR ranges allowed although private (WEBHOOK_ALLOWED_ADDRESSES). */
    allowedAddresses: string[];
    /** One attempt: connect, send, and the response, within this. */
    timeoutMs: number;
    /** Waits before the 2nd, 3rd, … attempt of one message (tests shorten them). */
    retryDelaysMs: number[];
    /** A webhook failing without a success for this long is switched off. */
    disableAfterMs: number;
  };
  /**
   * Where reports, job uploads and spooled files are stored (docs/decisions/215): an
   * S3-compatible bucket, or null for local disk under DATA_DIR/reports (the default).
   */
  s3: S3Config | null;
  /**
   * A CSV job upload larger than this is split into parts that child jobs validate on any
   * worker (JOB_SPLIT_BYTES, docs/decisions/239); null never splits.
   */
  jobSplitBytes: number | null;
  /** Asynchronous validation jobs (docs/decisions/093). */
  validationJobs: {
    /** A running job writes its heartbeat this often. */
    heartbeatMs: number;
    /** A running job whose heartbeat is older than this is taken over (its process died). */
    staleMs: number;
  };
  http: {
    /** Whole request (headers and body) must arrive within this (docs/product.md#robustness). */
    requestTimeoutMs: number;
    headersTimeoutMs: number;
    /** Idle socket timeout. */
    connectionTimeoutMs: number;
    keepAliveTimeoutMs: number;
    /** How often Node checks the two timeouts above. */
    connectionsCheckingIntervalMs: number;
  };
}

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** Price ids (price_…) of the two monthly GBP prices. */
  prices: { pro: string; business: string };
}

export interface S3Config {
  bucket: string;
  region: string;
  /** http(s) URL of a service other than AWS; null for AWS. */
  endpoint: string | null;
  forcePathStyle: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const opt = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());

/** JOB_SPLIT_BYTES's default: 64 MiB (docs/decisions/239). */
const DEFAULT_JOB_SPLIT_BYTES = 64 * 1024 * 1024;

const intIn = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be an integer from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be an integer from ${min} to ${max}`);

/** A price id (`price_…`), or the price's lookup key, resolved to its id at start. */
const stripePrice = z
  .string()
  .regex(
    /^[\w.:-]{1,200}$/,
    'must be a Stripe price id (price_…) or lookup key (letters, digits, _ . : -)',
  );

const envSchema = z.object({
  PORT: opt(intIn(0, 65535)),
  // An address or a host name; whether this machine can listen there is checked at start
  // (checkListen in startup.ts), so that a bad one is named as HOST, not only by its value.
  HOST: opt(
    z
      .string()
      .refine(
        (v) =>
          isIP(v) !== 0 ||
          /^(?=.{1,253}$)[a-z\d]([a-z\d-]*[a-z\d])?(\.[a-z\d]([a-z\d-]*[a-z\d])?)*$/i.test(v),
        'must be an IP address or a host name of this machine such as 0.0.0.0, 127.0.0.1 or localhost',
      ),
  ),
  DATA_DIR: opt(z.string()),
  DATABASE_URL: opt(
    z
      .string()
      .refine(
        (v) => /^postgres(ql)?:\/\//.test(v),
        'must be a postgres:// or postgresql:// connection string',
      ),
  ),
  SMTP_URL: opt(
    z.string().refine((v) => /^smtps?:\/\/[^/]/.test(v), 'must be an smtp:// or smtps:// URL'),
  ),
  MAIL_FROM: opt(
    z
      .string()
      .refine(
        (v) => v.includes('@'),
        'must be an address such as "SchemaCheck <no-reply@example.com>"',
      ),
  ),
  APP_URL: opt(
    z.string().refine((v) => {
      try {
        const u = new URL(v);
        return (
          (u.protocol === 'http:' || u.protocol === 'https:') &&
          (u.pathname === '/' || u.pathname === '') &&
          !u.search &&
          !u.hash &&
          !u.username
        );
      } catch {
        return false;
      }
    }, 'must be an http(s) origin such as https://schemacheck.example (no path)'),
  ),
  SESSION_SECRET: opt(z.string().min(32, 'must be at least 32 characters')),
  LOG_LEVEL: opt(z.enum(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`)),
  WEB_DIST: opt(z.string()),
  TRUST_PROXY: opt(
    z
      .string()
      .refine(
        (v) => v !== 'true',
        'must be false, a number of proxy hops, or a comma-separated list of proxy addresses (true would trust any client)',
      ),
  ),
  SCRYPT_LOG_N: opt(intIn(10, 20)),
  VALIDATION_WORKERS: opt(intIn(1, 32)),
  VALIDATION_WORKER_HEAP_MB: opt(intIn(64, 65536)),
  RUN_JOBS: opt(z.enum(['true', 'false'], 'must be true or false')),
  API_RATE_LIMIT_PER_MINUTE: opt(intIn(1, 1_000_000)),
  API_RATE_LIMIT_ENTERPRISE_PER_MINUTE: opt(intIn(1, 1_000_000)),
  WEBHOOK_ALLOW_HTTP: opt(z.enum(['true', 'false'], 'must be true or false')),
  WEBHOOK_ALLOWED_ADDRESSES: opt(
    z.string().refine(
      (v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .every((s) => {
            const [a, p] = s.split('/');
            const kind = isIP(a ?? '');
            return (
              kind !== 0 &&
              (p === undefined || (/^\d+$/.test(p) && Number(p) <= (kind === 4 ? 32 : 128)))
            );
          }),
      'must be a comma-separated list of IP addresses or CIDR ranges such as 127.0.0.1,::1',
    ),
  ),
  JOB_STALE_SECONDS: opt(intIn(5, 3600)),
  JOB_SPLIT_BYTES: opt(intIn(0, Number.MAX_SAFE_INTEGER)),
  STRIPE_SECRET_KEY: opt(
    z
      .string()
      .regex(/^(sk|rk)_(live|test)_\w+$/, 'must be a Stripe secret key (sk_live_… or sk_test_…)'),
  ),
  STRIPE_WEBHOOK_SECRET: opt(
    z.string().regex(/^whsec_\w+$/, 'must be a webhook signing secret (whsec_…)'),
  ),
  STRIPE_PRICE_PRO: opt(stripePrice),
  STRIPE_PRICE_BUSINESS: opt(stripePrice),
  S3_BUCKET: opt(
    z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'must be a bucket name (3-63 lower-case letters, digits, dots and hyphens)',
      ),
  ),
  S3_REGION: opt(
    z.string().regex(/^[a-z0-9-]{1,64}$/, 'must be a region such as eu-west-2 (or auto for R2)'),
  ),
  S3_ENDPOINT: opt(
    z.string().refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.search;
      } catch {
        return false;
      }
    }, 'must be an http(s) URL such as https://<account>.r2.cloudflarestorage.com'),
  ),
  S3_FORCE_PATH_STYLE: opt(z.enum(['true', 'false'], 'must be true or false')),
  NODE_ENV: opt(z.string()),
  BILLING_MODE: opt(z.enum(['test', 'live'], 'must be test or live')),
});

const STRIPE_VARIABLES = [
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_PRICE_PRO',
  'STRIPE_PRICE_BUSINESS',
] as const;

/**
 * All four Stripe variables (live), or none (test mode). Test mode is the default in development
 * only: under NODE_ENV=production it must be chosen with BILLING_MODE=test, so that a server
 * whose keys went missing refuses to start instead of selling plans for test cards
 * (docs/decisions/126). BILLING_MODE=live asks for the keys anywhere.
 */
function stripeConfig(e: z.infer<typeof envSchema>): StripeConfig | null {
  const missing = STRIPE_VARIABLES.filter((name) => e[name] === undefined);
  const all = STRIPE_VARIABLES.join(', ');
  if (e.BILLING_MODE === 'test') {
    if (missing.length === STRIPE_VARIABLES.length) return null;
    throw new ConfigError(
      `Invalid configuration: BILLING_MODE=test runs the test-mode Stripe, so ${all} must not be set`,
    );
  }
  if (missing.length === STRIPE_VARIABLES.length) {
    if (e.BILLING_MODE === 'live') {
      throw new ConfigError(
        `Invalid configuration: BILLING_MODE=live needs live billing: set ${all}`,
      );
    }
    if (e.NODE_ENV === 'production') {
      throw new ConfigError(
        `Invalid configuration: NODE_ENV=production needs live billing: set ${all} (or BILLING_MODE=test to run the test-mode Stripe on purpose)`,
      );
    }
    return null;
  }
  if (missing.length > 0) {
    throw new ConfigError(
      `Invalid configuration: ${missing.join(', ')} must be set too: live billing needs all of ${all} (none of them means test mode)`,
    );
  }
  return {
    secretKey: e.STRIPE_SECRET_KEY!,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
    prices: { pro: e.STRIPE_PRICE_PRO!, business: e.STRIPE_PRICE_BUSINESS! },
  };
}

/**
 * S3_BUCKET and S3_REGION together turn S3 storage on; S3_ENDPOINT and S3_FORCE_PATH_STYLE only
 * mean something with them. Anything set without the bucket, or a bucket without its region, is
 * a half-configured S3 that would silently store on local disk: refused with one line.
 */
function s3Config(e: z.infer<typeof envSchema>): S3Config | null {
  const others = (['S3_REGION', 'S3_ENDPOINT', 'S3_FORCE_PATH_STYLE'] as const).filter(
    (name) => e[name] !== undefined,
  );
  if (e.S3_BUCKET === undefined) {
    if (others.length === 0) return null;
    throw new ConfigError(
      `Invalid configuration: ${others.join(', ')} ${others.length === 1 ? 'is' : 'are'} set but S3_BUCKET is not: set S3_BUCKET (and S3_REGION) to store on S3, or unset ${others.join(', ')} to store under DATA_DIR`,
    );
  }
  if (e.S3_REGION === undefined) {
    throw new ConfigError(
      'Invalid configuration: S3_BUCKET needs S3_REGION too (e.g. eu-west-2; auto for Cloudflare R2, us-east-1 for most other S3-compatible services)',
    );
  }
  return {
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT ? e.S3_ENDPOINT.replace(/\/+$/, '') : null,
    forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
  };
}

/** One thread fewer than the cores (the event loop keeps one), at least 1, at most 4. */
function defaultValidationWorkers(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/** apps/web/dist, found from this file so that it works from any working directory. */
const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

function formatIssue(issue: z.core.$ZodIssue, env: Record<string, string | undefined>): string {
  const name = String(issue.path[0] ?? 'environment');
  const raw = env[name];
  const shown =
    raw === undefined
      ? ''
      : ` (got ${JSON.stringify(raw.length > 60 ? raw.slice(0, 60) + '…' : raw)})`;
  // Never echo a secret back.
  const got =
    name === 'SESSION_SECRET' ||
    name === 'DATABASE_URL' ||
    name === 'SMTP_URL' ||
    name === 'STRIPE_SECRET_KEY' ||
    name === 'STRIPE_WEBHOOK_SECRET'
      ? ''
      : shown;
  return `Invalid configuration: ${name} ${issue.message}${got}`;
}

export interface LoadConfigOptions {
  /** Relative paths resolve against this. Default: the directory npm was run from, else cwd. */
  baseDir?: string;
  /**
   * For the operator commands (set-tier, set-rate-limit), which change an existing database: with
   * the embedded database, a DATA_DIR holding none is refused (a mistyped path must not create an
   * empty one, where the change would go unnoticed).
   */
  existingDatabase?: boolean;
}

/**
 * Reads and checks the configuration. Creates DATA_DIR, and when SESSION_SECRET is unset reads or
 * creates DATA_DIR/session-secret (mode 0600). Throws ConfigError with a one-line message.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  options: LoadConfigOptions = {},
): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(formatIssue(parsed.error.issues[0]!, env));
  }
  const e = parsed.data;
  const baseDir = options.baseDir ?? env.INIT_CWD ?? process.cwd();

  const port = e.PORT ?? 3000;
  const dataDir = path.resolve(baseDir, e.DATA_DIR ?? './data');
  if (
    options.existingDatabase &&
    e.DATABASE_URL === undefined &&
    !existsSync(path.join(dataDir, 'db', 'PG_VERSION'))
  ) {
    throw new ConfigError(
      `Invalid configuration: DATA_DIR ${dataDir} holds no SchemaCheck database; set DATA_DIR to the server's data folder (or DATABASE_URL to its PostgreSQL)`,
    );
  }
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (err) {
    throw new ConfigError(
      `Invalid configuration: DATA_DIR ${dataDir} cannot be created (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }

  const appUrl = new URL(e.APP_URL ?? `http://localhost:${port}`).origin;
  const secureCookies = appUrl.startsWith('https:');

  let trustProxy: Config['trustProxy'] = false;
  if (e.TRUST_PROXY !== undefined && e.TRUST_PROXY !== 'false') {
    trustProxy = /^\d+$/.test(e.TRUST_PROXY)
      ? Number(e.TRUST_PROXY)
      : e.TRUST_PROXY.split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  }

  return {
    port,
    host: e.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: e.DATABASE_URL ?? null,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM ?? `SchemaCheck <no-reply@${new URL(appUrl).hostname}>`,
    appUrl,
    secureCookies,
    sessionSecret: e.SESSION_SECRET ?? readOrCreateSecret(dataDir),
    logLevel: e.LOG_LEVEL ?? 'info',
    webDist: e.WEB_DIST ? path.resolve(baseDir, e.WEB_DIST) : DEFAULT_WEB_DIST,
    trustProxy,
    passwordHash: { ...PRODUCTION_SCRYPT, logN: e.SCRYPT_LOG_N ?? PRODUCTION_SCRYPT.logN },
    validationWorkers: e.VALIDATION_WORKERS ?? defaultValidationWorkers(),
    validationWorkerHeapMb: e.VALIDATION_WORKER_HEAP_MB ?? 1024,
    runJobs: e.RUN_JOBS !== 'false',
    jobsPollSeconds: 30,
    apiRateLimit: {
      perMinute: e.API_RATE_LIMIT_PER_MINUTE ?? 600,
      enterprisePerMinute: e.API_RATE_LIMIT_ENTERPRISE_PER_MINUTE ?? 3000,
    },
    stripe: stripeConfig(e),
    s3: s3Config(e),
    webhooks: {
      allowHttp: e.WEBHOOK_ALLOW_HTTP === 'true',
      allowedAddresses: (e.WEBHOOK_ALLOWED_ADDRESSES ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      timeoutMs: 15_000,
      // Svix's schedule after the first attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.
      retryDelaysMs: [5, 300, 1800, 7200, 18_000, 36_000, 36_000].map((s) => s * 1000),
      disableAfterMs: 5 * 24 * 60 * 60 * 1000,
    },
    // 0 turns splitting off.
    jobSplitBytes:
      e.JOB_SPLIT_BYTES === undefined
        ? DEFAULT_JOB_SPLIT_BYTES
        : e.JOB_SPLIT_BYTES === 0
          ? null
          : e.JOB_SPLIT_BYTES,
    validationJobs: {
      heartbeatMs: 5_000,
      staleMs: (e.JOB_STALE_SECONDS ?? 60) * 1000,
    },
    http: {
      // A 100 MB job upload must fit at about 60 KB/s (docs/decisions/093); slow headers are cut
      // at 30 s and a stalled body at the 120 s idle timeout.
      requestTimeoutMs: 30 * 60_000,
      headersTimeoutMs: 30_000,
      connectionTimeoutMs: 120_000,
      keepAliveTimeoutMs: 10_000,
      connectionsCheckingIntervalMs: 5_000,
    },
  };
}

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length < 32) {
      throw new ConfigError(
        `Invalid configuration: ${file} holds a secret shorter than 32 characters; delete it to generate a new one`,
      );
    }
    return existing;
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new ConfigError(
        `Invalid configuration: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      );
    }
  }
  const secret = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readOrCreateSecret(dataDir);
    throw new ConfigError(
      `Invalid configuration: cannot write ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
  return secret;
}
