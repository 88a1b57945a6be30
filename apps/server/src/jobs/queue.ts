import { sql, type SQL } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import type { Db } from '../db/client.ts';

// Sending to pg-boss from any process (docs/decisions/093). A process that works jobs
// (RUN_JOBS=true, or `npm run worker`) sends through its own started boss; a web server with
// RUN_JOBS=false starts a sending-only boss (no supervision, no schedules, no workers) the first
// time it enqueues. `inTransaction` lets a job be inserted in the same transaction as the rows it
// is about, so the two exist together or not at all.

/** The executor pg-boss accepts for one statement (`options.db`). */
export interface BossExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** pg-boss's `$1 … $n` statement as a drizzle query, so it runs inside a drizzle transaction. */
function toSql(text: string, values: unknown[]): SQL {
  const pieces = text.split(/\$(\d+)\b/);
  const chunks: SQL[] = [];
  pieces.forEach((piece, i) => {
    if (i % 2 === 0) chunks.push(sql.raw(piece));
    else chunks.push(sql`${values[Number(piece) - 1] ?? null}`);
  });
  return sql.join(chunks, sql.raw(''));
}

/** An executor running on `tx` (a drizzle transaction or the database). */
export function executorOf(tx: Pick<Db, 'execute'>): BossExecutor {
  return {
    async executeSql(text, values = []) {
      const result = (await tx.execute(toSql(text, values))) as unknown as { rows: unknown[] };
      return { rows: result.rows };
    },
  };
}

export class JobQueue {
  private sender: Promise<PgBoss> | null = null;

  constructor(
    /** The working boss of this process, when it has one. */
    private readonly working: () => PgBoss | null,
    /** Makes and starts a sending-only boss with the queues created. */
    private readonly startSender: () => Promise<PgBoss>,
  ) {}

  /** A started boss to send through. */
  async boss(): Promise<PgBoss> {
    const own = this.working();
    if (own) return own;
    this.sender ??= this.startSender().catch((err: unknown) => {
      this.sender = null;
      throw err;
    });
    return this.sender;
  }

  async close(): Promise<void> {
    const s = this.sender;
    this.sender = null;
    if (s) await (await s.catch(() => null))?.stop({ graceful: false, wait: true });
  }
}
