// sharedStrings.xml, read once as a stream into a table (a cell with t="s" holds an index into
// it). The table grows with distinct strings, not rows, but a crafted workbook could still make it
// huge, so its total length is capped. The XML is scanned as the inflater's bytes (decision 230):
// a plain `<si><t>text</t></si>` is copied byte for byte (named entities replaced on the way), and
// only an entry with markup, character references or _xHHHH_ escapes is decoded to read it.

import { formatSize } from '../archive/limits.ts';
import { refuse } from '../archive/refusal.ts';
import type { ZipArchive } from '../archive/zip.ts';
import { richText, rootPrefix } from './xml.ts';

/** Characters (UTF-16 units) the shared-string table may hold in all. */
export const MAX_SHARED_STRING_CHARS = 96 << 20;

export interface SharedStrings {
  readonly count: number;
  /** The string at `index`, '' when there is none (a damaged reference). */
  get(index: number): string;
  /** The length in UTF-8 bytes of the string at `index` (0 when there is none). */
  byteLength(index: number): number;
  /** Copies the UTF-8 bytes of the string at `index` to out[at…]; the end. */
  copyInto(index: number, out: Uint8Array, at: number): number;
  /** Whether the string at `index` holds a comma, quote or line break (CSV quotes it). */
  needsQuotes(index: number): boolean;
  /** Whether the string at `index` is all ASCII: as many UTF-16 units as UTF-8 bytes. */
  isAscii(index: number): boolean;
}

/** A string's start in its block, and its bit for a byte past ASCII (see TableBuilder.starts). */
const AT = 0x7fffffff;
const WIDE = 0x80000000;

/** Strings per block: a string's block is its index >>> BLOCK_SHIFT. */
const BLOCK_SHIFT = 10;
const BLOCK_STRINGS = 1 << BLOCK_SHIFT;

/**
 * Every string as well-formed UTF-8, in blocks of 1,024 (decision 221): a sheet's cells are
 * copied from here to the CSV as bytes, so no string is made for a cell unless it is looked at
 * (a header, a value that may be Excel damage). Each block is an exact-size byte array (outside
 * V8's heap, never moved by the collector) with its strings' starts, 16-bit where the block is
 * under 64 KiB: the table is its text and ~2 bytes a string, and loading it grows no array by
 * doubling.
 */
class TableBuilder {
  private readonly blocks: Uint8Array[] = [];
  /**
   * Where each string starts in its block (the low 31 bits; it ends where the next one starts),
   * and the top bit set when it holds a byte past ASCII: read with the start, at no extra load.
   */
  private readonly starts: Uint32Array[] = [];
  /** A bit per string: it holds a comma, quote or line break. */
  private readonly special: Uint8Array[] = [];
  private stagingSpecial = new Uint8Array(BLOCK_STRINGS >> 3);
  private n = 0;
  private staging = new Uint8Array(1 << 16);
  private stagingStarts = new Uint32Array(BLOCK_STRINGS);
  private used = 0;
  add(src: Uint8Array, from: number, to: number): void {
    let special = false;
    let wide = false;
    for (let i = from; i < to; i++) {
      const b = src[i]!;
      if (b === 44 || b === 34 || b === 10 || b === 13) special = true;
      else if (b >= 0x80) wide = true;
    }
    const length = to - from;
    this.room(length);
    const staging = this.staging;
    let at = this.used;
    // Most strings are short: a loop beats set() on a subarray, which allocates a view.
    if (length < 64) for (let i = from; i < to; i++) staging[at++] = src[i]!;
    else {
      staging.set(src.subarray(from, to), at);
      at += length;
    }
    this.added(at, special, wide);
  }

  // What copyText found in the text it copied: a byte past ASCII, a comma, quote or line break,
  // its length in UTF-16 units, and where it ends in `staging`.
  textWide = false;
  textSpecial = false;
  textUnits = 0;
  private textEnd = 0;

  /**
   * Copies the text of a plain entry from src[from…] as it reads (the named entities replaced)
   * to where the next string goes, up to the first byte that is not such text: a `<`, an `_x`
   * escape, any other `&`, or `end`. Where it stopped; the string is added by addCopied, once
   * the caller knows it is the entry's whole text, and is otherwise left out. One pass that
   * classes each byte and copies it: a pass to find the text's end and a copy after it read
   * every byte twice (the copy alone was a fifth of loading the bench's table).
   */
  copyText(src: Uint8Array, from: number, end: number): number {
    this.room(end - from);
    const staging = this.staging;
    let at = this.used;
    let wide = false;
    let special = false;
    let continuation = 0;
    let astral = 0;
    let i = from;
    for (; i < end; i++) {
      const b = src[i]!;
      const k = TEXT_BYTE[b]!;
      if (k !== 0) {
        if (k === CONTINUATION) {
          wide = true;
          continuation++;
        } else if (k === LEAD) {
          wide = true;
          if (b >= 0xf0) astral++;
        } else if (k === SPECIAL) special = true;
        else if (k === AMP) {
          const entity = namedEntity(src, i, end);
          if (entity < 0) break;
          const [name, char] = ENTITIES[entity]!;
          // `&quot;` is a quote once unescaped.
          if (char === 34) special = true;
          staging[at++] = char;
          i += name.length - 1;
          continue;
        } else if (b === 60 || src[i + 1] === 120) break; // `<`, or `_x` (an escape)
      }
      staging[at++] = b;
    }
    this.textEnd = at;
    this.textWide = wide;
    this.textSpecial = special;
    this.textUnits = at - this.used - continuation + astral;
    return i;
  }

  /** Whether the text copyText copied is well-formed UTF-8. */
  copiedIsUtf8(): boolean {
    return isUtf8(this.staging, this.used, this.textEnd);
  }

  /** Adds the text copyText copied as the next string. */
  addCopied(): void {
    this.added(this.textEnd, this.textSpecial, this.textWide);
  }

  /** Room in `staging` for `length` more bytes. */
  private room(length: number): void {
    if (this.used + length <= this.staging.length) return;
    const grown = new Uint8Array(Math.max(this.staging.length * 2, this.used + length));
    grown.set(this.staging.subarray(0, this.used));
    this.staging = grown;
  }

  /** The next string is staging[used, end). */
  private added(end: number, special: boolean, wide: boolean): void {
    const local = this.n++ & (BLOCK_STRINGS - 1);
    this.stagingStarts[local] = wide ? this.used | WIDE : this.used;
    if (special) this.stagingSpecial[local >> 3]! |= 1 << (local & 7);
    this.used = end;
    if ((this.n & (BLOCK_STRINGS - 1)) === 0) this.seal();
  }

  private seal(): void {
    const count = ((this.n - 1) & (BLOCK_STRINGS - 1)) + 1;
    const starts = this.stagingStarts.subarray(0, count);
    // Always 32-bit: a table of one array type keeps the lookups monomorphic (a mix of 16- and
    // 32-bit starts made every cell's lookup a polymorphic load), for 2 more bytes a string.
    this.starts.push(starts.slice());
    this.blocks.push(this.staging.slice(0, this.used));
    this.special.push(this.stagingSpecial);
    this.stagingSpecial = new Uint8Array(BLOCK_STRINGS >> 3);
    this.used = 0;
  }
  done(): SharedStrings {
    if ((this.n & (BLOCK_STRINGS - 1)) !== 0) this.seal();
    const { blocks, starts, special, n } = this;
    const decoder = new TextDecoder();
    const valid = (index: number) => index >= 0 && index < n && index % 1 === 0;
    // Where string `index` ends in its block.
    const endOf = (index: number, block: Uint8Array, blockStarts: Uint32Array) => {
      const next = (index + 1) & (BLOCK_STRINGS - 1);
      return next !== 0 && next < blockStarts.length ? blockStarts[next]! & AT : block.length;
    };
    return {
      count: n,
      byteLength(index) {
        if (!valid(index)) return 0;
        const b = index >>> BLOCK_SHIFT;
        const blockStarts = starts[b]!;
        const start = blockStarts[index & (BLOCK_STRINGS - 1)]! & AT;
        return endOf(index, blocks[b]!, blockStarts) - start;
      },
      get(index) {
        if (!valid(index)) return '';
        const b = index >>> BLOCK_SHIFT;
        const block = blocks[b]!;
        const blockStarts = starts[b]!;
        const start = blockStarts[index & (BLOCK_STRINGS - 1)]! & AT;
        const end = endOf(index, block, blockStarts);
        return start === end ? '' : decoder.decode(block.subarray(start, end));
      },
      copyInto(index, out, at) {
        if (!valid(index)) return at;
        const b = index >>> BLOCK_SHIFT;
        const block = blocks[b]!;
        const blockStarts = starts[b]!;
        const start = blockStarts[index & (BLOCK_STRINGS - 1)]! & AT;
        const end = endOf(index, block, blockStarts);
        if (end - start < 64) for (let i = start; i < end; i++) out[at++] = block[i]!;
        else {
          out.set(block.subarray(start, end), at);
          at += end - start;
        }
        return at;
      },
      needsQuotes(index) {
        if (!valid(index)) return false;
        const local = index & (BLOCK_STRINGS - 1);
        return (special[index >>> BLOCK_SHIFT]![local >> 3]! & (1 << (local & 7))) !== 0;
      },
      isAscii(index) {
        if (!valid(index)) return true;
        return (starts[index >>> BLOCK_SHIFT]![index & (BLOCK_STRINGS - 1)]! & WIDE) === 0;
      },
    };
  }
}

/**
 * Whether bytes[from, to) is well-formed UTF-8 (as TextDecoder reads it without U+FFFD): text
 * copied as bytes must read exactly as the decoded text would.
 */
function isUtf8(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to;) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) low = 0xa0;
      else if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) low = 0x90;
      else if (b === 0xf4) high = 0x8f;
    } else return false;
    if (i + need >= to) return false;
    const c = bytes[i + 1]!;
    if (c < low || c > high) return false;
    for (let k = 2; k <= need; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return false;
    i += need + 1;
  }
  return true;
}

export const EMPTY_SHARED_STRINGS: SharedStrings = {
  count: 0,
  get: () => '',
  byteLength: () => 0,
  copyInto: (_, __, at) => at,
  needsQuotes: () => false,
  isAscii: () => true,
};

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

// What a byte of a plain entry's text may be, looked up once per byte instead of compared with
// each kind in turn: 0 for the usual ASCII byte.
const CONTINUATION = 1;
const LEAD = 2;
const SPECIAL = 3;
const AMP = 4;
/** `<` or `_`: the text's end, or (`_x`) an escape. */
const STOP = 5;
const TEXT_BYTE = new Uint8Array(256);
TEXT_BYTE.fill(CONTINUATION, 0x80, 0xc0);
TEXT_BYTE.fill(LEAD, 0xc0);
for (const b of [44, 34, 10, 13]) TEXT_BYTE[b] = SPECIAL;
TEXT_BYTE[38] = AMP;
TEXT_BYTE[60] = TEXT_BYTE[95] = STOP;

/** Where `pattern` starts in bytes[from, to), or -1. */
function indexOfBytes(bytes: Uint8Array, pattern: Uint8Array, from: number, to: number): number {
  const first = pattern[0]!;
  const last = to - pattern.length;
  outer: for (let i = from; i <= last; i++) {
    if (bytes[i] !== first) continue;
    for (let k = 1; k < pattern.length; k++) if (bytes[i + k] !== pattern[k]) continue outer;
    return i;
  }
  return -1;
}

/** Where the last `pattern` starts in bytes[from, to), or -1. */
function lastIndexOfBytes(
  bytes: Uint8Array,
  pattern: Uint8Array,
  from: number,
  to: number,
): number {
  const first = pattern[0]!;
  outer: for (let i = to - pattern.length; i >= from; i--) {
    if (bytes[i] !== first) continue;
    for (let k = 1; k < pattern.length; k++) if (bytes[i + k] !== pattern[k]) continue outer;
    return i;
  }
  return -1;
}

/** Where `byte` is in bytes[from, to), or -1 (a loop: Uint8Array's indexOf is a slow call here). */
function indexOfByte(bytes: Uint8Array, byte: number, from: number, to: number): number {
  for (let i = from; i < to; i++) if (bytes[i] === byte) return i;
  return -1;
}

/** The five named entities, which shared strings hold often (`&amp;` in every URL with a query). */
const ENTITIES: [Uint8Array, number][] = [
  [ascii('&amp;'), 38],
  [ascii('&lt;'), 60],
  [ascii('&gt;'), 62],
  [ascii('&quot;'), 34],
  [ascii('&apos;'), 39],
];

/** The named entity at bytes[at] (a `&`) as an index into ENTITIES, or -1 for anything else. */
function namedEntity(bytes: Uint8Array, at: number, to: number): number {
  // Told apart by their second byte (`&amp;` and `&apos;` by their third), then compared whole.
  const second = bytes[at + 1];
  const k =
    second === 97
      ? bytes[at + 2] === 109
        ? 0
        : 4
      : second === 108
        ? 1
        : second === 103
          ? 2
          : second === 113
            ? 3
            : -1;
  return k >= 0 && startsWithBytes(bytes, ENTITIES[k]![0], at, to) ? k : -1;
}

function startsWithBytes(bytes: Uint8Array, pattern: Uint8Array, at: number, to: number): boolean {
  if (at + pattern.length > to) return false;
  for (let k = 0; k < pattern.length; k++) if (bytes[at + k] !== pattern[k]) return false;
  return true;
}

export async function readSharedStrings(
  zip: ZipArchive,
  path: string | null,
): Promise<SharedStrings> {
  const entry = path === null ? undefined : zip.find(path);
  if (!entry) return EMPTY_SHARED_STRINGS;
  const strings = new TableBuilder();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let scratch = new Uint8Array(1 << 12);
  let chars = 0;
  // The unread tail of the last chunk (an entry cut by the inflater) and the next chunk, joined
  // in `joined`, which is reused: a new array per chunk would wait for the collector.
  let buffer: Uint8Array = new Uint8Array(0);
  let tail = 0;
  let joined = new Uint8Array(1 << 17);
  let prefix: string | undefined;
  let open = ascii('<si');
  let close = ascii('</si>');
  let tOpen = ascii('<t');
  let tClose = ascii('</t>');

  const count = (units: number) => {
    chars += units;
    if (chars > MAX_SHARED_STRING_CHARS) {
      refuse(
        'workbook_too_large',
        `the workbook's shared strings hold more than ${formatSize(MAX_SHARED_STRING_CHARS)} of text; save the sheet as CSV instead`,
      );
    }
  };

  // Text read the slow way (rich runs, entities, _xHHHH_ escapes) goes in as UTF-8 like the rest.
  const addText = (text: string) => {
    count(text.length);
    if (scratch.length < text.length * 3) scratch = new Uint8Array(text.length * 3);
    const written = encoder.encodeInto(text, scratch).written;
    strings.add(scratch, 0, written);
  };

  /**
   * Reads the entries in buffer[0, end); where the bytes not yet read start. A function of its
   * own, not the loop's body: the async function around it was compiled again on every
   * deoptimization (7 times, ~0.35 s of compiling on the bench's workbook) with all of this in it.
   */
  const scan = (buffer: Uint8Array, end: number): number => {
    let at = 0;
    // Until the root is seen, everything waits.
    let keep = prefix === undefined ? 0 : -1;
    while (keep < 0) {
      const start = indexOfBytes(buffer, open, at, end);
      if (start < 0) break;
      const afterName = start + open.length;
      if (afterName >= end) {
        keep = start; // the chunk ends right after `<si`: wait for the next one
        break;
      }
      const next = buffer[afterName];
      if (next !== 62 && next !== 32 && next !== 47) {
        at = afterName;
        continue;
      }
      const gt = indexOfByte(buffer, 62, afterName, end);
      if (gt < 0) {
        keep = start;
        break;
      }
      if (buffer[gt - 1] === 47) {
        strings.add(buffer, 0, 0);
        at = gt + 1;
        continue;
      }
      // Most entries are one plain `<t>text</t>` (or `<t xml:space="preserve">`), read in one pass
      // and copied as bytes when the text holds no entity or _xHHHH_ escape; any other entry is
      // found whole and decoded.
      let entryEnd = -1;
      if (startsWithBytes(buffer, tOpen, gt + 1, end)) {
        const afterT = gt + 1 + tOpen.length;
        const c = buffer[afterT];
        const tGt = c === 62 ? afterT : c === 32 ? indexOfByte(buffer, 62, afterT, end) : -1;
        if (tGt > 0 && buffer[tGt - 1] !== 47) {
          const textEnd = strings.copyText(buffer, tGt + 1, end);
          if (
            textEnd < end &&
            buffer[textEnd] === 60 &&
            startsWithBytes(buffer, tClose, textEnd, end) &&
            startsWithBytes(buffer, close, textEnd + tClose.length, end) &&
            // Malformed UTF-8 takes the decoding path, which reads it as U+FFFD.
            (!strings.textWide || strings.copiedIsUtf8())
          ) {
            count(strings.textUnits);
            strings.addCopied();
            entryEnd = textEnd + tClose.length + close.length;
          }
        }
      }
      if (entryEnd < 0) {
        const siEnd = indexOfBytes(buffer, close, gt, end);
        if (siEnd < 0) {
          keep = start;
          break;
        }
        addText(richText(decoder.decode(buffer.subarray(gt + 1, siEnd)), prefix ?? ''));
        entryEnd = siEnd + close.length;
      }
      at = entryEnd;
    }
    // Unfinished entry: kept whole. Otherwise only a tail that may hold the start of `<si`.
    return keep >= 0 ? keep : Math.max(at, end - open.length);
  };

  for await (const chunk of zip.open(entry, 'the shared strings of the workbook')) {
    // A Buffer (from node:zlib) seen as a plain Uint8Array, as `joined` is: one kind of array
    // keeps the scan's loads monomorphic.
    if (tail === 0) buffer = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    else {
      if (tail + chunk.length > joined.length) {
        const grown = new Uint8Array(Math.max(joined.length * 2, tail + chunk.length));
        grown.set(joined.subarray(0, tail));
        joined = grown;
      }
      joined.set(chunk, tail);
      buffer = joined.subarray(0, tail + chunk.length);
    }
    const end = buffer.length;
    if (prefix === undefined) {
      // The root's prefix is in the first bytes; tag names are ASCII, so a cut character after
      // them does not matter.
      const head = decoder.decode(buffer.subarray(0, Math.min(end, 1 << 16)));
      if (head.indexOf('<') >= 0 && /<[^?!]/.test(head)) {
        prefix = rootPrefix(head, 'sst');
        open = ascii(`<${prefix}si`);
        close = ascii(`</${prefix}si>`);
        tOpen = ascii(`<${prefix}t`);
        tClose = ascii(`</${prefix}t>`);
      }
    }
    // Only the entries up to the last `</si>` are read now: the scan then never meets an entry
    // cut by the inflater nor reads past the bytes it was given. Those paths, first reached after
    // the scan was optimized, threw its code away: it was compiled 7 times (~45 ms each, on the
    // core the scan runs on) on the bench's workbook, not 2. The old tail holds no `</si>`.
    const complete =
      prefix === undefined
        ? -1
        : lastIndexOfBytes(buffer, close, Math.max(0, tail - close.length + 1), end);
    const from = complete < 0 ? 0 : scan(buffer, complete + close.length);
    tail = end - from;
    if (tail > 0) {
      if (tail > joined.length) joined = new Uint8Array(tail * 2);
      // copyWithin when the tail is already in `joined`: it moves to the front.
      if (buffer.buffer === joined.buffer) joined.copyWithin(0, from, end);
      else joined.set(buffer.subarray(from, end));
    }
  }
  // What follows the last `</si>`: self-closed entries, or an entry the file cuts short.
  if (tail > 0 && prefix !== undefined) scan(joined.subarray(0, tail), tail);
  return strings.done();
}
