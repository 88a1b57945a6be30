// Zip-bomb guards shared by gzip and zip. Decompressed bytes are counted as they come out, so a
// lie in a header (or no header at all, as in gzip) is caught after at most one inflater chunk.

import { refuse } from './refusal.ts';

export interface ArchiveLimits {
  /** Decompressed bytes allowed for one file (the plan's size limit); default unlimited. */
  maxBytes?: number;
  /** Decompressed:compressed ratio allowed beyond `ratioFreeBytes`. Default 100. */
  maxRatio?: number;
  /** Output allowed before the ratio applies (small files compress extremely well). 1 MiB. */
  ratioFreeBytes?: number;
  /** Entries a zip may list (directories included). Default 1000. */
  maxEntries?: number;
}

export const DEFAULT_MAX_RATIO = 100;
export const DEFAULT_RATIO_FREE_BYTES = 1 << 20;
export const DEFAULT_MAX_ENTRIES = 1000;

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let n = bytes / 1024;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  return `${n.toFixed(n < 10 ? 1 : 0)} ${units[u]}`;
}

/** Counts compressed bytes in and decompressed bytes out of one stream and refuses a bomb. */
export class InflateGuard {
  compressedIn = 0;
  out = 0;
  private readonly maxBytes: number;
  private readonly maxRatio: number;
  private readonly free: number;

  constructor(
    private readonly what: string,
    limits: ArchiveLimits,
    /** Declared decompressed size (zip), checked as a promise the data must keep. */
    private readonly declared?: number,
  ) {
    this.maxBytes = limits.maxBytes ?? Infinity;
    this.maxRatio = limits.maxRatio ?? DEFAULT_MAX_RATIO;
    this.free = limits.ratioFreeBytes ?? DEFAULT_RATIO_FREE_BYTES;
  }

  /** Checks sizes a zip declares before any byte is inflated. */
  checkDeclared(compressed: number, uncompressed: number): void {
    this.checkSize(uncompressed);
    this.checkRatio(uncompressed, compressed);
  }

  input(bytes: number): void {
    this.compressedIn += bytes;
  }

  output(bytes: number): void {
    this.out += bytes;
    if (this.declared !== undefined && this.out > this.declared) {
      refuse(
        'corrupt_archive',
        `${this.what} holds more data than its zip header declares (${formatSize(this.declared)}): the archive is damaged or crafted, so it was not read`,
      );
    }
    this.checkSize(this.out);
    this.checkRatio(this.out, this.compressedIn);
  }

  private checkSize(bytes: number): void {
    if (bytes > this.maxBytes) {
      refuse(
        'too_large',
        `${this.what} is larger than ${formatSize(this.maxBytes)} once decompressed (the size limit applies to the decompressed data)`,
      );
    }
  }

  private checkRatio(out: number, compressed: number): void {
    if (out > this.free && out > this.free + this.maxRatio * compressed) {
      refuse(
        'compression_ratio',
        `${this.what} decompresses to more than ${this.maxRatio} times its compressed size (a zip bomb?), so it was not read`,
      );
    }
  }
}
