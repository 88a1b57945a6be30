// A path on the command line to the inputs to validate: a plain file, a workbook's sheet, a
// gzip's content or each data file of a zip, opened by the engine's planner with Node's file
// access and inflaters. Refusals (bombs, nesting, .xls, encryption) become exit status 2.

import {
  InputRefusedError,
  openStream,
  type InputChoice,
  type OpenedInput,
  planInputs,
  sniffContainer,
} from '@schemacheck/engine';
import { stat } from 'node:fs/promises';
import { type Io, UsageError } from './io.ts';
import { fileSource, nodePlatform, spool } from '@schemacheck/node-platform';

export interface CliInput {
  name: string;
  /** Bytes of the file, when the bytes read are the file's own (progress). */
  size: number | undefined;
  open(): Promise<OpenedInput>;
}

export interface OpenedPath {
  inputs: CliInput[];
  close(): Promise<void>;
}

/** The engine's refusal as a usage error (exit 2), its message as it is. */
export async function refusalsAsUsage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof InputRefusedError) throw new UsageError(error.message);
    throw error;
  }
}

export async function openPath(path: string, choice: InputChoice, io: Io): Promise<OpenedPath> {
  if (path === '-') return openStdin(choice, io);
  try {
    if ((await stat(path)).isDirectory())
      throw new UsageError(`cannot read ${path}: it is a folder`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${path}: ${describe(error)}`);
  }
  const source = await fileSource(path).catch((error: unknown) => {
    throw new UsageError(`cannot read ${path}: ${describe(error)}`);
  });
  return fromSource(path, source, choice);
}

async function fromSource(
  name: string,
  source: Awaited<ReturnType<typeof fileSource>>,
  choice: InputChoice,
  cleanup: () => Promise<void> = async () => {},
): Promise<OpenedPath> {
  const close = async () => {
    await source.close();
    await cleanup();
  };
  try {
    const planned = await refusalsAsUsage(() => planInputs(name, source, nodePlatform, choice));
    return {
      inputs: planned.map((p) => ({
        name: p.name,
        size: planned.length === 1 ? source.size : undefined,
        open: () => refusalsAsUsage(() => p.open()),
      })),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function openStdin(choice: InputChoice, io: Io): Promise<OpenedPath> {
  const it = (io.stdin as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  const first = await it.next();
  async function* all(): AsyncIterable<Uint8Array> {
    if (!first.done) yield first.value;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield next.value;
    }
  }
  const head = first.done ? new Uint8Array(0) : first.value;
  const container = sniffContainer(head);
  if (container === 'zip' || container === 'ole') {
    const spooled = await spool(all());
    return fromSource('stdin', await fileSource(spooled.path), choice, spooled.remove);
  }
  return {
    inputs: [
      {
        name: 'stdin',
        size: undefined,
        open: () => refusalsAsUsage(() => openStream('stdin', all(), nodePlatform, choice)),
      },
    ],
    close: async () => {},
  };
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return (error as Error).message;
}
