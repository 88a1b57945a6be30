// sharedStrings.xml, read once as a stream into a table (a cell with t="s" holds an index into
// it). The table grows with distinct strings, not rows, but a crafted workbook could still make it
// huge, so its total length is capped. The strings are held in blocks of 256 (TableBuilder).

import { formatSize } from '../archive/limits.ts';
import { refuse } from '../archive/refusal.ts';
import type { ZipArchive } from '../archive/zip.ts';
import { partText } from './parts.ts';
import { decodeXmlText, richText, rootPrefix } from './xml.ts';

/** Characters the shared-string table may hold in all. */
export const MAX_SHARED_STRING_CHARS = 96 << 20;

export interface SharedStrings {
  readonly count: number;
  /** The string at `index`, '' when there is none (a damaged reference). */
  get(index: number): string;
}

/** Strings per block: a string's block is its index in its list >>> BLOCK_SHIFT. */
const BLOCK_SHIFT = 8;
const BLOCK_STRINGS = 1 << BLOCK_SHIFT;
const WIDE = 0x80000000;
const NOT_LATIN1 = /[\u0100-\uffff]/;

/** Strings joined into one flat string per BLOCK_STRINGS of them, with their start offsets. */
class BlockList {
  readonly blocks: string[] = [];
  starts = new Uint32Array(1 << 14);
  n = 0;
  private parts: string[] = [];
  private at = 0;
  add(text: string): number {
    if (this.n === this.starts.length) {
      const grown = new Uint32Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    this.starts[this.n] = this.at;
    this.parts.push(text);
    this.at += text.length;
    if (this.parts.length === BLOCK_STRINGS) this.seal();
    return this.n++;
  }
  seal(): void {
    if (this.parts.length === 0) return;
    // join() writes one flat string: nothing of the parts (slices of the XML text) is kept.
    this.blocks.push(this.parts.join(''));
    this.parts = [];
    this.at = 0;
  }
  get(local: number): string {
    const block = this.blocks[local >>> BLOCK_SHIFT]!;
    const last = (local & (BLOCK_STRINGS - 1)) === BLOCK_STRINGS - 1 || local === this.n - 1;
    return block.slice(this.starts[local], last ? block.length : this.starts[local + 1]);
  }
}

/**
 * Appends strings; `done()` gives the table (decision 209). A million separate strings cost
 * about 107 bytes each on the bench's 877,681-string table (each a copy under a slice); here
 * they are joined into blocks of 256, Latin-1 text and wider text apart (V8 stores a string with
 * one character past U+00FF at two bytes per character, so one emoji would double a block), with
 * 8 bytes of index per string. Blocks are small so that a block's parts (slices of the XML text)
 * are joined before the next scavenge and die young: with large blocks they were promoted with
 * the text they slice, and the old generation grew while loading. `get` slices its block (a
 * short-lived string).
 */
class TableBuilder {
  private readonly narrow = new BlockList();
  private readonly wide = new BlockList();
  private where = new Uint32Array(1 << 16);
  private n = 0;
  get count(): number {
    return this.n;
  }
  add(text: string): void {
    if (this.n === this.where.length) {
      const grown = new Uint32Array(this.where.length * 2);
      grown.set(this.where);
      this.where = grown;
    }
    this.where[this.n++] = NOT_LATIN1.test(text)
      ? (this.wide.add(text) | WIDE) >>> 0
      : this.narrow.add(text);
  }
  done(): SharedStrings {
    const { narrow, wide, n } = this;
    narrow.seal();
    wide.seal();
    narrow.starts = narrow.starts.slice(0, narrow.n);
    wide.starts = wide.starts.slice(0, wide.n);
    const where = this.where.slice(0, n);
    return {
      count: n,
      get(index) {
        if (!(index >= 0 && index < n) || index % 1 !== 0) return '';
        const w = where[index]!;
        return w >= WIDE ? wide.get(w - WIDE) : narrow.get(w);
      },
    };
  }
}

export const EMPTY_SHARED_STRINGS: SharedStrings = { count: 0, get: () => '' };

export async function readSharedStrings(
  zip: ZipArchive,
  path: string | null,
): Promise<SharedStrings> {
  const entry = path === null ? undefined : zip.find(path);
  if (!entry) return EMPTY_SHARED_STRINGS;
  const strings = new TableBuilder();
  let chars = 0;
  let buffer = '';
  let prefix: string | undefined;
  let open = '';
  let close = '';
  let tOpen = '';
  let tClose = '';
  for await (const piece of partText(zip, entry, 'the shared strings of the workbook')) {
    buffer += piece;
    if (prefix === undefined) {
      if (buffer.indexOf('<') < 0 || !/<[^?!]/.test(buffer)) continue;
      prefix = rootPrefix(buffer, 'sst');
      open = `<${prefix}si`;
      close = `</${prefix}si>`;
      tOpen = `<${prefix}t>`;
      tClose = `</${prefix}t>`;
    }
    let at = 0;
    for (;;) {
      const start = buffer.indexOf(open, at);
      if (start < 0) break;
      const next = buffer.charCodeAt(start + open.length);
      if (next !== next) break; // the piece ends right after `<si`: wait for the next one
      if (next !== 62 && next !== 32 && next !== 47) {
        at = start + open.length;
        continue;
      }
      const gt = buffer.indexOf('>', start);
      if (gt < 0) break;
      if (buffer.charCodeAt(gt - 1) === 47) {
        strings.add('');
        at = gt + 1;
        continue;
      }
      const end = buffer.indexOf(close, gt);
      if (end < 0) break;
      // Most entries are one plain `<t>text</t>`: read it in place, without the rich-text walk.
      const plain =
        buffer.startsWith(tOpen, gt + 1) && buffer.lastIndexOf(tClose, end) === end - tClose.length;
      const inner = plain ? buffer.slice(gt + 1 + tOpen.length, end - tClose.length) : '';
      // Joined into a block below, so no slice of the buffer is kept alive.
      const text =
        plain && inner.indexOf('<') < 0
          ? decodeXmlText(inner)
          : richText(buffer.slice(gt + 1, end), prefix);
      chars += text.length;
      if (chars > MAX_SHARED_STRING_CHARS) {
        refuse(
          'workbook_too_large',
          `the workbook's shared strings hold more than ${formatSize(MAX_SHARED_STRING_CHARS)} of text; save the sheet as CSV instead`,
        );
      }
      strings.add(text);
      at = end + close.length;
    }
    buffer = buffer.slice(at);
  }
  return strings.done();
}
