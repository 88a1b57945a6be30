import { readdirSync } from 'node:fs';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { validationJobs, validationResults } from '../src/db/schema.ts';
import type { Storage } from '../src/storage/index.ts';
import { expectDocumented } from './api-contract.ts';
import { multipartBody, testAppForFile } from './helpers.ts';
import { businessUser, SCHEMA } from './jobs-support.ts';

// A full disk (docs/decisions/137): a storage write that fails with ENOSPC is a retryable 507
// storage_full with Retry-After, never a 500; nothing is kept (no result, no job, no file, the
// month's validation given back), and the same request succeeds once there is space again.
// The failure is injected into the app's own storage, through the real routes: the write gets
// its first bytes, then fails the way fs.WriteStream fails on a full disk.

const t = testAppForFile();
let full = false;
let auth: Record<string, string> = {};
let userId = '';

function enospc(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), {
    code: 'ENOSPC',
    errno: -28,
    syscall: 'write',
  });
}

/** The body's first chunk, then the disk is full. */
async function* fillsUp(body: AsyncIterable<Uint8Array | string>) {
  for await (const chunk of body) {
    yield chunk;
    throw enospc();
  }
  throw enospc();
}

beforeAll(async () => {
  ({ auth, id: userId } = await businessUser(t, 184, 'diskfull'));
  const storage: Storage = t.app.storage;
  const put = storage.put.bind(storage);
  storage.put = (key, body) =>
    full ? put(key, fillsUp(body as AsyncIterable<Uint8Array>)) : put(key, body);
});

const files = (): string[] => {
  const root = path.join(t.config.dataDir, 'reports', userId);
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
  } catch {
    return [];
  }
};

async function used(): Promise<number> {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/usage', headers: auth });
  return (res.json() as { validations: { used: number } }).validations.used;
}

function upload(url: string) {
  const csv = 'id,email,score\n' + '1,a@example.com,5\n2,not-an-email,7\n'.repeat(2000);
  const form = multipartBody([
    { name: 'schema', value: SCHEMA },
    { name: 'file', filename: 'people.csv', content: csv },
  ]);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...auth, ...form.headers },
    payload: form.payload,
  });
}

async function rowsOf(table: typeof validationJobs | typeof validationResults) {
  const [r] = await t.app.db.select({ n: count() }).from(table).where(eq(table.userId, userId));
  return Number(r?.n ?? 0);
}

describe('a full disk', () => {
  it.each([
    ['POST /v1/validate (the report)', '/api/v1/validate'],
    ['POST /v1/jobs (the upload)', '/api/v1/jobs'],
  ])('%s: 507 storage_full with Retry-After, nothing kept, then it works again', async (_, url) => {
    const before = await used();
    const results = await rowsOf(validationResults);
    const jobs = await rowsOf(validationJobs);
    const filesBefore = files();

    full = true;
    const refused = await upload(url);
    full = false;
    expect(refused.statusCode, refused.body).toBe(507);
    expect(refused.json()).toMatchObject({ code: 'storage_full', request_id: expect.any(String) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expectDocumented('POST', url, refused);

    expect(await used()).toBe(before);
    expect(await rowsOf(validationResults)).toBe(results);
    expect(await rowsOf(validationJobs)).toBe(jobs);
    expect(files()).toEqual(filesBefore);

    // Space is back: the very same request goes through.
    const ok = await upload(url);
    expect(ok.statusCode, ok.body).toBe(url.endsWith('jobs') ? 202 : 200);
    expect(await used()).toBe(before + 1);
  });

  it('a full disk under another name (EDQUOT, wrapped as a cause) is the same 507', async () => {
    const storage: Storage = t.app.storage;
    const put = storage.put;
    storage.put = async () => {
      throw new Error('Could not store the report', {
        cause: Object.assign(new Error('quota exceeded'), { code: 'EDQUOT' }),
      });
    };
    try {
      const res = await upload('/api/v1/validate');
      expect(res.statusCode).toBe(507);
      expect(res.json().code).toBe('storage_full');
    } finally {
      storage.put = put;
    }
  });
});
