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
  const validOut = batched(valid);
  const invalidOut = batched(invalid);
  const splitter = createRowSplitter({ valid: validOut.add, invalid: invalidOut.add }, options);
  return {
    splitter,
    async drain() {
      validOut.flush();
      invalidOut.flush();
      for (const stream of [valid, invalid])
        if (stream?.writableNeedDrain) await once(stream, 'drain');
    },
    async close() {
      validOut.flush();
      invalidOut.flush();
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

/** Characters of rows gathered before one write: a write per row cost more than splitting it. */
const PIECE = 64 * 1024;

/** Rows for `stream`, written in pieces of about PIECE characters (flush writes the rest). */
function batched(stream: WriteStream | undefined): { add(text: string): void; flush(): void } {
  let parts: string[] = [];
  let chars = 0;
  const flush = () => {
    if (parts.length === 0) return;
    stream?.write(parts.join(''));
    parts = [];
    chars = 0;
  };
  return {
    add(text) {
      if (stream === undefined) return;
      parts.push(text);
      chars += text.length;
      if (chars >= PIECE) flush();
    },
    flush,
  };
}
