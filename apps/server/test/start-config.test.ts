import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from './helpers.ts';

// `npm start` as a user runs it, from the repository root, with one bad setting each: the start
// stops with one line on stderr naming the variable, exits non-zero, and builds nothing first
// (the configuration is checked before scripts/build-web-if-changed.js; issue 27).

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

interface Started {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The web app's build began (its script's banner or its up-to-date check printed). */
  built: boolean;
}

function npmStart(env: Record<string, string>): Promise<Started> {
  // Nothing of the caller's own settings leaks in.
  const {
    DATABASE_URL: _db,
    SMTP_URL: _smtp,
    APP_URL: _app,
    PORT: _port,
    HOST: _host,
    ...inherited
  } = process.env;
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...inherited, DATA_DIR: tempDir(), HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let built = false;
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    // A build (or the check whether one is due) means the configuration was not checked first:
    // stop there rather than wait minutes for the build.
    if (
      /^web: |> @schemacheck\/web@[^\n]* build|> @schemacheck\/server@[^\n]* start/m.test(stdout)
    ) {
      built = true;
      child.kill('SIGKILL');
    }
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr, built })),
  );
}

async function expectOneLine(env: Record<string, string>, line: string | RegExp): Promise<void> {
  const started = await npmStart(env);
  expect(started.built, started.stdout).toBe(false);
  expect(started.code).not.toBe(0);
  expect(started.code).not.toBeNull();
  expect(started.stderr.split('\n').filter(Boolean)).toEqual([expect.stringMatching(line)]);
}

describe('npm start with a bad setting', () => {
  it('PORT not a number', () =>
    expectOneLine(
      { PORT: 'eighty' },
      /^Invalid configuration: PORT must be an integer from 0 to 65535 \(got "eighty"\)$/,
    ));

  it('PORT out of range', () =>
    expectOneLine({ PORT: '99999' }, /^Invalid configuration: PORT must be an integer .*"99999"/));

  it('PORT in use', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      await expectOneLine(
        { PORT: String(port) },
        new RegExp(`^Invalid configuration: PORT ${port} is in use on 127\\.0\\.0\\.1`),
      );
    } finally {
      taken.close();
    }
  });

  it('APP_URL not a URL', () =>
    expectOneLine(
      { APP_URL: 'not-a-url' },
      /^Invalid configuration: APP_URL must be an http\(s\) origin .*"not-a-url"/,
    ));

  it('APP_URL not http(s)', () =>
    expectOneLine(
      { APP_URL: 'ftp://x' },
      /^Invalid configuration: APP_URL must be an http\(s\) origin .*"ftp:\/\/x"/,
    ));

  it('HOST not a host name', () =>
    expectOneLine(
      { HOST: 'not a host' },
      /^Invalid configuration: HOST must be an IP address or a host name .*"not a host"/,
    ));

  it('HOST that does not resolve', () =>
    expectOneLine(
      { HOST: 'nowhere.invalid' },
      /^Invalid configuration: HOST is not a name this machine can resolve \(got "nowhere\.invalid"\)$/,
    ));

  it('HOST not an address of this machine', () =>
    // 192.0.2.0/24 is reserved for documentation (RFC 5737): never a local address.
    expectOneLine(
      { HOST: '192.0.2.1' },
      /^Invalid configuration: HOST is not an address of this machine \(got "192\.0\.2\.1"\)$/,
    ));

  it('a bad value of another variable too (LOG_LEVEL)', () =>
    expectOneLine({ LOG_LEVEL: 'loud' }, /^Invalid configuration: LOG_LEVEL must be one of /));
});

afterAll(removeTempDirs);
