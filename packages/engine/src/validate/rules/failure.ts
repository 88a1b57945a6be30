import type { ErrorCode } from '../../model.ts';

/** One failed check of one value. Most are built once per field and reused for every cell. */
export interface Failure {
  readonly code: ErrorCode;
  readonly message: string;
  /** "Did you mean": the listed value the checked one nearly is (built per miss). */
  readonly suggestion?: string;
}

/**
 * A rule on a value that passed its type: pushes its failure, if any. The value is
 * text[start, end), read where it lies (a CSV line) so that a clean cell needs no string of its own.
 * `row` is for `unique`.
 */
export type RuleCheck = (
  text: string,
  start: number,
  end: number,
  row: number,
  out: Failure[],
) => void;

/**
 * A type check: false when the value text[start, end) is not of the type (its failure already
 * pushed). `fromJson`: the text is a JSON value's, already of the JSON type the field takes.
 */
export type TypeCheck = (
  text: string,
  start: number,
  end: number,
  row: number,
  out: Failure[],
  fromJson?: boolean,
) => boolean;

export const failure = (code: ErrorCode, message: string): Failure => ({ code, message });
