import { open } from 'node:fs/promises';
import { detectFileType, inferProposalFromBytes } from '@schemacheck/engine';
import { formatInferReport } from '../infer-report.ts';
import type { CliOptions } from '../main.ts';
import { type Io, UsageError, parseFileType, parsePositiveInteger } from '../io.ts';

/** Enough bytes for a thousand rows of any sensible file, without reading a huge file whole. */
const SAMPLE_BYTES = 16 * 1024 * 1024;

export async function inferCommand(positionals: string[], options: CliOptions, io: Io) {
  const [path, ...extra] = positionals;
  if (path === undefined) throw new UsageError('infer needs a file', true);
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`, true);
  const rows = parsePositiveInteger('--rows', options.rows, 1000);
  const bytes = await readPrefix(path);
  // The engine's rule by name and first bytes; a local table of another name (.tsv, .txt) is CSV.
  const fileType =
    parseFileType(options['file-type']) ?? detectFileType(path, bytes)?.fileType ?? 'csv';
  const proposal = inferProposalFromBytes(bytes, fileType, rows);
  io.stdout.write(`${JSON.stringify(proposal.schema, null, 2)}\n`);
  // On stderr, so that `infer data.csv > schema.json` still writes the schema alone.
  io.stderr.write(formatInferReport(proposal, path, sampledRows(proposal)));
  return 0;
}

async function readPrefix(path: string): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(path, 'r');
    const buffer = new Uint8Array(SAMPLE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a folder'
          : (error as Error).message;
    throw new UsageError(`cannot read ${path}: ${reason}`);
  } finally {
    await handle?.close();
  }
}

/** Rows the sample held: the most values any field had (empty cells aside), at least that. */
function sampledRows(proposal: { fit: { values: number }[] }): number {
  return Math.max(0, ...proposal.fit.map((f) => f.values));
}
