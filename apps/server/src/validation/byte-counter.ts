// The one byte counter of an upload's way through the server (docs/decisions/187): the upload
// pipeline counts the multipart file as it arrives (streamed into the run or into storage, or
// spooled until its schema comes), the validation run counts what it reads (the plan's limit on
// a stored job upload, the progress of a job), and the container spool counts what it writes.

export interface CountOptions {
  /** One byte more is refused with `tooLarge(max)`; null never refuses. */
  max: number | null;
  tooLarge: (limit: number) => Error;
  /** The running total, after each chunk that passed. */
  onBytes?: (total: number) => void;
  /** Checked before each chunk: once `signal` is aborted, the count stops with `error()`. */
  abort?: { signal: AbortSignal; error: () => Error };
}

/** `source` again, counted: fails at the first chunk that takes the total past `max`. */
export async function* countBytes<T extends Uint8Array>(
  source: AsyncIterable<T>,
  o: CountOptions,
): AsyncGenerator<T> {
  let total = 0;
  for await (const chunk of source) {
    if (o.abort?.signal.aborted) throw o.abort.error();
    total += chunk.byteLength;
    if (o.max !== null && total > o.max) throw o.tooLarge(o.max);
    o.onBytes?.(total);
    yield chunk;
  }
}
