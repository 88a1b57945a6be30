import { buildApp } from './app.ts';
import { ConfigError, PRODUCTION_SCRYPT } from './config.ts';
import { fail, installShutdown, listenErrorMessage, openConfiguredDatabase } from './startup.ts';

// Start-up: read the configuration, open the database (taking the DATA_DIR lock for PGlite),
// apply pending migrations once, build the app, listen. SIGTERM/SIGINT: stop taking requests,
// finish those in flight and background work, close the database, release the lock, exit 0
// (installShutdown in startup.ts; Ctrl-C under npm arrives twice and is one request to stop).

const SHUTDOWN_GRACE_MS = 30_000;

async function main(): Promise<void> {
  const { config, database } = await openConfiguredDatabase();
  try {
    await database.migrate();
  } catch (err) {
    await database.close();
    fail(`Database migration failed: ${(err as Error).message}`);
  }

  let app;
  try {
    app = await buildApp(config, { database });
  } catch (err) {
    // E.g. a Stripe price named by a lookup key that does not exist, or Stripe unreachable.
    await database.close();
    fail(err instanceof ConfigError ? err.message : `Cannot start: ${(err as Error).message}`);
  }
  if (config.passwordHash.logN < PRODUCTION_SCRYPT.logN) {
    app.log.warn(
      { scryptLogN: config.passwordHash.logN },
      `SCRYPT_LOG_N is below ${PRODUCTION_SCRYPT.logN} (OWASP minimum): use this for tests only`,
    );
  }

  installShutdown(app, { database, config }, { graceMs: SHUTDOWN_GRACE_MS });

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    app.log.error({ err }, 'Cannot listen');
    await app.close();
    await database.close();
    fail(listenErrorMessage(err, config));
  }
  app.log.info(
    { appUrl: config.appUrl, database: database.kind, dataDir: config.dataDir },
    'SchemaCheck is ready',
  );
}

await main();
