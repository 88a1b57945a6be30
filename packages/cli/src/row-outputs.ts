// --valid-out and --invalid-out: the rows without errors as they were, and the rows with errors
// plus an `errors` column (JSON: the records, in the input's form), written while validating.

import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { createRowSplitter, type OpenedInput, type RowSplitter } from '@schemacheck/engine';
import { UsageError } from './io.ts';

export interface RowOutputs {
  splitter: RowSplitter;
  /** Waits while a slow disk catches up, so rows never pile up in memory. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

export async function openRowOutputs(
  opened: OpenedInput,
  validPath: string | undefined,
  invalidPath: string | undefined,
): Promise<RowOutputs | undefined> {
  if (validPath === undefined && invalidPath === undefined) return undefined;
  const open = async (path: string | undefined): Promise<WriteStream | undefined> => {
    if (path === undefined) return undefined;
    const stream = createWriteStream(path);
    try {
      await once(stream, 'open');
    } catch (error) {
      throw new UsageError(`cannot write ${path}: ${(error as Error).message}`);
    }
    return stream;
  };
  const valid = await open(validPath);
  const invalid = await open(invalidPath);
  const options: Parameters<typeof createRowSplitter>[1] = { fileType: opened.fileType };
  if (opened.delimiter) options.delimiter = opened.delimiter;
  if (opened.jsonShape) options.jsonShape = opened.jsonShape;
  // The splitter hands its rows over in pieces of about 64 KiB: a write per row cost more.
  const splitter = createRowSplitter(
    { valid: (bytes) => valid?.write(bytes), invalid: (bytes) => invalid?.write(bytes) },
    options,
  );
  return {
    splitter,
    async drain() {
      splitter.flush();
      for (const stream of [valid, invalid])
        if (stream?.writableNeedDrain) await once(stream, 'drain');
    },
    async close() {
      splitter.flush();
      await Promise.all(
        [valid, invalid].map((s) =>
          s
            ? new Promise<void>((resolve, reject) =>
                s.end((e?: Error | null) => (e ? reject(e) : resolve())),
              )
            : undefined,
        ),
      );
    },
  };
}
