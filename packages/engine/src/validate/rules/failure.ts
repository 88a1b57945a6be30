import type { ErrorCode } from '../../model.ts';

/** One failed check of one value. Most are built once per field and reused for every cell. */
export interface Failure {
  readonly code: ErrorCode;
  readonly message: string;
}

/** A rule on a value that passed its type: pushes its failure, if any. `row` is for `unique`. */
export type RuleCheck = (value: string, row: number, out: Failure[]) => void;

export const failure = (code: ErrorCode, message: string): Failure => ({ code, message });
