/// <reference lib="webworker" />
import {
  blobSource,
  createCsvReportWriter,
  createValidator,
  detectFileType,
  InputRefusedError,
  parseSchema,
  planInputs,
  sniffContainer,
  validateOpened,
  webPlatform,
  type ValidationResult,
} from '@schemacheck/engine';

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
/** Names the engine's input planner opens; gzip, zip and OLE bytes go there whatever the name. */
const CONTAINER_NAME = /\.(xlsx|xlsm|xlsb|xls|zip|gz|gzip|tgz)$/i;

async function run({ file, schema, fileType, sheet, entry }: StartMessage): Promise<void> {
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
  let report: ReturnType<typeof createCsvReportWriter> | null = null;
  const onIssue = (issue: Parameters<NonNullable<typeof report>['add']>[0]) => {
    if (reportTruncated || !report) return;
    if (reportChars >= LOCAL_REPORT_MAX_CHARS) {
      reportTruncated = true;
      return;
    }
    report.add(issue);
    reportedIssues += 1;
  };

  const total = file.size;
  post({ type: 'progress', loaded: 0, total, rows: 0 });
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  let result: ValidationResult;
  let readAs = fileType;
  if (CONTAINER_NAME.test(file.name) || sniffContainer(head) !== 'none') {
    // Workbooks, gzip and zip: opened here by the engine, read where the file lies (never
    // uploaded), as the CLI and the server open them (docs/decisions/164).
    const planned = await planInputs(file.name, blobSource(file), webPlatform, {
      schema: parsed.value,
      decide: (name, first) => detectFileType(name, first, fileType),
      ...(sheet !== undefined ? { sheet } : {}),
      ...(entry !== undefined ? { entry } : {}),
    });
    if (planned.length > 1) {
      throw new InputRefusedError(
        'several_entries',
        `${file.name} holds ${planned.length} data files (${planned
          .slice(0, 10)
          .map((p) => p.name.slice(file.name.length + 1))
          .join(', ')}); zip one file at a time, or validate the file itself`,
      );
    }
    const opened = await planned[0]!.open();
    readAs = opened.fileType;
    report = createCsvReportWriter(write, {
      withPath: opened.fileType === 'json',
      withCell: opened.sheet !== undefined,
    });
    result = await validateOpened(parsed.value, opened, {
      maxErrors: LOCAL_KEPT_ERRORS,
      onIssue,
    });
    post({ type: 'progress', loaded: total, total, rows: result.totalRows });
  } else {
    report = createCsvReportWriter(write, { withPath: fileType === 'json' });
    const validator = createValidator(parsed.value, {
      fileType,
      maxErrors: LOCAL_KEPT_ERRORS,
      onIssue,
    });
    let loaded = 0;
    let lastPost = 0;
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
    result = validator.end();
    post({ type: 'progress', loaded: total, total, rows: validator.rows });
  }
  flush();

  post({
    type: 'done',
    result: {
      fileName: file.name,
      fileType: readAs,
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
