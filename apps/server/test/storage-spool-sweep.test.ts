import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SPOOL_MAX_AGE_MS, sweepStorage } from '../src/storage/sweep.ts';
import { clientsOf, multipartBody, registerOnTier, testAppForFile } from './helpers.ts';

// What the sweep removes beyond decision 064 (decision 208): an upload spooled to
// DATA_DIR/tmp (a workbook, gzip or zip read by a worker) that a crash left there, and the
// valid/invalid rows of a result whose row is gone; the spool of a run in progress, files of
// other names and the rows of a live result stay.

const t = testAppForFile();
const newClient = clientsOf(t, 208);
const HOUR = 60 * 60 * 1000;

function age(file: string, ms: number) {
  const when = new Date(Date.now() - ms);
  utimesSync(file, when, when);
}

describe('the storage sweep', () => {
  it('removes stale spooled uploads and keeps a fresh one', async () => {
    const spool = path.join(t.config.dataDir, 'tmp');
    mkdirSync(spool, { recursive: true });
    const stale = path.join(spool, `upload-${randomUUID()}`);
    const fresh = path.join(spool, `upload-${randomUUID()}`);
    const other = path.join(spool, 'notes.txt');
    for (const f of [stale, fresh, other]) writeFileSync(f, 'PK\x03\x04');
    age(stale, SPOOL_MAX_AGE_MS + 60_000);
    age(other, SPOOL_MAX_AGE_MS + 60_000);
    age(fresh, 5 * 60_000);

    const counts = await sweepStorage(t.app.db, t.app.storage, new Date(), undefined, spool);
    expect(counts.tempFiles).toBe(1);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(other)).toBe(true);
    // No spool folder yet is no error.
    const none = path.join(t.config.dataDir, 'no-such-tmp');
    expect(
      (await sweepStorage(t.app.db, t.app.storage, new Date(), undefined, none)).tempFiles,
    ).toBe(0);
  });

  it('removes the rows of a result that is gone and keeps those of a live one', async () => {
    const client = newClient();
    const { id: userId } = await registerOnTier(t, client, 'business', 'spool');
    const form = multipartBody([
      {
        name: 'schema',
        value: JSON.stringify({ fields: [{ name: 'id', type: 'integer', required: true }] }),
      },
      { name: 'file', filename: 'a.csv', content: 'id\n1\nx\n' },
    ]);
    const res = await client.post('/api/validate', undefined, {
      payload: form.payload,
      headers: form.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const live = res.json().id as string;
    const rowsDir = path.join(t.config.dataDir, 'reports', userId, 'rows');
    const kept = ['valid', 'invalid'].map((s) => path.join(rowsDir, `${live}.${s}`));
    const orphan = randomUUID();
    const gone = ['valid', 'invalid'].map((s) => path.join(rowsDir, `${orphan}.${s}`));
    for (const f of gone) writeFileSync(f, 'id\r\n1\r\n');
    for (const f of [...kept, ...gone]) age(f, HOUR);

    const counts = await sweepStorage(t.app.db, t.app.storage, new Date());
    expect(counts.reports).toBe(2);
    for (const f of gone) expect(existsSync(f)).toBe(false);
    for (const f of kept) expect(existsSync(f)).toBe(true);
    const valid = await client.get(`/api/validation-results/${live}/valid-rows`);
    expect(valid.statusCode).toBe(200);
    expect(valid.body).toBe('id\r\n1\r\n');
  });
});
