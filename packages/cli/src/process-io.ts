// What every command shares and `--help` needs, without the engine: the streams and the error a
// user can fix. Kept apart from io.ts so that main.ts loads nothing heavy.
import type { Readable, Writable } from 'node:stream';

/** A mistake the user can fix: printed on stderr, exit status 2, no stack trace. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly showUsage = false,
  ) {
    super(message);
  }
}

export interface Io {
  stdin: Readable;
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean; columns?: number };
  env: Record<string, string | undefined>;
}

export function processIo(): Io {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
}
