// The uploaded file's name: shown to the user and used in the report's download name, never as
// a storage path (PARSE-11). Its extension decides the file type when the schema does not.

export const MAX_FILE_NAME_CHARS = 200;

/** Last path segment, without control or bidi-override characters, trimmed and capped. */
export function displayFileName(raw: string | undefined): string {
  let name = (raw ?? '').split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  name = name.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '');
  name = name.trim();
  const chars = [...name];
  if (chars.length > MAX_FILE_NAME_CHARS) name = chars.slice(0, MAX_FILE_NAME_CHARS).join('');
  return name === '' || name === '.' || name === '..' ? 'upload' : name;
}

export type NameKind = 'csv' | 'json' | 'ndjson' | 'none' | 'other';

/** What the file's name says it is: .csv, .json, .ndjson, no extension, or something else. */
export function kindOfName(name: string): NameKind {
  const m = /\.([^.]*)$/.exec(name);
  if (!m) return 'none';
  const ext = m[1]!.toLowerCase();
  if (ext === 'csv') return 'csv';
  if (ext === 'json') return 'json';
  if (ext === 'ndjson' || ext === 'jsonl') return 'ndjson';
  return 'other';
}

/**
 * The file type to validate as: the schema's, else the name's. A name that is neither CSV nor
 * JSON (.xlsx, .exe) is refused even when the schema names a type; a name without an extension
 * is accepted when the schema names one. null: refuse with unsupported_file.
 */
export function decideFileType(
  schemaType: 'csv' | 'json' | undefined,
  name: string,
): { fileType: 'csv' | 'json'; jsonShape?: 'ndjson' } | null {
  const kind = kindOfName(name);
  if (kind === 'other') return null;
  if (kind === 'none') return schemaType ? { fileType: schemaType } : null;
  const byName = kind === 'csv' ? 'csv' : 'json';
  const fileType = schemaType ?? byName;
  return fileType === 'json' && kind === 'ndjson'
    ? { fileType, jsonShape: 'ndjson' }
    : { fileType };
}

/** `error-report-<name without .csv/.json/.ndjson>.csv` */
export function reportFileName(fileName: string): string {
  return `error-report-${fileName.replace(/\.(csv|json|ndjson|jsonl)$/i, '') || 'upload'}.csv`;
}

/**
 * Content-Disposition for a download (RFC 6266): an ASCII `filename` with quotes, backslashes,
 * controls and non-ASCII replaced, and the exact name as UTF-8 in `filename*`.
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
