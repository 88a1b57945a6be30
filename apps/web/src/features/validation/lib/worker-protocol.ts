import type { FileType, WebSchema } from '@schemacheck/engine';

import type { ResultView } from './result';

// Messages between the page and validate.worker.ts.

export interface StartMessage {
  type: 'start';
  file: File;
  schema: WebSchema;
  fileType: FileType;
  /** The sheet of a workbook, the data file of a zip (the pickers, decision 206). */
  sheet?: string;
  entry?: string;
}

export type WorkerMessage =
  | { type: 'progress'; loaded: number; total: number; rows: number }
  | {
      type: 'done';
      result: ResultView;
      /** The full CSV report (every issue), or the part kept before the memory cap. */
      report: Blob;
      reportTruncated: boolean;
      reportedIssues: number;
    }
  | { type: 'error'; message: string; problems?: { path: string; message: string }[] };

/** Errors kept for the table and its filters; the report has every one. */
export const LOCAL_KEPT_ERRORS = 1000;
/** Report text kept in memory before it is cut (about 200 MB). */
export const LOCAL_REPORT_MAX_CHARS = 200 * 1024 * 1024;
