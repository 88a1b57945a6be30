// A zip reader over a random-access ByteSource: the central directory at the end of the file says
// where every entry is, so entries are read in any order (a workbook's shared strings before its
// sheet) and each is inflated as a stream. Guards run before anything is inflated (entry count,
// declared sizes and ratios, encryption, methods) and again on every chunk that comes out.

import type { ByteSource, Decompress } from './byte-source.ts';
import { type ArchiveLimits, DEFAULT_MAX_ENTRIES, formatSize, InflateGuard } from './limits.ts';
import { refuse } from './refusal.ts';

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflate; others are refused when opened. */
  method: number;
  compressedSize: number;
  size: number;
  encrypted: boolean;
  isDirectory: boolean;
  /** Offset of the local file header. */
  headerOffset: number;
}

export interface ZipArchive {
  /** Entries in directory order. */
  readonly entries: readonly ZipEntry[];
  find(name: string): ZipEntry | undefined;
  /** The entry's decompressed bytes, guarded against bombs; `what` names it in refusals. */
  open(entry: ZipEntry, what?: string): AsyncIterable<Uint8Array>;
}

const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;
/** A central directory bigger than this cannot belong to an archive within the entry cap. */
const MAX_DIRECTORY_BYTES = 64 << 20;
const READ_BYTES = 1 << 18;

const u16 = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u32 = (b: Uint8Array, i: number) =>
  (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
const u64 = (b: Uint8Array, i: number) => u32(b, i) + u32(b, i + 4) * 0x1_0000_0000;

const corrupt = (name: string, why: string): never =>
  refuse('corrupt_archive', `${name} is not a readable zip file (${why})`);

/** Reads the directory of a zip file; refuses it when it lists more entries than allowed. */
export async function openZip(
  source: ByteSource,
  inflateRaw: Decompress,
  limits: ArchiveLimits = {},
  name = 'the zip file',
): Promise<ZipArchive> {
  const maxEntries = limits.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const tailLength = Math.min(source.size, 22 + MAX_COMMENT + 20);
  const tailStart = source.size - tailLength;
  const tail = await source.read(tailStart, tailLength);
  let at = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (u32(tail, i) === EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) corrupt(name, 'no end of central directory');
  let count = u16(tail, at + 10);
  let dirSize = u32(tail, at + 12);
  let dirOffset = u32(tail, at + 16);
  if (count === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff) {
    // ZIP64: the real figures are in a record the locator (just before the EOCD) points at.
    const loc = at - 20;
    if (loc < 0 || u32(tail, loc) !== EOCD64_LOCATOR) corrupt(name, 'ZIP64 locator missing');
    const record = await source.read(u64(tail, loc + 8), 56);
    if (record.length < 56 || u32(record, 0) !== EOCD64) corrupt(name, 'ZIP64 record missing');
    count = u64(record, 32);
    dirSize = u64(record, 40);
    dirOffset = u64(record, 48);
  }
  if (count > maxEntries) {
    refuse(
      'too_many_entries',
      `${name} lists ${count.toLocaleString('en-GB')} entries; at most ${maxEntries.toLocaleString('en-GB')} are read`,
    );
  }
  if (dirSize > MAX_DIRECTORY_BYTES || dirOffset + dirSize > source.size) {
    corrupt(name, 'central directory out of range');
  }
  const dir = await source.read(dirOffset, dirSize);
  const entries: ZipEntry[] = [];
  let p = 0;
  const decoder = new TextDecoder();
  while (p + 46 <= dir.length && u32(dir, p) === CENTRAL) {
    if (entries.length >= maxEntries) {
      refuse('too_many_entries', `${name} has more than ${maxEntries} entries`);
    }
    const flags = u16(dir, p + 8);
    const method = u16(dir, p + 10);
    let compressedSize = u32(dir, p + 20);
    let size = u32(dir, p + 24);
    const nameLength = u16(dir, p + 28);
    const extraLength = u16(dir, p + 30);
    const commentLength = u16(dir, p + 32);
    let headerOffset = u32(dir, p + 42);
    const entryName = decoder.decode(dir.subarray(p + 46, p + 46 + nameLength));
    // ZIP64 extra field: the 64-bit values of exactly the fields saturated above, in this order.
    let e = p + 46 + nameLength;
    const extraEnd = e + extraLength;
    while (e + 4 <= extraEnd) {
      const id = u16(dir, e);
      const len = u16(dir, e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        if (size === 0xffffffff) {
          size = u64(dir, q);
          q += 8;
        }
        if (compressedSize === 0xffffffff) {
          compressedSize = u64(dir, q);
          q += 8;
        }
        if (headerOffset === 0xffffffff) headerOffset = u64(dir, q);
      }
      e += 4 + len;
    }
    entries.push({
      name: entryName,
      method,
      compressedSize,
      size,
      // Bit 0: traditional or strong encryption; method 99: WinZip AES.
      encrypted: (flags & 1) !== 0 || method === 99,
      isDirectory: entryName.endsWith('/'),
      headerOffset,
    });
    p = extraEnd + commentLength;
  }
  if (entries.length !== count && count !== 0xffff) corrupt(name, 'central directory cut short');

  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  return {
    entries,
    find(wanted) {
      const exact = byName.get(wanted);
      if (exact) return exact;
      const lower = wanted.toLowerCase();
      return entries.find((entry) => entry.name.toLowerCase() === lower);
    },
    open: (entry, what = `${name}: ${entry.name}`) =>
      openEntry(source, inflateRaw, limits, entry, what),
  };
}

async function* openEntry(
  source: ByteSource,
  inflateRaw: Decompress,
  limits: ArchiveLimits,
  entry: ZipEntry,
  what: string,
): AsyncIterable<Uint8Array> {
  if (entry.encrypted) {
    refuse('encrypted', `${what} is encrypted (password-protected); save it without a password`);
  }
  if (entry.method !== 0 && entry.method !== 8) {
    refuse(
      'unsupported_compression',
      `${what} uses compression method ${entry.method}; only stored and deflate entries are read`,
    );
  }
  const guard = new InflateGuard(what, limits, entry.size);
  guard.checkDeclared(entry.compressedSize, entry.size);
  const header = await source.read(entry.headerOffset, 30);
  if (header.length < 30 || u32(header, 0) !== LOCAL) corrupt(what, 'local header missing');
  const start = entry.headerOffset + 30 + u16(header, 26) + u16(header, 28);
  const end = start + entry.compressedSize;
  if (end > source.size) corrupt(what, 'entry runs past the end of the file');

  async function* raw(): AsyncIterable<Uint8Array> {
    for (let at = start; at < end;) {
      const chunk = await source.read(at, Math.min(READ_BYTES, end - at));
      if (chunk.length === 0) corrupt(what, 'file ends early');
      at += chunk.length;
      guard.input(chunk.length);
      yield chunk;
    }
  }
  const out = entry.method === 0 ? raw() : inflateRaw(raw());
  for await (const chunk of out) {
    guard.output(chunk.byteLength);
    yield chunk;
  }
  if (guard.out !== entry.size) {
    corrupt(what, `${formatSize(guard.out)} read where ${formatSize(entry.size)} were declared`);
  }
}
