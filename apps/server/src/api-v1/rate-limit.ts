// Per-key request rate limit (docs/decisions/083): a fixed one-minute window per API key, kept in
// this process. The answer carries the IETF draft's RateLimit-Limit, -Remaining and -Reset
// (seconds) headers, and a 429 adds Retry-After. With several server processes each keeps its own
// window, so the effective limit is the limit times the processes: generous by design.

export const WINDOW_SECONDS = 60;

/**
 * A key's requests a minute: its owner's contract limit when one is set (`npm run
 * set-rate-limit`, for Enterprise agreements), else the plan's (API_RATE_LIMIT_PER_MINUTE, or
 * API_RATE_LIMIT_ENTERPRISE_PER_MINUTE on Enterprise).
 */
export function rateLimitOf(
  limits: { perMinute: number; enterprisePerMinute: number },
  owner: { tier: string; rateLimitPerMinute: number | null },
): number {
  if (owner.rateLimitPerMinute !== null) return owner.rateLimitPerMinute;
  return owner.tier === 'enterprise' ? limits.enterprisePerMinute : limits.perMinute;
}

interface Window {
  start: number;
  count: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
}

export class KeyRateLimiter {
  private readonly windows = new Map<string, Window>();
  private lastSweep = 0;

  constructor(private readonly now: () => Date) {}

  take(key: string, limit: number): RateDecision {
    const t = this.now().getTime();
    const windowMs = WINDOW_SECONDS * 1000;
    if (t - this.lastSweep > windowMs) this.sweep(t);
    let w = this.windows.get(key);
    if (!w || t - w.start >= windowMs) {
      w = { start: t, count: 0 };
      this.windows.set(key, w);
    }
    const reset = Math.max(1, Math.ceil((w.start + windowMs - t) / 1000));
    if (w.count >= limit) return { allowed: false, limit, remaining: 0, reset };
    w.count++;
    return { allowed: true, limit, remaining: limit - w.count, reset };
  }

  private sweep(t: number): void {
    this.lastSweep = t;
    for (const [key, w] of this.windows) {
      if (t - w.start >= WINDOW_SECONDS * 1000) this.windows.delete(key);
    }
  }
}
