import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { RESULT_RETENTION_DAYS } from '@schemacheck/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { users, validationResults } from '../src/db/schema.ts';
import { PURGE_RESULTS_CRON, PURGE_RESULTS_QUEUE } from '../src/jobs/boss.ts';
import { reportKeyFor } from '../src/validation/results.ts';
import {
  createTestDatabase,
  FakeClock,
  newUser,
  removeTempDirs,
  testConfig,
  type TestDatabase,
} from './helpers.ts';

// The retention purge through pg-boss (RUN_JOBS=true here only), and the temp-file sweep.

const DAY = 24 * 60 * 60 * 1000;
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
  removeTempDirs();
});

describe('retention', () => {
  it('schedules the purge, and the job deletes results past 90 days with their reports', async () => {
    const config = testConfig({ RUN_JOBS: 'true' }, { jobsPollSeconds: 0.5 });
    // an orphan temp file from a "crash" an hour and more ago, and a fresh one (someone writing)
    const reports = path.join(config.dataDir, 'reports', 'u');
    mkdirSync(reports, { recursive: true });
    const orphan = path.join(reports, 'x.csv.tmp-abc');
    const fresh = path.join(reports, 'y.csv.tmp-def');
    writeFileSync(orphan, 'row\r\n');
    writeFileSync(fresh, 'row\r\n');
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(orphan, old, old);

    const clock = new FakeClock();
    const app = await buildApp(config, { database: db.database, now: clock.now });
    try {
      await app.ready();
      expect(existsSync(orphan)).toBe(false);
      expect(existsSync(fresh)).toBe(true);

      const boss = app.jobs!.boss;
      const schedules = await boss.getSchedules();
      expect(schedules).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: PURGE_RESULTS_QUEUE, cron: PURGE_RESULTS_CRON }),
        ]),
      );

      const u = newUser('ret');
      const [user] = await app.db
        .insert(users)
        .values({ username: u.username, email: u.email, passwordHash: 'x' })
        .returning();
      const now = clock.now().getTime();
      const ages = {
        expired: RESULT_RETENTION_DAYS * DAY + 1000,
        kept: RESULT_RETENTION_DAYS * DAY - 60_000,
      };
      const ids: Record<string, string> = {};
      for (const [label, age] of Object.entries(ages)) {
        const id = crypto.randomUUID();
        const key = reportKeyFor(user!.id, id);
        await app.storage.put(key, Readable.from(['row,field\r\n']));
        await app.db.insert(validationResults).values({
          id,
          userId: user!.id,
          fileName: `${label}.csv`,
          fileSize: 1,
          fileType: 'csv',
          schemaUsed: {},
          reportKey: key,
          createdAt: new Date(now - age),
        });
        ids[label] = id;
      }

      let ran = 0;
      boss.on('error', () => {});
      await boss.send(PURGE_RESULTS_QUEUE, {});
      const deadline = Date.now() + 45_000;
      while (Date.now() < deadline) {
        const rows = await app.db
          .select({ id: validationResults.id })
          .from(validationResults)
          .where(eq(validationResults.userId, user!.id));
        if (rows.length === 1) {
          ran = 1;
          break;
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(ran).toBe(1);
      const left = await app.db
        .select()
        .from(validationResults)
        .where(eq(validationResults.userId, user!.id));
      expect(left.map((r) => r.id)).toEqual([ids.kept]);
      expect(await app.storage.get(reportKeyFor(user!.id, ids.expired!))).toBeNull();
      const kept = await app.storage.get(reportKeyFor(user!.id, ids.kept!));
      expect(kept).not.toBeNull();
      kept!.destroy();
    } finally {
      await app.close();
    }
  });
});
