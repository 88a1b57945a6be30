import type { PeerReport } from '../peers/common.ts';

/** A goal the benchmark checks. `met` is null when it could not be measured. */
export interface Target {
  name: string;
  goal: string;
  actual: string;
  met: boolean | null;
  /** E.g. that the machine was busy and what CPU time says. */
  note?: string | undefined;
}

export interface SectionResult {
  /** Plain-text output for the terminal. */
  text: string;
  /** Markdown for docs/performance.md. */
  markdown: string;
  /** Machine-readable results for .bench/results.json. */
  data: unknown;
  targets: Target[];
  /** Correctness failures: each becomes a FAIL line and makes the run exit 1. */
  failures: string[];
}

export interface BenchContext {
  dir: string;
  runs: number;
  log: (message: string) => void;
  /** Peak RSS of an empty child under the same loader. */
  baseline: PeerReport | null;
}

/**
 * One part of the benchmark. run.ts runs the enabled sections in order and joins their output,
 * targets and failures. A new section (e.g. server responsiveness under a 100 MB upload) is a new
 * file under bench/sections/ added to the list in run.ts.
 */
export interface Section {
  id: string;
  title: string;
  /** Why the section is skipped, or null to run it. */
  skipReason(): string | null;
  run(ctx: BenchContext): Promise<SectionResult>;
}
