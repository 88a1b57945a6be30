import type { ServerOptions } from 'node:http';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import billingPlugin from './billing/plugin.ts';
import { openDatabase, type Database } from './db/client.ts';
import { tooManyAttempts } from './errors.ts';
import { deriveKey } from './lib/crypto.ts';
import { BackgroundTasks } from './lib/tasks.ts';
import apiV1 from './api-v1/index.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import errorsPlugin, { clientErrorHandler, frameworkErrors } from './plugins/errors.ts';
import maintenancePlugin from './plugins/maintenance.ts';
import compressionPlugin from './plugins/compression.ts';
import securityPlugin from './plugins/security.ts';
import sessionPlugin from './plugins/session.ts';
import webPlugin from './plugins/web.ts';
import workspacePlugin from './plugins/workspace.ts';
import asyncJobsPlugin from './jobs/plugin.ts';
import webhooksPlugin from './webhooks/plugin.ts';
import accountRoutes from './routes/account.ts';
import apiKeyRoutes from './routes/api-keys.ts';
import authRoutes from './routes/auth.ts';
import billingRoutes from './routes/billing.ts';
import csrfRoutes from './routes/csrf.ts';
import healthRoutes from './routes/health.ts';
import jobRoutes from './routes/jobs.ts';
import resultRoutes from './routes/results.ts';
import rowDownloadRoutes from './routes/row-downloads.ts';
import schemaRoutes from './routes/schemas.ts';
import listWebRoutes from './routes/lists.ts';
import usageRoutes from './routes/usage.ts';
import validateRoutes from './routes/validate.ts';
import webhookRoutes from './routes/webhooks.ts';
import { requestIdOf } from './request-id.ts';
import './types.ts';

// The whole application as one Fastify instance (docs/decisions/010). server.ts listens; tests
// call app.inject() or listen on a random port. Nothing here reads process.env.

export interface AppDeps {
  /** An open, migrated database. Without it the app opens (and migrates) one from config and
   * closes it on app.close(); with it, the caller closes it. */
  database?: Database;
  /** The clock (tests move it). */
  now?: () => Date;
  /** Replaces the SMTP/outbox mailer (tests capture mails). */
  mailer?: Mailer;
  /** Where logs go instead of stdout (tests read them). */
  logStream?: DestinationStream;
}

/** Query parameters whose values never reach the logs. */
const SECRET_PARAMS = /([?&](?:token|api_key|apikey|key|session_id|code)=)[^&#]*/gi;

/**
 * An API key anywhere in a URL, whatever the parameter is called (`?x=`, `?access_token=`, a
 * path segment), percent-encoded or not: `sc_` and at least 6 key characters, not inside a word
 * (`disc_…` is not a key; `Bearer%20sc_…` is).
 */
const API_KEY_LIKE = /(?<![A-Za-z])sc(?:_|%5[Ff])[0-9A-Za-z]{6,}/g;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]').replace(API_KEY_LIKE, 'sc_[redacted]');
}

export const LOG_REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.csrfToken',
  'body.password',
  'body.token',
];

/** A hop count becomes proxy-addr's "trust the n nearest hops" function. */
function trustProxyOption(t: Config['trustProxy']) {
  return typeof t === 'number' ? (_address: string, hop: number) => hop < t : t;
}

export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(deps.logStream ? { stream: deps.logStream } : {}),
      redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
      serializers: {
        req: (req: {
          method: string;
          url: string;
          ip?: string;
          socket?: { remoteAddress?: string };
        }) => ({
          method: req.method,
          url: redactUrl(req.url),
          remoteAddress: req.ip ?? req.socket?.remoteAddress,
        }),
      },
    },
    // The client's X-Request-Id (sanitised) or a new UUID (request-id.ts, docs/decisions/135).
    genReqId: requestIdOf,
    requestIdHeader: false,
    // Fastify's and Node's own refusals answer in our error shape too (plugins/errors.ts).
    frameworkErrors,
    clientErrorHandler,
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // docs/product.md#robustness: Fastify's requestTimeout default is 0 (none). Slow clients are cut.
    requestTimeout: config.http.requestTimeoutMs,
    connectionTimeout: config.http.connectionTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    http: {
      headersTimeout: config.http.headersTimeoutMs,
      connectionsCheckingInterval: config.http.connectionsCheckingIntervalMs,
    } satisfies ServerOptions,
    return503OnClosing: true,
  });

  let database = deps.database;
  const ownsDatabase = !database;
  if (!database) {
    database = await openDatabase(config);
    try {
      await database.migrate();
    } catch (err) {
      await database.close();
      throw err;
    }
  }

  const tasks = new BackgroundTasks(app.log);
  const mailer = deps.mailer ?? createMailer(config, app.log);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('now', deps.now ?? (() => new Date()));
  app.decorate('mailer', mailer);
  app.decorate('tasks', tasks);
  app.decorate('keys', {
    csrf: deriveKey(config.sessionSecret, 'csrf'),
    throttle: deriveKey(config.sessionSecret, 'throttle'),
  });
  app.decorate('accountDeletionHooks', []);

  app.addHook('onClose', async () => {
    await tasks.idle();
    mailer.close();
    if (ownsDatabase) await database.close();
  });

  await app.register(errorsPlugin);
  await app.register(securityPlugin);
  await app.register(compressionPlugin);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      tooManyAttempts('Too many requests.', context.ttl / 1000),
  });
  await app.register(sessionPlugin);
  await app.register(maintenancePlugin);
  await app.register(workspacePlugin);
  await app.register(asyncJobsPlugin);
  await app.register(webhooksPlugin);
  await app.register(billingPlugin);

  await app.register(healthRoutes);
  await app.register(csrfRoutes);
  await app.register(authRoutes, { prefix: '/api/auth' });
  await app.register(accountRoutes);
  await app.register(billingRoutes);
  await app.register(usageRoutes);
  await app.register(validateRoutes);
  await app.register(jobRoutes);
  await app.register(webhookRoutes);
  await app.register(resultRoutes);
  await app.register(rowDownloadRoutes);
  await app.register(schemaRoutes);
  await app.register(listWebRoutes);
  await app.register(apiKeyRoutes);
  await app.register(apiV1, { prefix: '/api/v1' });
  await app.register(webPlugin);

  return app;
}
