import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { removeTempDirs, tempDir } from './helpers.ts';
import { killServers, spawnServer } from './server-process.ts';

// Which billing a start gets (docs/decisions/126): live Stripe with all four STRIPE_* variables;
// test mode by default in development; under NODE_ENV=production test mode only when chosen with
// BILLING_MODE=test, otherwise the start stops with one line naming what is missing.

const LIVE = {
  STRIPE_SECRET_KEY: 'sk_live_abc123',
  STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
  STRIPE_PRICE_PRO: 'price_pro',
  STRIPE_PRICE_BUSINESS: 'price_business',
};

const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: tempDir(), ...env });

afterEach(killServers);
afterAll(removeTempDirs);

describe('billing mode', () => {
  it('is test mode by default outside production', () => {
    expect(load({}).stripe).toBeNull();
    expect(load({ NODE_ENV: 'development' }).stripe).toBeNull();
    expect(load({ NODE_ENV: 'test' }).stripe).toBeNull();
  });

  it('refuses a production start without Stripe keys, naming every missing variable', () => {
    const start = () => load({ NODE_ENV: 'production' });
    expect(start).toThrow(ConfigError);
    expect(start).toThrow(
      'Invalid configuration: NODE_ENV=production needs live billing: set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_PRO, STRIPE_PRICE_BUSINESS (or BILLING_MODE=test to run the test-mode Stripe on purpose)',
    );
    const { STRIPE_PRICE_BUSINESS: _b, STRIPE_WEBHOOK_SECRET: _w, ...partial } = LIVE;
    expect(() => load({ NODE_ENV: 'production', ...partial })).toThrow(
      /STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_BUSINESS must be set too/,
    );
  });

  it('runs test mode in production only when BILLING_MODE=test says so', () => {
    expect(load({ NODE_ENV: 'production', BILLING_MODE: 'test' }).stripe).toBeNull();
    expect(load({ NODE_ENV: 'production', ...LIVE }).stripe).toMatchObject({
      secretKey: LIVE.STRIPE_SECRET_KEY,
      prices: { pro: 'price_pro', business: 'price_business' },
    });
    expect(load({ NODE_ENV: 'production', BILLING_MODE: 'live', ...LIVE }).stripe).not.toBeNull();
  });

  it('refuses a BILLING_MODE that contradicts the keys, or an unknown one', () => {
    expect(() => load({ BILLING_MODE: 'test', ...LIVE })).toThrow(
      'Invalid configuration: BILLING_MODE=test runs the test-mode Stripe, so STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_PRO, STRIPE_PRICE_BUSINESS must not be set',
    );
    expect(() => load({ BILLING_MODE: 'live' })).toThrow(
      'Invalid configuration: BILLING_MODE=live needs live billing: set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_PRO, STRIPE_PRICE_BUSINESS',
    );
    expect(() => load({ BILLING_MODE: 'fake' })).toThrow(
      'Invalid configuration: BILLING_MODE must be test or live (got "fake")',
    );
  });

  it('stops the server with that one line', async () => {
    const server = spawnServer(tempDir(), { NODE_ENV: 'production' });
    expect(await server.exited).toBe(1);
    expect(server.output().trim()).toBe(
      'Invalid configuration: NODE_ENV=production needs live billing: set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_PRO, STRIPE_PRICE_BUSINESS (or BILLING_MODE=test to run the test-mode Stripe on purpose)',
    );
  });
});
