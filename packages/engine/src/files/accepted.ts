// The file endings the engine opens (decisions 163, 164, 194): the one list the CLI, the server's
// refusal and the web's drop zones tell users. Plain data, then workbooks, then containers.

export const ACCEPTED_EXTENSIONS = [
  '.csv',
  '.json',
  '.ndjson',
  '.jsonl',
  '.xlsx',
  '.gz',
  '.zip',
] as const;

export type AcceptedExtension = (typeof ACCEPTED_EXTENSIONS)[number];

/** ".csv, .json, .ndjson, .jsonl, .xlsx, .gz or .zip" */
export const ACCEPTED_EXTENSIONS_TEXT = `${ACCEPTED_EXTENSIONS.slice(0, -1).join(', ')} or ${ACCEPTED_EXTENSIONS[ACCEPTED_EXTENSIONS.length - 1]}`;
