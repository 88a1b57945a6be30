// sharedStrings.xml, read once as a stream into an array (a cell with t="s" holds an index into
// it). The table grows with distinct strings, not rows, but a crafted workbook could still make it
// huge, so its total length is capped.

import { formatSize } from '../archive/limits.ts';
import { refuse } from '../archive/refusal.ts';
import type { ZipArchive } from '../archive/zip.ts';
import { detachedText } from '../validate/issue-value.ts';
import { partText } from './parts.ts';
import { richText, rootPrefix } from './xml.ts';

/** Characters the shared-string table may hold in all. */
export const MAX_SHARED_STRING_CHARS = 96 << 20;

export async function readSharedStrings(zip: ZipArchive, path: string | null): Promise<string[]> {
  const entry = path === null ? undefined : zip.find(path);
  if (!entry) return [];
  const strings: string[] = [];
  let chars = 0;
  let buffer = '';
  let prefix: string | undefined;
  let open = '';
  let close = '';
  for await (const piece of partText(zip, entry, 'the shared strings of the workbook')) {
    buffer += piece;
    if (prefix === undefined) {
      if (buffer.indexOf('<') < 0 || !/<[^?!]/.test(buffer)) continue;
      prefix = rootPrefix(buffer, 'sst');
      open = `<${prefix}si`;
      close = `</${prefix}si>`;
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
        strings.push('');
        at = gt + 1;
        continue;
      }
      const end = buffer.indexOf(close, gt);
      if (end < 0) break;
      const text = detachedText(richText(buffer.slice(gt + 1, end), prefix));
      chars += text.length;
      if (chars > MAX_SHARED_STRING_CHARS) {
        refuse(
          'workbook_too_large',
          `the workbook's shared strings hold more than ${formatSize(MAX_SHARED_STRING_CHARS)} of text; save the sheet as CSV instead`,
        );
      }
      strings.push(text);
      at = end + close.length;
    }
    buffer = buffer.slice(at);
  }
  return strings;
}
