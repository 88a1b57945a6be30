// Building the multipart body of POST /validate and POST /jobs. Kept apart from the client so that
// the field order the server relies on (the schema before the file, so that a job can refuse a
// bad schema before it stores the upload) is stated once.

/** A file to send: its bytes or text, and the name whose extension tells CSV from JSON. */
export interface UploadFile {
  /** The content. In Node, `await fs.openAsBlob(path)` streams a file from disk. */
  data: Blob | Uint8Array | ArrayBuffer | string;
  /** The file name (`orders.csv`, `feed.ndjson`): the server decides the type by its extension. */
  name: string;
}

/** What to validate against: a saved schema's id, or a schema given inline (object or JSON text). */
export type SchemaSource =
  { schemaId: string; schema?: never } | { schema: object | string; schemaId?: never };

export function uploadForm(file: UploadFile, source: SchemaSource): FormData {
  const form = new FormData();
  if ('schema' in source && source.schema !== undefined) {
    const text = typeof source.schema === 'string' ? source.schema : JSON.stringify(source.schema);
    form.append('schema', text);
  }
  form.append('file', toBlob(file.data), file.name);
  return form;
}

function toBlob(data: UploadFile['data']): Blob {
  if (data instanceof Blob) return data;
  if (typeof data === 'string') return new Blob([data], { type: 'application/octet-stream' });
  // A copy into a fresh ArrayBuffer: a Uint8Array may view a SharedArrayBuffer, which Blob refuses.
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  return new Blob([bytes.slice()], { type: 'application/octet-stream' });
}
