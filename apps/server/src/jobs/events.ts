import type { Db } from '../db/client.ts';

// What the jobs module tells the rest of the server (docs/decisions/186): a job ended. The jobs
// module knows nobody who listens; the webhooks module subscribes (webhooks/plugin.ts) and writes
// its deliveries. Listeners run inside the transaction that ends the job, so what they write
// exists exactly when the job's end does (the webhook outbox, docs/decisions/092).

/** The transaction a job ends in, as listeners may use it. */
export type JobTx = Pick<Db, 'select' | 'insert' | 'execute'>;

/** A job's end, as its owner's webhooks receive it (job.completed / job.failed). */
export interface JobEnded {
  event: 'job.completed' | 'job.failed';
  /** Epoch milliseconds of the event. */
  timestamp: number;
  /** False for a test-mode job (docs/decisions/174). */
  livemode: boolean;
  data: Record<string, unknown>;
}

export type JobEndedListener = (
  tx: JobTx,
  ended: { userId: string; message: JobEnded; at: Date },
) => Promise<void>;

/** The listeners of job events, one list per app (decorated as `jobEvents`). */
export class JobEvents {
  private readonly listeners: JobEndedListener[] = [];

  onEnded(listener: JobEndedListener): void {
    this.listeners.push(listener);
  }

  /** Runs every listener in `tx`, in the order they subscribed; a throw rolls the end back. */
  async ended(tx: JobTx, userId: string, message: JobEnded, at: Date): Promise<void> {
    for (const listener of this.listeners) await listener(tx, { userId, message, at });
  }
}
