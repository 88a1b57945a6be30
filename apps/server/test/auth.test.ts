import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORD_COUNT } from '../src/auth/common-passwords.ts';
import { hashPassword, parseHash } from '../src/auth/passwords.ts';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../src/auth/sessions.ts';
import { PRODUCTION_SCRYPT } from '../src/config.ts';
import { sessions, users } from '../src/db/schema.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import {
  Client,
  newUser,
  startTestApp,
  stableHeaders,
  STRONG_PASSWORD,
  testAppForFile,
} from './helpers.ts';

const t = testAppForFile();

let ipCounter = 0;
/** A client from its own address, so per-IP limits of one test do not reach another. */
function client() {
  ipCounter++;
  return new Client(t.app, `10.0.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`);
}

const MINUTE = 60_000;

describe('register', () => {
  it('creates the account, signs the user in and answers 201 with the public user', async () => {
    const c = client();
    const u = newUser();
    const res = await c.post('/api/auth/register', u);
    expect(res.statusCode).toBe(201);
    expect(res.json().user).toEqual({
      username: u.username,
      email: u.email,
      subscriptionTier: 'free',
    });
    expect(typeof res.json().csrfToken).toBe('string');
    const me = await c.get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({
      user: { username: u.username, email: u.email, subscriptionTier: 'free' },
    });
  });

  it.each([
    ['Sh0rt!', 'Password must be at least 8 characters long'],
    ['A1!' + 'a'.repeat(97), 'Password must be less than 100 characters'],
    ['NOLOWER123!', 'Password must contain at least one lowercase letter'],
    ['noupper123!', 'Password must contain at least one uppercase letter'],
    ['NoNumbers!!', 'Password must contain at least one number'],
    ['NoSpecial123', 'Password must contain at least one special character'],
  ])('refuses the weak password %j with "%s"', async (password, message) => {
    const res = await client().post('/api/auth/register', { ...newUser(), password });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: message, code: 'validation' });
    expect(res.json().issues[0]).toEqual({ path: 'password', message });
  });

  it.each([
    [{ username: 'ab' }, 'Username must be at least 3 characters'],
    [{ username: 'a'.repeat(51) }, 'Username must be less than 50 characters'],
    [{ username: 'bob@home' }, "Username can't contain @"],
    [{ email: 'not-an-email' }, 'Please enter a valid email address'],
  ])('refuses %j with "%s"', async (patch, message) => {
    const res = await client().post('/api/auth/register', { ...newUser(), ...patch });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(message);
  });

  it.each(['Password123!', 'Passw0rd!', 'Welcome1!', 'P@ssw0rd', 'Summer2024!', 'Qwerty123!'])(
    'refuses the common password %s',
    async (password) => {
      const res = await client().post('/api/auth/register', { ...newUser(), password });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: 'This password is too common. Choose another one.',
        code: 'common_password',
        request_id: expect.any(String),
      });
    },
  );

  it('has a blocklist of a few thousand entries', () => {
    expect(COMMON_PASSWORD_COUNT).toBeGreaterThan(1000);
  });

  it('accepts long passphrases, spaces and emoji, and never truncates them', async () => {
    for (const password of ['Aa1!' + 'x'.repeat(60), 'correct Horse battery 9', 'Ünïcødé🔑pass1']) {
      const c = client();
      const u = await c.register({ ...newUser(), password });
      const other = client();
      expect((await other.login(u.username, password)).statusCode).toBe(200);
      const shorter = [...password].slice(0, -1).join('');
      expect((await client().login(u.username, shorter)).statusCode).toBe(401);
    }
  });

  it('refuses a 1 MB password fast, without hashing it', async () => {
    const c = client();
    await c.token();
    const started = performance.now();
    const res = await c.post('/api/auth/register', {
      ...newUser(),
      password: 'Aa1!' + 'x'.repeat(1_000_000),
    });
    const elapsed = performance.now() - started;
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
    expect(elapsed).toBeLessThan(100);
  });

  it('answers 409 for a taken username or email, ignoring case', async () => {
    const u = await client().register();
    const sameName = await client().post('/api/auth/register', {
      ...newUser(),
      username: u.username.toUpperCase(),
    });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json()).toEqual({
      error: 'That username is taken',
      code: 'username_taken',
      request_id: expect.any(String),
    });
    const sameEmail = await client().post('/api/auth/register', {
      ...newUser(),
      email: u.email.toUpperCase(),
    });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json()).toEqual({
      error: 'An account with that email already exists',
      code: 'email_taken',
      request_id: expect.any(String),
    });
  });

  it('gives exactly one account when the same username registers twice at once', async () => {
    const u = newUser();
    const results = await Promise.all([
      client().post('/api/auth/register', u),
      client().post('/api/auth/register', { ...u, email: `other-${u.email}` }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('limits registrations per client IP (100 an hour) with a JSON 429 and Retry-After', async () => {
    const c = new Client(t.app, '10.99.0.1');
    let res = await c.post('/api/auth/register', { username: 'x' });
    for (let i = 1; i < 100; i++) res = await c.post('/api/auth/register', { username: 'x' });
    expect(res.statusCode).toBe(400);
    res = await c.post('/api/auth/register', newUser());
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({
      error: 'Too many requests. Try again in 60 minutes.',
      code: 'rate_limited',
      request_id: expect.any(String),
    });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(3500);
    expect((await client().post('/api/auth/register', newUser())).statusCode).toBe(201);
  });

  it('stores the production scrypt parameters (N=2^17, r=8, p=1) in the hash by default', async () => {
    const prod = await startTestApp({ env: { SCRYPT_LOG_N: '' }, db: t.db });
    try {
      expect(prod.config.passwordHash).toEqual(PRODUCTION_SCRYPT);
      const u = await new Client(prod.app, '10.9.9.9').register();
      const [row] = await t.db.database.db
        .select()
        .from(users)
        .where(eq(users.username, u.username));
      expect(row!.passwordHash).toMatch(
        /^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
      );
      const parsed = parseHash(row!.passwordHash)!;
      expect(parsed.salt.length).toBe(16);
      expect(parsed.hash.length).toBe(32);
      expect(row!.passwordHash).not.toContain(STRONG_PASSWORD);
    } finally {
      await prod.app.close();
    }
  });
});

describe('login', () => {
  it('signs in by username or by email, ignoring case', async () => {
    const u = await client().register();
    for (const id of [u.username, u.email, u.email.toUpperCase(), u.username.toUpperCase()]) {
      const c = client();
      const res = await c.login(id, u.password);
      expect(res.statusCode).toBe(200);
      expect(res.json().user).toEqual({
        username: u.username,
        email: u.email,
        subscriptionTier: 'free',
      });
      expect((await c.get('/api/auth/me')).statusCode).toBe(200);
    }
  });

  it('answers a wrong password and an unknown account identically', async () => {
    const u = await client().register();
    const wrong = await client().login(u.username, 'Wrong-Password-1');
    const unknown = await client().login('nobody-' + u.username, 'Wrong-Password-1');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    // Identical but for the request id each answer carries.
    const withoutId = (body: string) => body.replace(/"request_id":"[^"]*"/, '"request_id":""');
    expect(withoutId(wrong.body)).toBe(withoutId(unknown.body));
    expect(wrong.json()).toEqual({
      error: 'Invalid username/email or password',
      code: 'invalid_credentials',
      request_id: expect.any(String),
    });
    expect(stableHeaders(wrong)).toEqual(stableHeaders(unknown));
  });

  it('takes about as long for an unknown account as for a wrong password (dummy hash)', async () => {
    // A costly hash dominates the noise of a busy machine. Without the dummy hash an unknown
    // account answers about 97% faster, far outside the tolerance.
    const slow = await startTestApp({ env: { SCRYPT_LOG_N: '15' }, db: t.db });
    try {
      const u = await new Client(slow.app, '10.8.0.1').register();
      const time = async (id: string, i: number) => {
        const c = new Client(slow.app, `10.8.1.${i}`);
        await c.token();
        const s = performance.now();
        const res = await c.login(id, 'Wrong-Password-1');
        expect(res.statusCode).toBe(401);
        return performance.now() - s;
      };
      const known: number[] = [];
      const unknown: number[] = [];
      // Nine failures: the tenth would start the per-account throttle.
      for (let i = 0; i < 9; i++) {
        known.push(await time(u.username, i));
        unknown.push(await time(`ghost-${i}-${u.username}`, i + 100));
      }
      const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const [a, b] = [median(known), median(unknown)];
      expect(Math.abs(a - b) / Math.max(a, b)).toBeLessThan(0.5);
    } finally {
      await slow.app.close();
    }
  });

  it('refuses the 11th failure in 15 minutes on one account with 429 and Retry-After, even from new IPs', async () => {
    const u = await client().register();
    for (let i = 0; i < 10; i++) {
      // A new address and a spoofed X-Forwarded-For each time: neither resets the account count.
      const res = await client().login(u.username, 'Wrong-Password-1');
      expect(res.statusCode).toBe(401);
    }
    const c = client();
    const blocked = await c.post(
      '/api/auth/login',
      { usernameOrEmail: u.email, password: u.password },
      { headers: { 'x-forwarded-for': '203.0.113.7' } },
    );
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      error: 'Too many failed sign-in attempts. Try again in 15 minutes.',
      code: 'rate_limited',
      request_id: expect.any(String),
    });
    expect(Number(blocked.headers['retry-after'])).toBe(15 * 60);

    t.clock.advance(15 * MINUTE);
    const after = await client().login(u.username, u.password);
    expect(after.statusCode).toBe(200);
  });

  it('throttles an unknown name exactly like an account (no enumeration through 429)', async () => {
    const name = 'ghost-' + newUser().username;
    for (let i = 0; i < 10; i++)
      expect((await client().login(name, 'Wrong-Password-1')).statusCode).toBe(401);
    const res = await client().login(name, 'Wrong-Password-1');
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toBe('Too many failed sign-in attempts. Try again in 15 minutes.');
    t.clock.advance(15 * MINUTE);
  });

  it('refuses a client IP after 50 failures over many accounts; X-Forwarded-For is not trusted', async () => {
    const ip = '10.77.0.1';
    for (let i = 0; i < 50; i++) {
      const res = await new Client(t.app, ip).post(
        '/api/auth/login',
        { usernameOrEmail: `spray-${i}-${ipCounter}`, password: 'Wrong-Password-1' },
        { headers: { 'x-forwarded-for': `198.51.100.${i}` } },
      );
      expect(res.statusCode).toBe(401);
    }
    const u = await client().register();
    const res = await new Client(t.app, ip).login(u.username, u.password);
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    // Another address is not affected.
    expect((await client().login(u.username, u.password)).statusCode).toBe(200);
    t.clock.advance(15 * MINUTE);
    expect((await new Client(t.app, ip).login(u.username, u.password)).statusCode).toBe(200);
  });

  it('upgrades a hash made with older parameters at sign-in', async () => {
    const u = newUser();
    const old = await hashPassword(u.password, { logN: 9, r: 8, p: 1 });
    await t.db.database.db
      .insert(users)
      .values({ username: u.username, email: u.email, passwordHash: old });
    expect((await client().login(u.username, u.password)).statusCode).toBe(200);
    const [row] = await t.db.database.db.select().from(users).where(eq(users.username, u.username));
    expect(row!.passwordHash).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$/);
    expect((await client().login(u.username, u.password)).statusCode).toBe(200);
  });

  it('refuses missing fields with the form messages', async () => {
    const res = await client().post('/api/auth/login', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Username or email is required');
    const res2 = await client().post('/api/auth/login', { usernameOrEmail: 'x', password: '' });
    expect(res2.json().error).toBe('Password is required');
  });
});

describe('sessions', () => {
  it('sets an HttpOnly, SameSite=Lax, Path=/ cookie named sc_session over http, without Secure', async () => {
    const res = await client().post('/api/auth/register', newUser());
    const cookie = [res.headers['set-cookie']].flat().find((c) => c!.startsWith('sc_session='))!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/Secure/);
    expect(cookie).not.toMatch(/Domain/i);
    const token = /^sc_session=([^;]+)/.exec(cookie)![1]!;
    expect(Buffer.from(token, 'base64url').length).toBe(32);
    // Only the SHA-256 of the token is stored.
    const rows = await t.db.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sha256Hex(token)));
    expect(rows).toHaveLength(1);
    const raw = await t.db.database.db.select().from(sessions).where(eq(sessions.id, token));
    expect(raw).toHaveLength(0);
  });

  it('uses __Host-sc_session with Secure when APP_URL is https', async () => {
    const https = await startTestApp({ env: { APP_URL: 'https://schemacheck.example' }, db: t.db });
    try {
      const c = new Client(https.app, '10.6.0.1');
      const tokenRes = await c.get('/api/csrf-token');
      expect(String(tokenRes.headers['set-cookie'])).toMatch(
        /^__Host-sc_csrf=.*; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
      );
      const res = await c.post('/api/auth/register', newUser());
      expect(res.statusCode).toBe(201);
      const cookie = [res.headers['set-cookie']]
        .flat()
        .find((x) => x!.startsWith('__Host-sc_session='))!;
      expect(cookie).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
      expect(cookie).not.toMatch(/Domain/i);
      expect((await c.get('/api/auth/me')).statusCode).toBe(200);
      expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    } finally {
      await https.app.close();
    }
  });

  it('ignores a planted session cookie and issues a new one at sign-in (fixation)', async () => {
    const u = await client().register();
    const c = client();
    c.cookies.set('sc_session', 'planted-by-attacker-aaaaaaaaaaaaaaaaaaaaaaaaaaaa');
    const res = await c.login(u.username, u.password);
    expect(res.statusCode).toBe(200);
    expect(c.cookies.get('sc_session')).not.toBe(
      'planted-by-attacker-aaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    );
  });

  it('ends the session the browser had when it signs in again', async () => {
    const u = await client().register();
    const c = client();
    await c.login(u.username, u.password);
    const first = c.cookies.get('sc_session')!;
    await c.login(u.username, u.password);
    const second = c.cookies.get('sc_session')!;
    expect(second).not.toBe(first);
    const replay = client();
    replay.cookies.set('sc_session', first);
    expect((await replay.get('/api/auth/me')).json()).toEqual({ user: null });
  });

  it('answers 200 {user: null} without a session: signed out is not an error', async () => {
    const res = await client().get('/api/auth/me');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: null });
  });

  it('ends after the idle timeout, and activity keeps it alive', async () => {
    const c = client();
    await c.register();
    t.clock.advance(SESSION_IDLE_MS - MINUTE);
    expect((await c.get('/api/auth/me')).statusCode).toBe(200);
    t.clock.advance(SESSION_IDLE_MS - MINUTE);
    expect((await c.get('/api/auth/me')).statusCode).toBe(200);
    t.clock.advance(SESSION_IDLE_MS);
    const res = await c.get('/api/auth/me');
    expect(res.json()).toEqual({ user: null });
    // The dead cookie is cleared.
    expect(c.cookies.has('sc_session')).toBe(false);
  });

  it('ends at the absolute lifetime even when used every day', async () => {
    const c = client();
    await c.register();
    const day = 24 * 60 * MINUTE;
    for (let d = 1; d < SESSION_ABSOLUTE_MS / day; d++) {
      t.clock.advance(day);
      expect((await c.get('/api/auth/me')).statusCode).toBe(200);
    }
    t.clock.advance(day);
    expect((await c.get('/api/auth/me')).json()).toEqual({ user: null });
  });

  it('logout deletes the session; replaying the old cookie gives 401', async () => {
    const c = client();
    await c.register();
    const cookie = c.cookies.get('sc_session')!;
    const res = await c.post('/api/auth/logout');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true });
    expect(String(res.headers['set-cookie'])).toMatch(/sc_session=; Max-Age=0/);
    const replay = client();
    replay.cookies.set('sc_session', cookie);
    expect((await replay.get('/api/auth/me')).json()).toEqual({ user: null });
    const rows = await t.db.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sha256Hex(cookie)));
    expect(rows).toHaveLength(0);
  });

  it('logout when already signed out still answers 200', async () => {
    const c = client();
    expect((await c.post('/api/auth/logout')).statusCode).toBe(200);
  });
});

describe('CSRF', () => {
  it('GET /api/csrf-token gives a token and a pre-session cookie, and no CORS headers', async () => {
    const c = client();
    const res = await c.get('/api/csrf-token', { headers: { origin: 'https://evil.example' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().csrfToken).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(String(res.headers['set-cookie'])).toMatch(
      /^sc_csrf=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('refuses a mutating request without a token, even a sign-in (login CSRF)', async () => {
    const u = await client().register();
    const c = client();
    const res = await c.post(
      '/api/auth/login',
      { usernameOrEmail: u.username, password: u.password },
      { csrf: false },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'Invalid or missing CSRF token',
      code: 'csrf',
      request_id: expect.any(String),
    });
  });

  it.each([
    ['empty', ''],
    ['short', 'x'],
    ['wrong shape', 'v1.abc'],
    ['very long', 'v1.' + 'a'.repeat(5000) + '.b'],
    ['forged', 'v1.AAAAAAAAAAAAAAAAAAAAAA.' + 'A'.repeat(43)],
  ])('refuses a %s token with 403, never 500', async (_name, token) => {
    const c = client();
    await c.token();
    const res = await c.post(
      '/api/auth/forgot-password',
      { email: 'a@example.com' },
      { csrf: token },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('csrf');
  });

  it("refuses another session's token", async () => {
    const a = client();
    await a.register();
    const b = client();
    await b.register();
    const res = await b.post('/api/auth/logout', undefined, { csrf: await a.token() });
    expect(res.statusCode).toBe(403);
    expect((await b.get('/api/auth/me')).statusCode).toBe(200);
  });

  it('rotates the token at sign-in: the pre-login token stops working', async () => {
    const u = await client().register();
    const c = client();
    const before = await c.token();
    expect((await c.login(u.username, u.password)).statusCode).toBe(200);
    const res = await c.post('/api/auth/logout', undefined, { csrf: before });
    expect(res.statusCode).toBe(403);
    expect((await c.post('/api/auth/logout')).statusCode).toBe(200);
  });

  it('a token from before logout no longer works after it', async () => {
    const c = client();
    await c.register();
    const during = await c.token();
    await c.post('/api/auth/logout');
    const res = await c.post(
      '/api/auth/forgot-password',
      { email: 'x@example.com' },
      { csrf: during },
    );
    expect(res.statusCode).toBe(403);
  });

  it('refuses Sec-Fetch-Site: cross-site on a mutating request, token or not', async () => {
    const c = client();
    const res = await c.post(
      '/api/auth/forgot-password',
      { email: 'x@example.com' },
      {
        headers: { 'sec-fetch-site': 'cross-site' },
      },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('cross_site');
    const same = await c.post(
      '/api/auth/forgot-password',
      { email: 'x@example.com' },
      {
        headers: { 'sec-fetch-site': 'same-origin' },
      },
    );
    expect(same.statusCode).toBe(200);
  });

  it.each([
    ['text/plain', '{"usernameOrEmail":"a","password":"b"}'],
    ['application/x-www-form-urlencoded', 'usernameOrEmail=a&password=b'],
    ['multipart/form-data; boundary=x', '--x--'],
  ])('refuses a %s body with 415 without parsing it', async (type, body) => {
    const res = await client().request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': type },
      payload: body,
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('unsupported_media_type');
  });

  it('does not change state through GET (405)', async () => {
    const c = client();
    await c.register();
    const res = await c.get('/api/auth/logout');
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect((await c.get('/api/auth/me')).statusCode).toBe(200);
  });
});

describe('tiers', () => {
  it('the database accepts exactly the tiers of the contracts', async () => {
    const { SUBSCRIPTION_TIERS } = await import('@schemacheck/contracts');
    const db = t.db.database.db;
    const [u] = await db
      .insert(users)
      .values({ ...newUser(), passwordHash: 'x' })
      .returning();
    for (const tier of SUBSCRIPTION_TIERS) {
      await db.update(users).set({ subscriptionTier: tier }).where(eq(users.id, u!.id));
    }
    await expect(
      db.execute(sql`update users set subscription_tier = 'gold' where id = ${u!.id}`),
    ).rejects.toThrow();
  });
});
