// Standard output whose reader may go away: `schemacheck validate … | head -1` closes the pipe
// after one line. Like grep or jq, the CLI then stops writing and ends quietly with the exit
// status the run would have had; no EPIPE stack trace. A stream's write fails asynchronously
// (an 'error' event), so the closed state is recorded here and read by the commands.
import type { Writable } from 'node:stream';

interface Watched {
  closed: boolean;
  /** Set when output failed for another reason than a closed reader (a full disk, say). */
  failure: Error | undefined;
}

const watched = new WeakMap<Writable, Watched>();

/** Starts watching `stream`: from now on its write errors are recorded, never thrown. */
export function watchOutput(stream: Writable): void {
  if (watched.has(stream)) return;
  const state: Watched = { closed: false, failure: undefined };
  watched.set(stream, state);
  stream.on('error', (error: NodeJS.ErrnoException) => {
    state.closed = true;
    // EPIPE: the reader closed the pipe. ERR_STREAM_DESTROYED: a write after that.
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') state.failure ??= error;
  });
}

/** True once nothing written to `stream` can reach a reader. */
export function outputClosed(stream: Writable): boolean {
  return watched.get(stream)?.closed === true || stream.destroyed;
}

/** The write error that was not a closed reader, if any (the run then exits 2). */
export function outputFailure(stream: Writable): Error | undefined {
  return watched.get(stream)?.failure;
}

/**
 * Waits until `stream` can take more: its 'drain', or its end (closed, failed), so that a
 * writer never waits forever on a reader that has gone.
 */
export function drained(stream: Writable): Promise<void> {
  if (!stream.writableNeedDrain || outputClosed(stream)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    stream.on('error', done);
  });
}
