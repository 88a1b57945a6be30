// Shared by every peer script. A peer is a standalone script run in its own child process:
//
//   node --import tsx bench/peers/<peer>.ts <file> [--pairs <out.json>]
//
// It times its own work (after its imports are loaded), then prints ONE JSON line (PeerReport)
// on stdout. With --pairs it also writes the (row, field) of every error it found, so that the
// orchestrator can compare them with the planted errors. Rows are spreadsheet rows: CSV header =
// row 1 and first record = row 2; JSON first record = row 1.

import { readFileSync, statSync, writeFileSync } from 'node:fs';
import type { FileType } from '@schemacheck/engine';

export interface PeerReport {
  tool: string;
  input: FileType;
  file: string;
  bytes: number;
  /** Data records seen. */
  rows: number;
  /** The tool's own count of errors (engine: errorCount; ajv: errors after dedup by row+field). */
  errors: number;
  /** Distinct (row, field) pairs with an error; null for tools that do not check. */
  errorPairs: number | null;
  /** Extra numbers a peer wants to show (e.g. raw ajv error objects). */
  extra?: Record<string, number | string>;
  /** Wall-clock time of the work (after imports): reading, parsing, checking. */
  ms: number;
  /** CPU time (user + system, all threads) over the same span; below `ms` when the core was shared. */
  cpuMs: number;
  /** Peak resident set size of the whole process, MiB (VmHWM). */
  peakRssMiB: number;
}

export interface PeerArgs {
  file: string;
  pairsOut: string | null;
}

export function peerArgs(): PeerArgs {
  const args = process.argv.slice(2);
  const file = args[0];
  if (!file) {
    console.error('usage: node --import tsx bench/peers/<peer>.ts <file> [--pairs <out.json>]');
    process.exit(2);
  }
  const i = args.indexOf('--pairs');
  return { file, pairsOut: i >= 0 ? (args[i + 1] ?? null) : null };
}

export function fileBytes(file: string): number {
  return statSync(file).size;
}

/** Peak RSS of this process in MiB: VmHWM from /proc, or process.resourceUsage() elsewhere. */
export function peakRssMiB(): number {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    if (m) return Number(m[1]) / 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS / 1024;
}

/** One recorded error: [row, field, code, value]. */
export type Pair = [number, string, string, string | null];

/** Most pairs kept in memory; a tool that floods errors is counted, not recorded. */
const MAX_PAIRS = 200_000;

/**
 * Collects distinct (row, field) pairs. Errors arrive in row order from every tool here, so one
 * `lastRow` set is enough to drop duplicates of the same row (ajv can report two keywords for one
 * value) without a global set.
 */
export class PairRecorder {
  readonly pairs: Pair[] = [];
  count = 0;
  private lastRow = -1;
  private lastFields = new Set<string>();

  constructor(private readonly keep: boolean) {}

  /** Returns true when the pair is new. */
  add(row: number, field: string, code: string, value: unknown): boolean {
    if (row !== this.lastRow) {
      this.lastRow = row;
      this.lastFields.clear();
    } else if (this.lastFields.has(field)) {
      return false;
    }
    this.lastFields.add(field);
    this.count++;
    if (this.keep && this.pairs.length < MAX_PAIRS) {
      this.pairs.push([row, field, code, shortValue(value)]);
    }
    return true;
  }

  write(path: string | null): void {
    if (path) writeFileSync(path, JSON.stringify({ count: this.count, pairs: this.pairs }));
  }
}

function shortValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  // A fresh copy: a value cut from a parser's chunk text can be a V8 sliced string that keeps the
  // whole chunk alive, and 10,000 of them would keep most of the file in memory.
  return copyString(s.length > 60 ? `${s.slice(0, 57)}...` : s);
}

function copyString(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
}

let cpuStart: NodeJS.CpuUsage | null = null;

/** Starts the clock: call after the imports, before any work. Returns performance.now(). */
export function startTimer(): number {
  cpuStart = process.cpuUsage();
  return performance.now();
}

export function report(r: Omit<PeerReport, 'peakRssMiB' | 'cpuMs'>): void {
  const cpu = process.cpuUsage(cpuStart ?? undefined);
  const line: PeerReport = {
    ...r,
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    peakRssMiB: Math.round(peakRssMiB() * 10) / 10,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** 1 MiB read chunks for every streaming peer (BENCH_CHUNK_KB overrides it, for experiments). */
export const CHUNK_BYTES = Number(process.env.BENCH_CHUNK_KB ?? 1024) * 1024;
