import { createRequire } from 'node:module';
import * as contracts from '@schemacheck/contracts';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { clientsOf, multipartBody, registerOnTier, testAppForFile } from './helpers.ts';

// Hostile input to every route the app registers (enumerated from Fastify, so routes added later
// are covered without editing this file): a fixed sample of the Big List of Naughty Strings in
// every text field, path parameter and query value, plus NUL, lone surrogates, malformed
// multipart, oversized and deeply nested JSON and wrong content types. Nothing may answer 5xx
// (docs/decisions/060). Deterministic: the same requests in the same order on every run.

const require = createRequire(import.meta.url);
const BLNS = require('big-list-of-naughty-strings') as string[];

/** Inputs that once gave 500s here; each goes through every variant below. */
const SPECIALS: string[] = [
  '\u0000',
  'admin\u0000',
  '\u0000\u0000\u0000',
  '\ud800',
  'a\udc00b',
  '\udbff\udfff\ud800',
  'x'.repeat(70_000),
  '💩'.repeat(500),
  '../../../../etc/passwd',
  '%00%2e%2e%2f',
  '{"$ne":null}',
  "'; drop table users; --",
  '\u202e\u2066evil',
  '\r\n\r\nHTTP/1.1 200 OK',
  '=cmd|" /C calc"!A0',
  '-1',
  '1e309',
  '00000000-0000-0000-0000-000000000000',
  'null',
  '%00',
  '%ED%A0%80',
  '%ff%fe',
  '%C0%AF',
];

/** Every 4th naughty string (a multiple of 4 of them), then each special once per variant. */
const SAMPLE = BLNS.filter((_, i) => i % 4 === 0);
const STRINGS: string[] = [
  ...SAMPLE.slice(0, SAMPLE.length - (SAMPLE.length % 4)),
  ...SPECIALS.flatMap((x) => [x, x, x, x]),
];

/** Every key of every object shape in contracts: the field names our routes read. */
function contractKeys(): string[] {
  const keys = new Set<string>();
  for (const value of Object.values(contracts)) {
    if (value instanceof z.ZodObject) for (const k of Object.keys(value.shape)) keys.add(k);
  }
  for (const k of ['name', 'id', 'url', 'token', 'tier', 'events', 'secret', 'email']) keys.add(k);
  return [...keys].sort();
}

/**
 * A body most routes accept, so that one hostile field at a time reaches the handler. Its
 * passwords are not the fuzz user's: account deletion must not succeed.
 */
const BASE_PASSWORD = 'Amber-Lantern-73';
const VALID_BASE: Record<string, unknown> = {
  username: 'fuzzbase',
  email: 'fuzzbase@example.com',
  usernameOrEmail: 'fuzzbase',
  password: BASE_PASSWORD,
  currentPassword: BASE_PASSWORD,
  newPassword: `${BASE_PASSWORD}-2`,
  name: 'Fuzz schema',
  fileType: 'csv',
  fields: [{ name: 'id', type: 'string', required: true }],
};

/** VALID_BASE with `s` appended to every text in it. */
function suffixed(s: string): Record<string, unknown> {
  const walk = (v: unknown): unknown =>
    typeof v === 'string'
      ? `${v}${s}`
      : Array.isArray(v)
        ? v.map(walk)
        : typeof v === 'object' && v !== null
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
          : v;
  return walk(VALID_BASE) as Record<string, unknown>;
}

const SCHEMA_TEXT = JSON.stringify({
  fileType: 'json',
  fields: [{ name: 'id', type: 'string', required: true }],
});

/** Raw bodies that are hostile as a whole. */
function rawBodies(): Array<{ label: string; payload: string | Buffer; contentType?: string }> {
  const deep = '['.repeat(100_000) + ']'.repeat(100_000);
  return [
    { label: 'truncated JSON', payload: '{"username": "a' },
    { label: 'JSON with NUL escape', payload: '{"username":"a\\u0000b","password":"x"}' },
    { label: 'JSON with lone surrogate', payload: '{"name":"\\ud800","x":"\\udfff"}' },
    { label: 'JSON key with NUL', payload: '{"\\u0000":1}' },
    { label: 'raw NUL byte', payload: Buffer.from('{"a":"\u0000"}') },
    {
      label: 'invalid UTF-8',
      payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    },
    { label: 'deep nesting', payload: deep },
    { label: 'deep objects', payload: '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000) },
    { label: 'oversized', payload: `{"a":"${'x'.repeat(2 * 1024 * 1024)}"}` },
    {
      label: 'many keys',
      payload: `{${Array.from({ length: 50_000 }, (_, i) => `"k${i}":1`).join(',')}}`,
    },
    { label: 'JSON array', payload: '[1,2,3]' },
    { label: 'JSON null', payload: 'null' },
    { label: 'JSON string', payload: '"\\u0000"' },
    {
      label: 'proto pollution',
      payload: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}',
    },
    { label: 'text/plain', payload: 'hello', contentType: 'text/plain' },
    { label: 'form', payload: 'a=b&c=%00', contentType: 'application/x-www-form-urlencoded' },
    { label: 'JSON charset', payload: '{}', contentType: 'application/json; charset=utf-16' },
    { label: 'bogus type', payload: '{}', contentType: '\u00ff/\u00ff' },
    { label: 'multipart without boundary', payload: 'x', contentType: 'multipart/form-data' },
    {
      label: 'multipart truncated',
      payload: '--b\r\nContent-Disposition: form-data; name="schema"\r\n\r\n{"fiel',
      contentType: 'multipart/form-data; boundary=b',
    },
    {
      label: 'multipart wrong boundary',
      payload: '--c\r\nContent-Disposition: form-data; name="schema"\r\n\r\n{}\r\n--c--\r\n',
      contentType: 'multipart/form-data; boundary=b',
    },
    {
      label: 'multipart bad headers',
      payload:
        '--b\r\nContent-Disposition: form-data; name=\u0000; filename="\r\n\r\n\r\n--b--\r\n',
      contentType: 'multipart/form-data; boundary=b',
    },
  ];
}

/** Multipart forms (well formed) with hostile schema, file name and content. */
function multipartForms(s: string, i: number) {
  const variants = [
    () =>
      multipartBody([
        { name: 'schema', value: s },
        { name: 'file', filename: 'a.csv', content: 'id\n1\n' },
      ]),
    () =>
      multipartBody([
        { name: 'schema', value: SCHEMA_TEXT },
        { name: 'file', filename: s, content: '[{"id":"1"}]' },
      ]),
    () =>
      multipartBody([
        { name: 'schema', value: SCHEMA_TEXT },
        { name: 'file', filename: 'f.json', content: JSON.stringify([{ id: s, [s]: s }]) },
      ]),
    () =>
      multipartBody([
        {
          name: 'schema',
          value: JSON.stringify({
            fileType: 'json',
            fields: [{ name: s, type: 'string', required: true }],
          }),
        },
        {
          name: 'file',
          filename: 'f.json',
          content: `[{${JSON.stringify(s)}:"\\ud800"},{"id":"\\u0000"}]`,
        },
      ]),
  ];
  return variants[i % variants.length]!();
}

/** Percent-encoding that also takes lone surrogates (as their UTF-8 replacement) and raw escapes. */
function pct(value: string): string {
  if (/^(%[0-9A-Fa-f]{2})+$/.test(value)) return value;
  return [...Buffer.from(value, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).padStart(2, '0')}`,
    )
    .join('');
}

const t = testAppForFile();
const newClient = clientsOf(t, 71);

interface Failure {
  method: string;
  url: string;
  input: string;
  status: number;
  body: string;
}

describe('hostile input to every route', () => {
  it('never answers 5xx', { timeout: 240_000 }, async () => {
    const { app } = t;
    let client = newClient();
    const { user: fuzzUser } = await registerOnTier(t, client, 'business', 'fuzz');
    let dirty = false;
    const owner = newClient();
    const other = await registerOnTier(t, owner, 'business', 'fuzzowner');
    expect(other.id).toBeTruthy();

    const routes = app.routeIndex
      .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS')
      .map((r) => ({ method: r.method, url: r.url }));
    // Our own routes, not just the static catch-all: the list must not silently be empty.
    expect(routes.some((r) => r.url === '/api/auth/login')).toBe(true);
    expect(routes.some((r) => r.url === '/api/validate')).toBe(true);

    const keys = contractKeys();
    const failures: Failure[] = [];
    let sent = 0;
    let n = 0;

    const send = async (
      method: string,
      url: string,
      input: string,
      req: Partial<InjectOptions>,
    ) => {
      await restoreSession();
      n++;
      const res: LightMyRequestResponse = await app.inject({
        method: method as InjectOptions['method'],
        url,
        remoteAddress: `10.72.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`,
        ...req,
        headers: {
          'x-csrf-token': client.csrfToken ?? '',
          ...(req.headers as Record<string, string> | undefined),
        },
        cookies: Object.fromEntries(client.cookies),
      });
      sent++;
      if (res.headers['set-cookie']) dirty = true;
      if (res.statusCode >= 500) {
        failures.push({
          method,
          url,
          input: JSON.stringify(input.slice(0, 60)),
          status: res.statusCode,
          body: res.body.slice(0, 300),
        });
      }
    };

    /**
     * Routes that sign in or out (login, register, logout, password changes) replace or end the
     * session: after any response that sets a cookie, sign the fuzz user in again (from a fresh
     * address, so that no per-IP limit of this test piles up).
     */
    const restoreSession = async () => {
      if (!dirty) return;
      dirty = false;
      const fresh = newClient();
      const res = await fresh.login(fuzzUser.username, fuzzUser.password);
      expect(res.statusCode).toBe(200);
      client = fresh;
    };

    const fillPath = (url: string, value: string) =>
      url.replace(/:[A-Za-z0-9_]+/g, () => pct(value)).replace(/\*$/, pct(value));

    for (const route of routes) {
      const hasBody = !['GET', 'DELETE'].includes(route.method);
      for (let i = 0; i < STRINGS.length; i++) {
        const s = STRINGS[i]!;
        // 0: every known key is the string; 1: a valid body with the string appended to each
        // text (so it passes the shapes and reaches the handler and the database); 2: a valid
        // body with one key replaced; 3: the string in the path and the query.
        const variant = i % 4;
        const url =
          variant === 3
            ? `${fillPath(route.url, s)}?id=${pct(s)}&page=${pct(s)}&q=${pct(s)}`
            : fillPath(route.url, '3f1e1f5e-1b1a-4c1e-9b1a-1a1a1a1a1a1a');
        let payload: unknown;
        if (variant === 0) payload = Object.fromEntries(keys.map((k) => [k, s]));
        else if (variant === 1) payload = suffixed(s);
        else payload = { ...VALID_BASE, [keys[i % keys.length]!]: s };
        await send(route.method, url, s, hasBody ? { payload: payload as object } : {});
        if (hasBody && i % 4 === 1) {
          const form = multipartForms(s, (i - 1) / 4);
          await send(route.method, url, `multipart ${s}`, {
            payload: form.payload,
            headers: form.headers,
          });
        }
      }
      if (hasBody) {
        for (const raw of rawBodies()) {
          await send(route.method, fillPath(route.url, 'x'), raw.label, {
            payload: raw.payload,
            headers: { 'content-type': raw.contentType ?? 'application/json' },
          });
        }
      }
    }

    expect(sent).toBeGreaterThan(routes.length * STRINGS.length);
    expect(failures).toEqual([]);
  });
});

describe('text the database cannot hold, in a validated file', () => {
  it('is reported and stored with U+FFFD, not refused', async () => {
    const client = newClient();
    await registerOnTier(t, client, 'business', 'surrogate');
    const schema = JSON.stringify({
      fileType: 'json',
      additionalProperties: false,
      fields: [
        { name: 'id', type: 'integer', required: true },
        { name: 'n\ud800me', type: 'string', required: true, validation: { maxLength: 1 } },
      ],
    });
    const form = multipartBody([
      { name: 'schema', value: schema },
      {
        name: 'file',
        filename: 'f.json',
        content: '[{"id":"\\ud800","n\\ud800me":"\\u0000\\udfff"},{"id":1,"\\u0000":1}]',
      },
    ]);
    const res = await client.post('/api/validate', undefined, {
      payload: form.payload,
      headers: form.headers,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      id: string;
      errorCount: number;
      errors: Array<{ value: string | null; field: string }>;
    };
    expect(body.errorCount).toBe(4);
    expect(JSON.stringify(body)).not.toMatch(/\\u0000|\\ud800|\\udfff/);
    expect(body.errors.map((e) => e.value)).toContain('\ufffd');
    const stored = await client.get(`/api/validation-results/${body.id}`);
    expect(stored.statusCode).toBe(200);
  });
});
