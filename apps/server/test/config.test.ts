import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, afterAll } from 'vitest';
import { ConfigError, loadConfig, PRODUCTION_SCRYPT } from '../src/config.ts';
import { tempDir, removeTempDirs } from './helpers.ts';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const base = tempDir();
    const c = loadConfig({}, { baseDir: base });
    expect(c.port).toBe(3000);
    expect(c.host).toBe('0.0.0.0');
    expect(c.dataDir).toBe(path.join(base, 'data'));
    expect(c.databaseUrl).toBeNull();
    expect(c.smtpUrl).toBeNull();
    expect(c.appUrl).toBe('http://localhost:3000');
    expect(c.secureCookies).toBe(false);
    expect(c.mailFrom).toBe('SchemaCheck <no-reply@localhost>');
    expect(c.logLevel).toBe('info');
    expect(c.trustProxy).toBe(false);
    expect(c.passwordHash).toEqual(PRODUCTION_SCRYPT);
    expect(c.webDist).toMatch(/apps[/\\]web[/\\]dist$/);
    expect(c.http.requestTimeoutMs).toBeGreaterThan(0);
    expect(c.http.headersTimeoutMs).toBeGreaterThan(0);
  });

  it('APP_URL follows PORT by default and https turns on secure cookies', () => {
    const base = tempDir();
    expect(loadConfig({ PORT: '8080' }, { baseDir: base }).appUrl).toBe('http://localhost:8080');
    const c = loadConfig({ APP_URL: 'https://schemacheck.example/' }, { baseDir: base });
    expect(c.appUrl).toBe('https://schemacheck.example');
    expect(c.secureCookies).toBe(true);
  });

  it('generates SESSION_SECRET once into DATA_DIR/session-secret with mode 0600', () => {
    const base = tempDir();
    const first = loadConfig({ DATA_DIR: 'd' }, { baseDir: base });
    const file = path.join(base, 'd', 'session-secret');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.sessionSecret);
    expect(loadConfig({ DATA_DIR: 'd' }, { baseDir: base }).sessionSecret).toBe(
      first.sessionSecret,
    );
    // A configured secret wins and nothing is written.
    const other = tempDir();
    const c = loadConfig({ DATA_DIR: other, SESSION_SECRET: 's'.repeat(40) });
    expect(c.sessionSecret).toBe('s'.repeat(40));
    expect(() => statSync(path.join(other, 'session-secret'))).toThrow();
  });

  it('refuses a short secret file', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'session-secret'), 'short');
    expect(() => loadConfig({ DATA_DIR: dir })).toThrow(/shorter than 32 characters/);
  });

  it('TRUST_PROXY takes a hop count or addresses, never "true"', () => {
    const base = tempDir();
    expect(loadConfig({ TRUST_PROXY: '1' }, { baseDir: base }).trustProxy).toBe(1);
    expect(
      loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.0/8' }, { baseDir: base }).trustProxy,
    ).toEqual(['10.0.0.1', '10.0.0.0/8']);
    expect(loadConfig({ TRUST_PROXY: 'false' }, { baseDir: base }).trustProxy).toBe(false);
  });

  it('JOB_SPLIT_BYTES: 64 MiB by default, 0 never splits, anything else a byte count', () => {
    const base = tempDir();
    expect(loadConfig({}, { baseDir: base }).jobSplitBytes).toBe(64 * 1024 * 1024);
    expect(loadConfig({ JOB_SPLIT_BYTES: '0' }, { baseDir: base }).jobSplitBytes).toBeNull();
    expect(loadConfig({ JOB_SPLIT_BYTES: '1048576' }, { baseDir: base }).jobSplitBytes).toBe(
      1048576,
    );
    expect(() => loadConfig({ JOB_SPLIT_BYTES: '64MB' }, { baseDir: base })).toThrow(
      /JOB_SPLIT_BYTES/,
    );
  });

  it('treats empty values as unset', () => {
    const c = loadConfig({ PORT: '', SMTP_URL: ' ', DATA_DIR: tempDir() });
    expect(c.port).toBe(3000);
    expect(c.smtpUrl).toBeNull();
  });

  it.each([
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be an integer from 0 to 65535 (got "abc")'],
    [
      { PORT: '70000' },
      'Invalid configuration: PORT must be an integer from 0 to 65535 (got "70000")',
    ],
    [{ APP_URL: 'ftp://x' }, 'Invalid configuration: APP_URL must be an http(s) origin'],
    [
      { APP_URL: 'https://x.example/app' },
      'Invalid configuration: APP_URL must be an http(s) origin',
    ],
    [{ DATABASE_URL: 'mysql://x' }, 'Invalid configuration: DATABASE_URL must be a postgres://'],
    [
      { SMTP_URL: 'http://mail' },
      'Invalid configuration: SMTP_URL must be an smtp:// or smtps:// URL',
    ],
    [
      { SESSION_SECRET: 'short' },
      'Invalid configuration: SESSION_SECRET must be at least 32 characters',
    ],
    [{ LOG_LEVEL: 'loud' }, 'Invalid configuration: LOG_LEVEL must be one of'],
    [
      { SCRYPT_LOG_N: '30' },
      'Invalid configuration: SCRYPT_LOG_N must be an integer from 10 to 20',
    ],
    [{ TRUST_PROXY: 'true' }, 'Invalid configuration: TRUST_PROXY must be false, a number'],
    [{ MAIL_FROM: 'nobody' }, 'Invalid configuration: MAIL_FROM must be an address'],
  ])('stops with one clear line for %j', (env, message) => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: tempDir(), ...env });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message.startsWith(message)).toBe(true);
    expect((error as Error).message).not.toContain('\n');
  });

  it('takes Stripe prices by id or lookup key, all four Stripe variables or none', () => {
    const base = tempDir();
    const stripe = {
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      STRIPE_PRICE_PRO: 'price_123',
      STRIPE_PRICE_BUSINESS: 'business_monthly',
    };
    expect(loadConfig(stripe, { baseDir: base }).stripe?.prices).toEqual({
      pro: 'price_123',
      business: 'business_monthly',
    });
    expect(() =>
      loadConfig({ ...stripe, STRIPE_PRICE_PRO: 'pro monthly' }, { baseDir: base }),
    ).toThrow(/STRIPE_PRICE_PRO.*price id \(price_…\) or lookup key/);
    expect(() =>
      loadConfig({ ...stripe, STRIPE_PRICE_BUSINESS: undefined }, { baseDir: base }),
    ).toThrow(/STRIPE_PRICE_BUSINESS must be set too/);
  });

  it('never echoes a secret value in the message', () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), SESSION_SECRET: 'hunter2' })).toThrow(
      /^Invalid configuration: SESSION_SECRET must be at least 32 characters$/,
    );
  });
});

afterAll(removeTempDirs);
