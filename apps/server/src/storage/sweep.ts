import { inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/client.ts';
import { users, validationJobs, validationResults } from '../db/schema.ts';
import type { Storage } from './index.ts';

// The periodic storage sweep (docs/decisions/064): what a crash, a kill -9 or a race with account
// deletion left behind. Temp files nobody writes any more; the folder of a user who no longer
// exists; a report (`<userId>/<resultId>.csv`) whose result row was never written or is gone; a
// job upload (`<userId>/uploads/<jobId>.upload`) that no job row points to any more (the row was
// never written, was deleted, or has ended and let go of its upload without deleting it), and
// the part outcomes of a split job (`<userId>/uploads/<jobId>.part-<n>`, decision 239) with it.
// Anything younger than SWEEP_MIN_AGE_MS may belong to a write in progress and is left alone: a job
// upload is written before its row, within one request (cut at 5 minutes).

/**
 * The periodic sweep's age below which a file is left alone (it may belong to a write in progress):
 * older than any write, since requests are cut at 5 minutes and reports are written as they go.
 */
export const SWEEP_MIN_AGE_MS = 15 * 60 * 1000;
export const SWEEP_EVERY_MS = 15 * 60 * 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const REPORT = /^([0-9a-f-]{36})\/([0-9a-f-]{36})\.csv$/i;
/** jobs/validation-jobs.ts uploadKeyFor(); `jobs/` is the older area name of the same files. */
const JOB_UPLOAD = /^([0-9a-f-]{36})\/(?:uploads|jobs)\/([0-9a-f-]{36})\.upload$/i;
/** jobs/split-jobs.ts outcomeKeyFor(): a split job's part outcomes, kept while its upload is. */
const PART_OUTCOME = /^([0-9a-f-]{36}\/uploads\/[0-9a-f-]{36})\.part-\d+$/i;
/** reports/row-outputs.ts rowOutputKey(): the valid and invalid rows of a result (decision 205). */
const ROW_OUTPUT = /^([0-9a-f-]{36})\/rows\/([0-9a-f-]{36})\.(?:valid|invalid)$/i;
/** validation/service.ts spools container uploads as `<dataDir>/tmp/upload-<resultId>`. */
const SPOOL_FILE = /^upload-[0-9a-f-]{36}$/i;
/**
 * A spooled upload lives while its validation runs; requests are cut at 5 minutes and a job
 * reads its spool within its run, so one an hour old was left by a crash (decision 208).
 */
export const SPOOL_MAX_AGE_MS = 60 * 60 * 1000;
const BATCH = 500;

export interface SweepCounts {
  tempFiles: number;
  userFolders: number;
  reports: number;
  jobUploads: number;
}

export async function sweepStorage(
  db: Db,
  storage: Storage,
  now: Date,
  log?: FastifyBaseLogger,
  /** Where uploads are spooled (`<dataDir>/tmp`): stale spool files count as temp files. */
  spoolDir?: string,
): Promise<SweepCounts> {
  const counts: SweepCounts = {
    tempFiles: await storage.sweepTemp(SWEEP_MIN_AGE_MS),
    userFolders: 0,
    reports: 0,
    jobUploads: 0,
  };
  const cutoff = now.getTime() - SWEEP_MIN_AGE_MS;

  if (spoolDir) counts.tempFiles += await sweepSpool(spoolDir, now);

  // Newest write per user folder, and the reports old enough to judge.
  const newest = new Map<string, number>();
  const reports: Array<{ key: string; resultId: string }> = [];
  /** Job uploads and split jobs' part outcomes, with the upload key that keeps each. */
  const uploads: Array<{ key: string; uploadKey: string }> = [];
  const rowOutputs: Array<{ key: string; resultId: string }> = [];
  for await (const { key, modifiedAt } of storage.list()) {
    const owner = key.split('/')[0]!;
    if (!UUID.test(owner)) continue;
    newest.set(owner, Math.max(newest.get(owner) ?? 0, modifiedAt.getTime()));
    const m = REPORT.exec(key);
    if (m && UUID.test(m[2]!) && modifiedAt.getTime() <= cutoff) {
      reports.push({ key, resultId: m[2]!.toLowerCase() });
    }
    if (modifiedAt.getTime() <= cutoff) {
      if (JOB_UPLOAD.test(key)) uploads.push({ key, uploadKey: key });
      const part = PART_OUTCOME.exec(key);
      if (part) uploads.push({ key, uploadKey: `${part[1]!}.upload` });
    }
    const rowOutput = ROW_OUTPUT.exec(key);
    if (rowOutput && UUID.test(rowOutput[2]!) && modifiedAt.getTime() <= cutoff) {
      rowOutputs.push({ key, resultId: rowOutput[2]!.toLowerCase() });
    }
  }

  const owners = [...newest.keys()];
  const gone = new Set<string>();
  for (let i = 0; i < owners.length; i += BATCH) {
    const batch = owners.slice(i, i + BATCH);
    const found = await db.select({ id: users.id }).from(users).where(inArray(users.id, batch));
    const alive = new Set(found.map((r) => r.id.toLowerCase()));
    for (const id of batch) if (!alive.has(id.toLowerCase())) gone.add(id);
  }
  for (const id of gone) {
    if ((newest.get(id) ?? 0) > cutoff) continue;
    await storage.deletePrefix(id);
    counts.userFolders++;
  }

  const live = reports.filter((r) => !gone.has(r.key.split('/')[0]!));
  for (let i = 0; i < live.length; i += BATCH) {
    const batch = live.slice(i, i + BATCH);
    const rows = await db
      .select({ reportKey: validationResults.reportKey })
      .from(validationResults)
      .where(
        inArray(
          validationResults.id,
          batch.map((r) => r.resultId),
        ),
      );
    const kept = new Set(rows.map((r) => r.reportKey));
    for (const r of batch) {
      if (kept.has(r.key)) continue;
      await storage.delete(r.key);
      counts.reports++;
    }
  }

  // The valid and invalid rows of a result go with its row (counted with the reports).
  const liveRows = rowOutputs.filter((r) => !gone.has(r.key.split('/')[0]!));
  for (let i = 0; i < liveRows.length; i += BATCH) {
    const batch = liveRows.slice(i, i + BATCH);
    const rows = await db
      .select({ id: validationResults.id })
      .from(validationResults)
      .where(
        inArray(
          validationResults.id,
          batch.map((r) => r.resultId),
        ),
      );
    const kept = new Set(rows.map((r) => r.id.toLowerCase()));
    for (const r of batch) {
      if (kept.has(r.resultId)) continue;
      await storage.delete(r.key);
      counts.reports++;
    }
  }

  // A job upload is kept while a job row names it as its upload (queued or running); the row
  // lets go of it (uploadKey null) when the job ends, and account deletion removes the row.
  const liveUploads = uploads.filter(({ key }) => !gone.has(key.split('/')[0]!));
  for (let i = 0; i < liveUploads.length; i += BATCH) {
    const batch = liveUploads.slice(i, i + BATCH);
    const rows = await db
      .select({ uploadKey: validationJobs.uploadKey })
      .from(validationJobs)
      .where(
        inArray(
          validationJobs.uploadKey,
          batch.map((u) => u.uploadKey),
        ),
      );
    const kept = new Set(rows.map((r) => r.uploadKey));
    for (const { key, uploadKey } of batch) {
      if (kept.has(uploadKey)) continue;
      await storage.delete(key);
      counts.jobUploads++;
    }
  }

  if (counts.tempFiles + counts.userFolders + counts.reports + counts.jobUploads > 0) {
    log?.info(counts, 'Storage sweep removed what was left behind');
  }
  return counts;
}

/**
 * Removes spooled uploads (`upload-<id>` under `dir`) older than SPOOL_MAX_AGE_MS: a crash or a
 * kill between the spool's write and its removal leaves them (decision 208). Returns how many.
 */
export async function sweepSpool(dir: string, now: Date): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  const cutoff = now.getTime() - SPOOL_MAX_AGE_MS;
  let removed = 0;
  for (const name of names) {
    if (!SPOOL_FILE.test(name)) continue;
    const file = path.join(dir, name);
    const s = await stat(file).catch(() => null);
    if (!s?.isFile() || s.mtimeMs > cutoff) continue;
    await rm(file, { force: true });
    removed++;
  }
  return removed;
}
