// sharedStrings.xml, read once as a stream into a table (a cell with t="s" holds an index into
// it). The table grows with distinct strings, not rows, but a crafted workbook could still make it
// huge, so its total length is capped. (Joining the strings into large blocks was tried: fewer
// objects, but a higher peak while loading, measured on the bench's 877,681-string table.)

import { formatSize } from '../archive/limits.ts';
import { detachedText } from '../validate/issue-value.ts';
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

/** Appends strings; `done()` gives the table. */
class TableBuilder {
  private readonly strings: string[] = [];
  get count(): number {
    return this.strings.length;
  }
  add(text: string): void {
    // A copy: a slice of the buffer would keep the whole buffer alive.
    this.strings.push(detachedText(text));
  }
  done(): SharedStrings {
    const strings = this.strings;
    return { count: strings.length, get: (index) => strings[index] ?? '' };
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
