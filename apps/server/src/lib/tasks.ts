import type { FastifyBaseLogger } from 'fastify';

/**
 * Work done after the response has gone (mails, clean-ups), so that it neither delays nor shapes
 * the answer. Failures are logged; `idle()` waits for everything started so far (graceful
 * shutdown, tests).
 */
export class BackgroundTasks {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  run(name: string, fn: () => Promise<void>): void {
    const p = (async () => {
      try {
        await fn();
      } catch (err) {
        this.log.error({ err, task: name }, 'Background task failed');
      }
    })();
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
