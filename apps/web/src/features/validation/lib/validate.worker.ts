/// <reference lib="webworker" />
import { createCsvReportWriter, createValidator, parseSchema } from '@schemacheck/engine';

import {
  LOCAL_KEPT_ERRORS,
  LOCAL_REPORT_MAX_CHARS,
  type StartMessage,
  type WorkerMessage,
} from './worker-protocol';

// Validates a file on this device: the file is streamed from disk through the engine and never
// leaves the browser. Progress is posted at most every 100 ms; the full report is built as CSV
// text in blocks of about 1 MB, up to LOCAL_REPORT_MAX_CHARS.

declare const self: DedicatedWorkerGlobalScope;

const PROGRESS_MS = 100;
const BLOCK_CHARS = 1024 * 1024;

const post = (message: WorkerMessage) => self.postMessage(message);

async function run({ file, schema, fileType }: StartMessage): Promise<void> {
  const parsed = parseSchema(schema, 'web');
  if (!parsed.ok) {
    post({ type: 'error', message: 'The schema has problems', problems: parsed.problems });
    return;
  }

  const blocks: Blob[] = [];
  let pending: string[] = [];
  let pendingChars = 0;
  let reportChars = 0;
  let reportTruncated = false;
  let reportedIssues = 0;
  const flush = () => {
    if (pending.length === 0) return;
    blocks.push(new Blob(pending, { type: 'text/csv' }));
    pending = [];
    pendingChars = 0;
  };
  const write = (text: string) => {
    pending.push(text);
    pendingChars += text.length;
    reportChars += text.length;
    if (pendingChars >= BLOCK_CHARS) flush();
  };
  const report = createCsvReportWriter(write, { withPath: fileType === 'json' });

  const validator = createValidator(parsed.value, {
    fileType,
    maxErrors: LOCAL_KEPT_ERRORS,
    onIssue: (issue) => {
      if (reportTruncated) return;
      if (reportChars >= LOCAL_REPORT_MAX_CHARS) {
        reportTruncated = true;
        return;
      }
      report.add(issue);
      reportedIssues += 1;
    },
  });

  const total = file.size;
  let loaded = 0;
  let lastPost = 0;
  post({ type: 'progress', loaded, total, rows: 0 });
  const reader = file.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    validator.push(value);
    loaded += value.byteLength;
    const now = Date.now();
    if (now - lastPost >= PROGRESS_MS) {
      lastPost = now;
      post({ type: 'progress', loaded, total, rows: validator.rows });
    }
  }
  const result = validator.end();
  post({ type: 'progress', loaded: total, total, rows: validator.rows });
  flush();

  post({
    type: 'done',
    result: {
      fileName: file.name,
      fileType,
      fileSize: file.size,
      totalRows: result.totalRows,
      validRows: result.validRows,
      invalidRows: result.invalidRows,
      errorCount: result.errorCount,
      errors: result.errors,
      errorsByField: result.errorsByField,
      errorsByCode: result.errorsByCode as Record<string, number>,
      warnings: result.warnings,
    },
    report: new Blob(blocks, { type: 'text/csv;charset=utf-8' }),
    reportTruncated,
    reportedIssues,
  });
}

self.onmessage = (event: MessageEvent<StartMessage>) => {
  if (event.data?.type !== 'start') return;
  run(event.data).catch((error: unknown) => {
    post({
      type: 'error',
      message: error instanceof Error ? error.message : 'An error occurred during validation.',
    });
  });
};
