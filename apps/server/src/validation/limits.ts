import {
  formatBytes,
  formatCount,
  PLANS,
  type PlanLimits,
  type SubscriptionTier,
} from '@schemacheck/contracts';
import { AppError } from '../errors.ts';

// Plan refusals with the messages the dashboard's tier-limit dialog reads (docs/product.md#plans-and-limits: "file size"
// and "rows"). Every figure comes from PLANS.

export function limitsOf(tier: SubscriptionTier): PlanLimits {
  return PLANS[tier].limits;
}

export function fileTooLarge(maxFileBytes: number): AppError {
  return new AppError('file_too_large', {
    message: `This file is larger than your plan's file size limit of ${formatBytes(maxFileBytes)}.`,
    extra: { limit: maxFileBytes },
  });
}

export function rowLimit(maxRows: number): AppError {
  return new AppError('row_limit', {
    message: `This file has more than ${formatCount(maxRows)} rows, the limit of your plan.`,
    extra: { limit: maxRows },
  });
}

export function validationInProgress(tier: SubscriptionTier): AppError {
  return new AppError('validation_in_progress', {
    message: `You can run one validation at a time on the ${PLANS[tier].label} plan. Wait for the current one to finish.`,
    headers: { 'retry-after': '5' },
  });
}

/**
 * Validations running per user in this process (docs/decisions/032). Good for one server; with
 * several servers on one PostgreSQL the guard must move into the database.
 */
export class RunningValidations {
  private readonly byUser = new Map<string, number>();

  /** A release function, or null when `max` are already running. */
  acquire(userId: string, max: number | null): (() => void) | null {
    const n = this.byUser.get(userId) ?? 0;
    if (max !== null && n >= max) return null;
    this.byUser.set(userId, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.byUser.get(userId) ?? 1) - 1;
      if (left <= 0) this.byUser.delete(userId);
      else this.byUser.set(userId, left);
    };
  }

  get size(): number {
    let n = 0;
    for (const v of this.byUser.values()) n += v;
    return n;
  }
}
