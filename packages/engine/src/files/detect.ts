import type { FileType } from '../model.ts';

// Which reader a file goes to, decided in one place for the CLI, the server and the browser.
// The schema's own type wins; then the name's extension; a name without an extension falls back
// to the first bytes (a JSON text opens with `[` or `{`). A name with any other extension
// (.xlsx, .exe, .txt) is refused: only CSV and JSON files are validated.

export interface DetectedFileType {
  fileType: FileType;
  /** Set for .ndjson / .jsonl names: one JSON value per line. */
  jsonShape?: 'ndjson';
}

export type FileNameKind = 'csv' | 'json' | 'ndjson' | 'none' | 'other';

/** What the file's name says it is: .csv, .json, .ndjson/.jsonl, no extension, or other. */
export function fileNameKind(name: string): FileNameKind {
  const base = name.split(/[/\\]/).pop() ?? '';
  const m = /\.([^.]*)$/.exec(base);
  if (!m) return 'none';
  const ext = m[1]!.toLowerCase();
  if (ext === 'csv') return 'csv';
  if (ext === 'json') return 'json';
  if (ext === 'ndjson' || ext === 'jsonl') return 'ndjson';
  return 'other';
}

/** A BOM, then whitespace, then `[` or `{`: JSON; anything else: CSV. */
export function sniffFileType(firstBytes: Uint8Array): FileType {
  let i = firstBytes[0] === 0xef && firstBytes[1] === 0xbb && firstBytes[2] === 0xbf ? 3 : 0;
  while (i < firstBytes.length) {
    const c = firstBytes[i]!;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return firstBytes[i] === 0x5b || firstBytes[i] === 0x7b ? 'json' : 'csv';
}

/**
 * The file type to validate as, or null when the file must be refused (an extension other than
 * .csv, .json, .ndjson or .jsonl; or no extension, no schema type and no bytes to look at).
 * `schemaType` is the type the schema names, when it names one.
 */
export function detectFileType(
  name: string,
  firstBytes?: Uint8Array,
  schemaType?: FileType,
): DetectedFileType | null {
  const kind = fileNameKind(name);
  if (kind === 'other') return null;
  if (kind === 'none') {
    if (schemaType) return { fileType: schemaType };
    return firstBytes && firstBytes.length > 0 ? { fileType: sniffFileType(firstBytes) } : null;
  }
  const fileType = schemaType ?? (kind === 'csv' ? 'csv' : 'json');
  return fileType === 'json' && kind === 'ndjson'
    ? { fileType, jsonShape: 'ndjson' }
    : { fileType };
}
