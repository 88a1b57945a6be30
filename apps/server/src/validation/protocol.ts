import type { SchemaProblem, ValidationResult } from '@schemacheck/engine';

// Messages between the event loop and a validation worker (docs/decisions/030). Every message
// names its job; one worker runs many jobs, interleaved chunk by chunk.

export interface BeginOptions {
  fileType: 'csv' | 'json';
  jsonShape?: 'ndjson';
  maxRows?: number;
  maxErrors: number;
  /** Stream the full error list back as CSV report text. */
  report: boolean;
  /** ISO time: "today" for allowFuture/allowPast. */
  now: string;
}

export type ToWorker =
  | { type: 'open'; job: number; schemaText: string }
  | { type: 'begin'; job: number; options: BeginOptions }
  | { type: 'chunk'; job: number; data: ArrayBuffer }
  | { type: 'end'; job: number }
  | { type: 'close'; job: number };

export type FromWorker =
  | {
      type: 'opened';
      job: number;
      ok: boolean;
      problems?: SchemaProblem[];
      fileType?: 'csv' | 'json';
    }
  | { type: 'ack'; job: number; rows: number; stopped: boolean }
  | { type: 'report'; job: number; text: string }
  | { type: 'done'; job: number; result: ValidationResult }
  | { type: 'failed'; job: number; message: string };
