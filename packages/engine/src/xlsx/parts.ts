// Reading a workbook's small XML parts (workbook, relationships, styles) whole, and its large ones
// (shared strings, sheets) as decoded text chunks. Each part is capped, so a crafted workbook
// cannot make the reader hold more than the cap.

import { formatSize } from '../archive/limits.ts';
import { refuse } from '../archive/refusal.ts';
import type { ZipArchive, ZipEntry } from '../archive/zip.ts';

/** Cap on a part read whole (workbook.xml, styles.xml, relationships). */
export const MAX_SMALL_PART_BYTES = 64 << 20;

export async function* partText(
  zip: ZipArchive,
  entry: ZipEntry,
  what: string,
): AsyncIterable<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of zip.open(entry, what)) {
    const text = decoder.decode(chunk, { stream: true });
    if (text.length > 0) yield text;
  }
  const rest = decoder.decode();
  if (rest.length > 0) yield rest;
}

export async function readPart(
  zip: ZipArchive,
  path: string,
  what: string,
): Promise<string | null> {
  const entry = zip.find(path);
  if (!entry) return null;
  if (entry.size > MAX_SMALL_PART_BYTES) {
    refuse(
      'workbook_too_large',
      `${what} is ${formatSize(entry.size)}; at most ${formatSize(MAX_SMALL_PART_BYTES)} is read`,
    );
  }
  let text = '';
  for await (const piece of partText(zip, entry, what)) text += piece;
  return text;
}

/** Resolves a relationship target against the folder of the part that names it. */
export function resolveTarget(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/').slice(0, -1);
  for (const piece of target.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.' && piece !== '') parts.push(piece);
  }
  return parts.join('/');
}

/** The relationships part of `path` (`xl/workbook.xml` → `xl/_rels/workbook.xml.rels`). */
export function relsPath(path: string): string {
  const slash = path.lastIndexOf('/');
  return `${path.slice(0, slash + 1)}_rels/${path.slice(slash + 1)}.rels`;
}
