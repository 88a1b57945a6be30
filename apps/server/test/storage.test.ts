import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { userKey } from '../src/storage/keys.ts';
import { SWEEP_MIN_AGE_MS, sweepStorage } from '../src/storage/sweep.ts';
import {
  clientsOf,
  multipartBody,
  registerOnTier,
  STRONG_PASSWORD,
  testAppForFile,
} from './helpers.ts';

// Nothing left behind (docs/decisions/064): everything of a user is under their storage prefix,
// so account deletion removes it, rows or not; the periodic sweep removes temp files, reports
// without a row and folders of users who are gone.

const t = testAppForFile();
const newClient = clientsOf(t, 75);
const reportsDir = () => path.join(t.config.dataDir, 'reports');

function age(file: string, ms: number) {
  const when = new Date(Date.now() - ms);
  utimesSync(file, when, when);
}

async function uploadCsv(client: ReturnType<typeof newClient>) {
  const form = multipartBody([
    {
      name: 'schema',
      value: JSON.stringify({
        fileType: 'csv',
        fields: [{ name: 'id', type: 'integer', required: true }],
      }),
    },
    { name: 'file', filename: 'a.csv', content: 'id\nx\n' },
  ]);
  const res = await client.post('/api/validate', undefined, {
    payload: form.payload,
    headers: form.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { id: string };
}

describe('storage', () => {
  it('account deletion removes everything under the user prefix, with or without rows', async () => {
    const client = newClient();
    const { id } = await registerOnTier(t, client, 'business', 'store');
    await uploadCsv(client);
    // A report a crash left without a row, and a file of another kind under the same prefix.
    await t.app.storage.put(userKey(id, `${randomUUID()}.csv`), Readable.from(['orphan']));
    await t.app.storage.put(userKey(id, 'jobs', 'upload.bin'), Readable.from(['job']));
    expect(existsSync(path.join(reportsDir(), id))).toBe(true);

    const res = await client.post('/api/delete-account', { password: STRONG_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(existsSync(path.join(reportsDir(), id))).toBe(false);
  });

  it('the sweep removes old temp files, reports without a row and folders of deleted users', async () => {
    const client = newClient();
    const { id } = await registerOnTier(t, client, 'business', 'sweep');
    const kept = await uploadCsv(client);
    const keptFile = path.join(reportsDir(), id, `${kept.id}.csv`);
    expect(existsSync(keptFile)).toBe(true);

    const orphan = path.join(reportsDir(), id, `${randomUUID()}.csv`);
    const youngOrphan = path.join(reportsDir(), id, `${randomUUID()}.csv`);
    const oldTemp = path.join(reportsDir(), id, `${randomUUID()}.csv.tmp-abc123`);
    const youngTemp = path.join(reportsDir(), id, `${randomUUID()}.csv.tmp-def456`);
    const ghost = randomUUID();
    mkdirSync(path.join(reportsDir(), ghost, 'jobs'), { recursive: true });
    const ghostFile = path.join(reportsDir(), ghost, 'jobs', 'x.upload');
    for (const f of [orphan, youngOrphan, oldTemp, youngTemp, ghostFile]) writeFileSync(f, 'x');
    for (const f of [orphan, oldTemp, ghostFile, keptFile]) age(f, SWEEP_MIN_AGE_MS + 60_000);

    const counts = await sweepStorage(t.app.db, t.app.storage, new Date());
    expect(counts).toEqual({ tempFiles: 1, userFolders: 1, reports: 1, jobUploads: 0 });
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(oldTemp)).toBe(false);
    expect(existsSync(path.join(reportsDir(), ghost))).toBe(false);
    for (const f of [keptFile, youngOrphan, youngTemp]) expect(existsSync(f)).toBe(true);
    // The kept report still downloads.
    const download = await client.get(`/api/validation-results/${kept.id}/error-report`);
    expect(download.statusCode).toBe(200);
  });
});
