import { readFile } from 'node:fs/promises';
import { parseSchemaText, type SchemaFormat, type SchemaModel } from '@schemacheck/engine';
import { type Io, UsageError } from './process-io.ts';
import type { FileType } from '@schemacheck/engine';

export { UsageError, type Io } from './process-io.ts';

const SCHEMA_FORMATS = ['web', 'api', 'jsonschema', 'tableschema'] as const;

export function parseSchemaFormat(value: string | undefined): SchemaFormat | undefined {
  if (value === undefined) return undefined;
  if ((SCHEMA_FORMATS as readonly string[]).includes(value)) return value as SchemaFormat;
  throw new UsageError(`--schema-format must be one of: ${SCHEMA_FORMATS.join(', ')}`);
}

export function parseFileType(value: string | undefined): FileType | undefined {
  if (value === undefined) return undefined;
  if (value === 'csv' || value === 'json') return value;
  throw new UsageError('--file-type must be csv or json');
}

export function parsePositiveInteger(name: string, value: string | undefined, fallback: number) {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new UsageError(`${name} must be a whole number of at least 1`);
  }
  return Number(value);
}

/**
 * Reads and checks a schema file; every problem of a bad schema is listed, then exit 2. Warnings
 * (a keyword the engine does not check, say) go to stderr, so no rule is dropped without a word;
 * the validator also carries them into the result's `warnings`.
 */
export async function loadSchema(
  path: string,
  format: SchemaFormat | undefined,
  io?: Io,
): Promise<SchemaModel> {
  const text = await readText(path);
  const checked = parseSchemaText(text, format);
  if (checked.ok && io) {
    for (const warning of checked.warnings)
      io.stderr.write(`schemacheck: warning: ${path}: ${warning}\n`);
  }
  if (!checked.ok) {
    const lines = checked.problems.map((p) => `  ${p.path ? `${p.path}: ` : ''}${p.message}`);
    throw new UsageError(
      `the schema ${path} has ${plural(lines.length, 'problem')}:\n${lines.join('\n')}`,
    );
  }
  return checked.value;
}

export async function readBytes(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${describeFsError(error)}`);
  }
}

export async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${describeFsError(error)}`);
  }
}

function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder';
  return (error as Error).message;
}

export function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-GB')} ${word}${n === 1 ? '' : 's'}`;
}
