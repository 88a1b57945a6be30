import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { FORGOT_PASSWORD_MESSAGE } from '@schemacheck/contracts';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { sessions, users } from '../src/db/schema.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import {
  Client,
  clientsOf,
  LogCapture,
  newUser,
  stableHeaders,
  testAppForFile,
  testConfig,
} from './helpers.ts';

const t = testAppForFile();
const client = clientsOf(t, 1);

/** Mail bodies are quoted-printable: `=` is `=3D`, long lines end in a soft break `=`. */
function decodeQuotedPrintable(s: string): string {
  return s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const NEW_PASSWORD = 'Green-Teapot-77';
const INVALID = 'This password reset link is invalid or has expired. Please request a new one.';

/** Asks for a reset mail and returns the token from the link in it. */
async function requestReset(email: string): Promise<string> {
  const before = t.mailer.sent.length;
  const res = await client().post('/api/auth/forgot-password', { email });
  expect(res.statusCode).toBe(200);
  await t.app.tasks.idle();
  const mail = t.mailer.sent.slice(before).find((m) => m.subject.includes('Reset'));
  expect(mail).toBeDefined();
  const link = /(http\S+reset-password\?token=([\w-]+))/.exec(mail!.text)!;
  return link[2]!;
}

describe('forgot-password', () => {
  it('answers the same status, body and headers for a registered and an unknown email', async () => {
    const u = await client().register();
    const known = await client().post('/api/auth/forgot-password', { email: u.email });
    const unknown = await client().post('/api/auth/forgot-password', {
      email: 'nobody-' + u.email,
    });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
    expect(unknown.body).toBe(known.body);
    expect(stableHeaders(unknown)).toEqual(stableHeaders(known));
    await t.app.tasks.idle();
    expect(t.mailer.sent.filter((m) => m.to === u.email)).toHaveLength(1);
    expect(t.mailer.sent.filter((m) => m.to === 'nobody-' + u.email)).toHaveLength(0);
  });

  it('builds the link from APP_URL, never from Host or X-Forwarded-Host', async () => {
    const u = await client().register();
    const before = t.mailer.sent.length;
    const res = await client().post(
      '/api/auth/forgot-password',
      { email: u.email },
      { headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } },
    );
    expect(res.statusCode).toBe(200);
    await t.app.tasks.idle();
    const mail = t.mailer.sent.slice(before)[0]!;
    expect(mail.text).toContain(`${t.config.appUrl}/reset-password?token=`);
    expect(mail.text).not.toContain('evil.example');
    expect(mail.html).toContain(`${t.config.appUrl}/reset-password?token=`);
  });

  it('stores only the SHA-256 of a 256-bit token, valid for one hour', async () => {
    const u = await client().register();
    const token = await requestReset(u.email);
    expect(Buffer.from(token, 'base64url').length).toBe(32);
    const [row] = await t.db.database.db.select().from(users).where(eq(users.email, u.email));
    expect(row!.resetTokenHash).toBe(sha256Hex(token));
    expect(row!.resetTokenExpiresAt!.getTime() - t.clock.now().getTime()).toBe(60 * 60 * 1000);
  });

  it('matches the email ignoring case', async () => {
    const u = await client().register();
    const token = await requestReset(u.email.toUpperCase());
    expect(token).toBeTruthy();
  });

  it('limits reset mails per address (registered or not) with 429', async () => {
    for (const email of [(await client().register()).email, `ghost-${newUser().email}`]) {
      for (let i = 0; i < 5; i++) {
        expect((await client().post('/api/auth/forgot-password', { email })).statusCode).toBe(200);
      }
      const res = await client().post('/api/auth/forgot-password', { email });
      expect(res.statusCode).toBe(429);
      expect(res.json().error).toMatch(
        /^Too many reset requests for this email address\. Try again in \d+ minutes?\.$/,
      );
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('limits requests per client IP with 429', async () => {
    const c = new Client(t.app, '10.200.0.1');
    let last = 0;
    for (let i = 0; i < 21; i++) {
      last = (await c.post('/api/auth/forgot-password', { email: `ip-${i}@example.com` }))
        .statusCode;
    }
    expect(last).toBe(429);
  });

  it('refuses an invalid email with the form message', async () => {
    const res = await client().post('/api/auth/forgot-password', { email: 'nope' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Please enter a valid email address');
  });
});

describe('reset-password', () => {
  it('sets the new password, ends every session, does not sign in, and mails the user', async () => {
    const a = client();
    const u = await a.register();
    const b = client();
    await b.login(u.username, u.password);
    const token = await requestReset(u.email);

    const c = client();
    const res = await c.post('/api/auth/reset-password', { token, password: NEW_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().ok).toBe(true);
    expect(c.cookies.has('sc_session')).toBe(false);
    expect((await c.get('/api/auth/me')).json()).toEqual({ user: null });

    expect((await a.get('/api/auth/me')).json()).toEqual({ user: null });
    expect((await b.get('/api/auth/me')).json()).toEqual({ user: null });
    const [row] = await t.db.database.db.select().from(users).where(eq(users.email, u.email));
    expect(
      await t.db.database.db.select().from(sessions).where(eq(sessions.userId, row!.id)),
    ).toHaveLength(0);

    expect((await client().login(u.username, u.password)).statusCode).toBe(401);
    expect((await client().login(u.username, NEW_PASSWORD)).statusCode).toBe(200);
    await t.app.tasks.idle();
    expect(t.mailer.sent.some((m) => m.to === u.email && m.subject.includes('was changed'))).toBe(
      true,
    );
  });

  it('works once: a used token gives 400', async () => {
    const u = await client().register();
    const token = await requestReset(u.email);
    expect(
      (await client().post('/api/auth/reset-password', { token, password: NEW_PASSWORD }))
        .statusCode,
    ).toBe(200);
    const again = await client().post('/api/auth/reset-password', {
      token,
      password: 'Other-Password-9',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      error: INVALID,
      code: 'invalid_reset_token',
      request_id: expect.any(String),
    });
  });

  it('expires after one hour', async () => {
    const u = await client().register();
    const token = await requestReset(u.email);
    t.clock.advance(60 * 60 * 1000);
    const res = await client().post('/api/auth/reset-password', { token, password: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(INVALID);
  });

  it('of two concurrent uses, exactly one succeeds', async () => {
    const u = await client().register();
    const token = await requestReset(u.email);
    const results = await Promise.all(
      ['Race-Password-1', 'Race-Password-2', 'Race-Password-3'].map((password) =>
        client().post('/api/auth/reset-password', { token, password }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
  });

  it('only the latest link works', async () => {
    const u = await client().register();
    const first = await requestReset(u.email);
    const second = await requestReset(u.email);
    expect(
      (await client().post('/api/auth/reset-password', { token: first, password: NEW_PASSWORD }))
        .statusCode,
    ).toBe(400);
    expect(
      (await client().post('/api/auth/reset-password', { token: second, password: NEW_PASSWORD }))
        .statusCode,
    ).toBe(200);
  });

  it('refuses unknown, empty and oversized tokens, weak and common passwords', async () => {
    const unknown = await client().post('/api/auth/reset-password', {
      token: 'x'.repeat(43),
      password: NEW_PASSWORD,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe(INVALID);
    const empty = await client().post('/api/auth/reset-password', {
      token: '',
      password: NEW_PASSWORD,
    });
    expect(empty.json().error).toBe('Reset token is required');
    const huge = await client().post('/api/auth/reset-password', {
      token: 'x'.repeat(300),
      password: NEW_PASSWORD,
    });
    expect(huge.json().error).toBe('Invalid reset token');

    const u = await client().register();
    const token = await requestReset(u.email);
    const weak = await client().post('/api/auth/reset-password', { token, password: 'weakpass' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error).toBe('Password must contain at least one uppercase letter');
    const common = await client().post('/api/auth/reset-password', {
      token,
      password: 'Password123!',
    });
    expect(common.json().code).toBe('common_password');
    // The token survives refused attempts.
    expect(
      (await client().post('/api/auth/reset-password', { token, password: NEW_PASSWORD }))
        .statusCode,
    ).toBe(200);
  });
});

describe('mail delivery', () => {
  it('sends the reset mail over SMTP; its link resets the password', async () => {
    const received: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        let data = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => (data += chunk));
        stream.on('end', () => {
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    const config = testConfig({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'SchemaCheck <no-reply@schemacheck.test>',
      APP_URL: 'http://schemacheck.test:8080',
    });
    const app = await buildApp(config, { database: t.db.database });
    try {
      const c = new Client(app);
      const u = await c.register();
      await c.post('/api/auth/logout');
      expect((await c.post('/api/auth/forgot-password', { email: u.email })).statusCode).toBe(200);
      await app.tasks.idle();
      expect(received).toHaveLength(1);
      const raw = decodeQuotedPrintable(received[0]!);
      expect(raw).toMatch(/^From: SchemaCheck <no-reply@schemacheck\.test>/m);
      expect(raw).toMatch(new RegExp(`^To: ${u.email}`, 'm'));
      const link = /http:\/\/schemacheck\.test:8080\/reset-password\?token=([\w-]{43})/.exec(raw);
      expect(link).not.toBeNull();
      const token = link![1]!;
      expect(
        (await c.post('/api/auth/reset-password', { token, password: NEW_PASSWORD })).statusCode,
      ).toBe(200);
      const login = await c.login(u.email, NEW_PASSWORD);
      expect(login.statusCode).toBe(200);
      expect(login.json().user.username).toBe(u.username);
      await app.tasks.idle();
      expect(received).toHaveLength(2); // the "password changed" notice
    } finally {
      await app.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });

  it('without SMTP_URL writes an .eml into DATA_DIR/outbox and logs the link (only there)', async () => {
    const logs = new LogCapture();
    const config = testConfig({ LOG_LEVEL: 'info' });
    const app = await buildApp(config, { database: t.db.database, logStream: logs });
    try {
      const c = new Client(app);
      const u = await c.register();
      await c.post('/api/auth/forgot-password', { email: u.email });
      await app.tasks.idle();
      const outbox = path.join(config.dataDir, 'outbox');
      const files = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
      expect(files).toHaveLength(1);
      const eml = decodeQuotedPrintable(readFileSync(path.join(outbox, files[0]!), 'utf8'));
      const token = /reset-password\?token=([\w-]{43})/.exec(eml)![1]!;
      const linkLines = logs.lines.filter((l) => l.includes(token));
      expect(linkLines).toHaveLength(1);
      expect(JSON.parse(linkLines[0]!).resetLink).toBe(
        `${config.appUrl}/reset-password?token=${token}`,
      );

      // Visiting the reset page: the token in the query string is not logged.
      await c.get(`/reset-password?token=${token}`);
      expect(logs.lines.filter((l) => l.includes(token))).toHaveLength(1);
      expect(logs.text).toContain('/reset-password?token=[redacted]');
    } finally {
      await app.close();
    }
  });
});
