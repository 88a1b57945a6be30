import type {
  ChunkOutcome,
  ChunkVerdict,
  CsvChunk,
  CsvSplitPlan,
  PlannedChunk,
  SchemaProblem,
  ValidationResult,
} from '@schemacheck/engine';
import type { FileType, RowIssue } from '@schemacheck/engine';
import type { MessagePort } from 'node:worker_threads';

// Messages between the event loop and a validation worker (docs/decisions/030). Every message
// names its job; one worker runs many jobs, interleaved chunk by chunk.

export interface BeginOptions {
  fileType: FileType;
  jsonShape?: 'ndjson';
  maxRows?: number;
  maxErrors: number;
  /** Stream the full error list back as CSV report text. */
  report: boolean;
  /** Also stream the valid and invalid rows back (reports/row-split.ts, decision 205). */
  rows?: boolean;
  /** ISO time: "today" for allowFuture/allowPast. */
  now: string;
}

/**
 * A container file (gzip, zip, Excel workbook) spooled to a local file: the worker opens it with
 * the engine's planInputs, as the CLI does (docs/decisions/163).
 */
export interface FileOptions extends Omit<BeginOptions, 'fileType' | 'jsonShape'> {
  path: string;
  /** The file's display name: decides the reader inside and names entries in messages. */
  name: string;
  /** The plan's byte limit, applied to the decompressed data; null is unlimited. */
  maxBytes: number | null;
  sheet?: string;
  entry?: string;
}

/** What the worker read inside a container, for the stored result. */
export interface FileInputInfo {
  fileType: FileType;
  jsonShape?: 'ndjson';
}

export type ToWorker =
  /**
   * `lists`: the account's reference lists the schema names (inList), name → values; `withheld`:
   * the lists named but not checked, name → the result's warning (lists/withhold.ts).
   */
  | {
      type: 'open';
      job: number;
      schemaText: string;
      lists?: Record<string, string[]>;
      withheld?: Record<string, string>;
    }
  | { type: 'file'; job: number; options: FileOptions }
  /**
   * `rowsPort`: the row outputs are written by another worker (`beginRows`), to which this one
   * sends each chunk's issues and bytes as `RowsFeed` messages instead of splitting them itself.
   */
  | { type: 'begin'; job: number; options: BeginOptions; rowsPort?: MessagePort }
  /**
   * The valid and invalid rows of a job validated by another worker, read from `port`: `rows`
   * messages as that worker would send them, `rowsAck` for each chunk, then `rowsDone`.
   */
  | { type: 'beginRows'; job: number; options: BeginOptions; port: MessagePort }
  | { type: 'chunk'; job: number; data: ArrayBuffer }
  | { type: 'end'; job: number }
  /**
   * One chunk of a split job's CSV (docs/decisions/239): its bytes follow as `chunk` messages,
   * `endChunk` answers `chunkDone`. `header` is the file's header line.
   */
  | {
      type: 'beginChunk';
      job: number;
      plan: CsvSplitPlan;
      header: ArrayBuffer;
      chunk: CsvChunk;
      now: string;
    }
  | { type: 'endChunk'; job: number }
  /**
   * The merge of a split job's chunk outcomes, in order: the report and row outputs are written
   * as `begin` writes them; each `merge` answers a `verdict`; `chunk` messages are the merged
   * chunks' bytes for the row outputs; `end` answers `done` with the whole file's result.
   */
  | { type: 'beginMerge'; job: number; options: BeginOptions }
  | { type: 'merge'; job: number; planned: PlannedChunk; outcome: ChunkOutcome; seeded: boolean }
  | { type: 'close'; job: number };

export type FromWorker =
  | {
      type: 'opened';
      job: number;
      ok: boolean;
      problems?: SchemaProblem[];
      fileType?: FileType;
    }
  | { type: 'ack'; job: number; rows: number; stopped: boolean }
  /** The row outputs' worker has split one more chunk. */
  | { type: 'rowsAck'; job: number }
  /** The row outputs' worker has sent every piece. */
  | { type: 'rowsDone'; job: number }
  /** Report text. */
  | { type: 'report'; job: number; text: string }
  /** A piece of the valid or invalid rows output, as UTF-8 bytes whose buffer is transferred. */
  | { type: 'rows'; job: number; stream: 'valid' | 'invalid'; bytes: Uint8Array }
  | { type: 'done'; job: number; result: ValidationResult; input?: FileInputInfo }
  | { type: 'chunkDone'; job: number; outcome: ChunkOutcome }
  | { type: 'verdict'; job: number; verdict: ChunkVerdict }
  /** The engine refused the container (a bomb, an .xls, several entries): the client's 4xx. */
  | { type: 'refused'; job: number; code: string; message: string }
  | { type: 'failed'; job: number; message: string };

/**
 * From the worker that validates to the one that writes the rows, over their own channel: the
 * issues the validator reported since the last feed, then the chunk it had just read (a copy:
 * the validator may keep its own), or the end. The splitter gets them in the order the worker
 * that does both gives them.
 */
export interface RowsFeed {
  issues: RowIssue[];
  chunk?: ArrayBuffer;
  end?: true;
}
