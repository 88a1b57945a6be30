import {
  createRowSplitter,
  type Issue,
  type OpenedInput,
  type RowIssue,
  type RowSplitter,
  type SplitOptions,
} from '@schemacheck/engine';

// The good rows back, worker side (docs/decisions/205): the engine's row splitter runs beside the
// validator in the validation worker, fed the same chunks right after the validator, and its two
// outputs go back to the event loop in the splitter's pieces of about 64 KiB of UTF-8, whose
// buffers move to the event loop without a copy, where row-outputs.ts streams them into storage
// beside the error report.

export type RowStream = 'valid' | 'invalid';

export interface WorkerRows {
  /** Every issue of the validation (chain it after the report writer's). */
  issue(issue: RowIssue): void;
  /** The chunk the validator was just given. */
  push(chunk: Uint8Array): void;
  /** Ends both outputs and sends what is left. */
  end(): void;
  /** The opened input with its chunks handed to the splitter after the validator has read each. */
  follow(opened: OpenedInput): OpenedInput;
}

export function createWorkerRows(
  send: (stream: RowStream, bytes: Uint8Array) => void,
  options: SplitOptions,
): WorkerRows {
  // Its rows come in pieces of about 64 KiB of UTF-8, each its own buffer to transfer.
  const splitter: RowSplitter = createRowSplitter(
    { valid: (bytes) => send('valid', bytes), invalid: (bytes) => send('invalid', bytes) },
    options,
  );
  return {
    issue: (i) => splitter.issue(i),
    push: (chunk) => splitter.push(chunk),
    end: () => splitter.end(),
    follow(opened) {
      const chunks = opened.chunks;
      return {
        ...opened,
        chunks: (async function* () {
          // Resumed only once the validator has pushed the chunk it was given.
          for await (const chunk of chunks) {
            yield chunk;
            splitter.push(chunk);
          }
        })(),
      };
    },
  };
}

/** How the splitter reads an opened input: its type, delimiter and JSON form. */
export function splitOptionsOf(opened: Pick<OpenedInput, 'fileType' | 'delimiter' | 'jsonShape'>) {
  const options: SplitOptions = { fileType: opened.fileType };
  if (opened.delimiter !== undefined) options.delimiter = opened.delimiter;
  if (opened.jsonShape !== undefined) options.jsonShape = opened.jsonShape;
  return options;
}

/** An onIssue that also hands the issue to the splitter. */
export function withRows(
  onIssue: ((issue: Issue) => void) | undefined,
  rows: WorkerRows,
): (issue: Issue) => void {
  return onIssue
    ? (issue) => {
        onIssue(issue);
        rows.issue(issue);
      }
    : (issue) => rows.issue(issue);
}
