import type { Io } from './io.ts';

export interface Progress {
  update(bytes: number): void;
  done(): void;
}

const DELAY_MS = 400;
const REDRAW_MS = 100;
const WIDTH = 28;

/**
 * A progress bar on stderr, only on a terminal and only once a run has taken more than a
 * moment, so quick runs and pipelines stay quiet.
 */
export function createProgress(io: Io, total: number | undefined): Progress {
  if (!io.stderr.isTTY) return { update() {}, done() {} };
  const started = performance.now();
  let lastDraw = 0;
  let drawn = false;
  return {
    update(bytes) {
      const now = performance.now();
      if (now - started < DELAY_MS || now - lastDraw < REDRAW_MS) return;
      lastDraw = now;
      drawn = true;
      const rate = bytes / ((now - started) / 1000);
      let line = `${formatBytes(bytes)} read, ${formatBytes(rate)}/s`;
      if (total) {
        const share = Math.min(1, bytes / total);
        const filled = Math.round(share * WIDTH);
        line = `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${Math.floor(share * 100)}%  ${formatBytes(bytes)} of ${formatBytes(total)}, ${formatBytes(rate)}/s`;
      }
      io.stderr.write(`\r${line}\x1b[K`);
    },
    done() {
      if (drawn) io.stderr.write('\r\x1b[K');
    },
  };
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
}
