// styles.xml, read once: for each cell style (an `<xf>` in `<cellXfs>`, which a cell's `s`
// attribute indexes) whether its number format shows a date, a date-time, a time or a number.

import { builtInDateKind, customDateKind, type DateKind } from './dates.ts';
import { attribute, rootPrefix, startTags } from './xml.ts';

export function readStyles(xml: string | null): Uint8Array {
  if (xml === null) return new Uint8Array(0);
  const p = rootPrefix(xml, 'styleSheet');
  const custom = new Map<number, DateKind>();
  for (const tag of startTags(xml, `${p}numFmt`)) {
    const id = Number(attribute(tag, 'numFmtId'));
    custom.set(id, customDateKind(attribute(tag, 'formatCode') ?? ''));
  }
  const start = xml.indexOf(`<${p}cellXfs`);
  if (start < 0) return new Uint8Array(0);
  const end = xml.indexOf(`</${p}cellXfs>`, start);
  const section = xml.slice(start, end < 0 ? xml.length : end);
  const kinds: DateKind[] = [];
  for (const tag of startTags(section, `${p}xf`)) {
    const id = Number(attribute(tag, 'numFmtId') ?? '0');
    kinds.push(custom.get(id) ?? builtInDateKind(id));
  }
  return Uint8Array.from(kinds);
}
