// sharedStrings.xml, read once as a stream into a table (a cell with t="s" holds an index into
// it). The table grows with distinct strings, not rows, but a crafted workbook could still make it
// huge, so its total length is capped. A workbook of unique names and e-mails has a string per
// cell: held as a million small strings it would cost a header and a pointer each and keep the
// garbage collector busy, so the strings are joined into blocks of about 1 Mi characters and
// each is found by its block, offset and length (8 bytes per string).

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

const BLOCK_CHARS = 1 << 20;
const WIDE = /[\u0100-\uffff]/;

/**
 * Appends strings into blocks; `done()` gives the table. Strings with a character beyond Latin-1
 * go to blocks of their own: V8 stores a string with one such character at two bytes per
 * character, and one emoji in a block of a million characters would double the block.
 */
class TableBuilder {
  private readonly blocks: string[] = [];
  /** Per string: its block, where it starts in it, and its length (65,535 or more: in `long`). */
  private block = new Uint8Array(1024);
  private blockHigh = new Uint8Array(1024);
  private start = new Uint32Array(1024);
  private length = new Uint16Array(1024);
  private readonly long = new Map<number, number>();
  private readonly pending = [
    { parts: [] as string[], chars: 0, block: -1 },
    { parts: [] as string[], chars: 0, block: -1 },
  ];
  count = 0;

  add(text: string): void {
    if (this.count === this.start.length) this.grow();
    const kind = WIDE.test(text) ? 1 : 0;
    const p = this.pending[kind]!;
    if (p.chars > 0 && p.chars + text.length > BLOCK_CHARS) this.flush(kind);
    if (p.block < 0) {
      p.block = this.blocks.length;
      this.blocks.push(''); // its place, filled when the block is complete
    }
    const i = this.count++;
    this.block[i] = p.block & 0xff;
    this.blockHigh[i] = p.block >> 8;
    this.start[i] = p.chars;
    if (text.length < 0xffff) this.length[i] = text.length;
    else {
      this.length[i] = 0xffff;
      this.long.set(i, text.length);
    }
    p.parts.push(text);
    p.chars += text.length;
  }

  private grow(): void {
    const n = this.start.length * 2;
    const block = new Uint8Array(n);
    block.set(this.block);
    this.block = block;
    const high = new Uint8Array(n);
    high.set(this.blockHigh);
    this.blockHigh = high;
    const start = new Uint32Array(n);
    start.set(this.start);
    this.start = start;
    const length = new Uint16Array(n);
    length.set(this.length);
    this.length = length;
  }

  private flush(kind: number): void {
    const p = this.pending[kind]!;
    if (p.block < 0) return;
    this.blocks[p.block] = p.parts.join('');
    p.parts = [];
    p.chars = 0;
    p.block = -1;
  }

  done(): SharedStrings {
    this.flush(0);
    this.flush(1);
    const { blocks, block, blockHigh, start, length, long, count } = this;
    return {
      count,
      get(index) {
        if (!(index >= 0 && index < count)) return '';
        const b = blocks[block[index]! | (blockHigh[index]! << 8)]!;
        const from = start[index]!;
        const n = length[index] === 0xffff ? long.get(index)! : length[index]!;
        return b.slice(from, from + n);
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
