import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, type MessagePort } from 'node:worker_threads';
import {
  ChunkMerger,
  createCsvChunkValidator,
  createCsvReportWriter,
  createValidator,
  InputRefusedError,
  parseSchemaText,
  planInputs,
  rowIssueOf,
  validateOpened,
  type ChunkValidator,
  type Issue,
  type RowIssue,
  type SchemaModel,
  type Validator,
} from '@schemacheck/engine';
import { fileSource, nodePlatform } from '@schemacheck/node-platform';
import {
  createWorkerRows,
  splitOptionsOf,
  withRows,
  type RowStream,
  type WorkerRows,
} from '../reports/row-split.ts';
import { withholdLists } from '../lists/withhold.ts';
import type { BeginOptions, FileOptions, FromWorker, RowsFeed, ToWorker } from './protocol.ts';

// A validation worker thread: checks schemas and runs the engine on the chunks it is sent, so
// that the event loop only moves bytes (docs/decisions/030). Report text is sent back in pieces
// of about REPORT_PIECE characters.

const REPORT_PIECE = 64 * 1024;
/** Nice value of a validation thread: well below the event loop, still scheduled under load. */
const WORKER_NICE = 10;

/** The channel to the worker writing a job's rows, and the issues not yet sent there. */
interface Feed {
  port: MessagePort;
  issues: RowIssue[];
}

interface Job {
  model?: SchemaModel;
  /** Reference lists for inList rules (ValidateOptions.lists). */
  lists?: Record<string, string[]>;
  validator?: Validator;
  /** A chunk of a split job (docs/decisions/239). */
  chunkValidator?: ChunkValidator;
  /** The merge of a split job's chunks. */
  merger?: ChunkMerger;
  rows?: WorkerRows;
  /** The row outputs are another worker's: what this one sends it (ToWorker `begin`). */
  feed?: Feed;
  /** This worker writes another's row outputs, fed through this port (ToWorker `beginRows`). */
  rowsPort?: MessagePort;
  report: string[];
  reportChars: number;
}

lowerThisThreadsPriority();

const port = parentPort!;
const jobs = new Map<number, Job>();
const post = (m: FromWorker) => port.postMessage(m);

function flush(id: number, job: Job): void {
  if (job.reportChars === 0) return;
  post({ type: 'report', job: id, text: job.report.join('') });
  job.report = [];
  job.reportChars = 0;
}

port.on('message', (m: ToWorker) => {
  const id = m.job;
  try {
    switch (m.type) {
      case 'open': {
        const checked = parseSchemaText(m.schemaText);
        if (!checked.ok) {
          post({ type: 'opened', job: id, ok: false, problems: checked.problems });
          return;
        }
        jobs.set(id, {
          model: withholdLists(checked.value, m.withheld),
          ...(m.lists ? { lists: m.lists } : {}),
          report: [],
          reportChars: 0,
        });
        post({
          type: 'opened',
          job: id,
          ok: true,
          ...(checked.value.fileType ? { fileType: checked.value.fileType } : {}),
        });
        return;
      }
      case 'begin': {
        const job = jobs.get(id);
        if (!job?.model) throw new Error('begin before open');
        const o = m.options;
        let onIssue = outputsOf(id, job, o);
        if (m.rowsPort) onIssue = feeding(job, m.rowsPort, onIssue);
        job.validator = createValidator(job.model, {
          fileType: o.fileType,
          maxErrors: o.maxErrors,
          now: new Date(o.now),
          ...(o.jsonShape ? { jsonShape: o.jsonShape } : {}),
          ...(o.maxRows !== undefined ? { maxRows: o.maxRows } : {}),
          ...(job.lists ? { lists: job.lists } : {}),
          ...(onIssue ? { onIssue } : {}),
        });
        return;
      }
      case 'beginRows': {
        const rows = createWorkerRows(rowSender(id), splitOptionsOf(m.options));
        jobs.set(id, { rows, rowsPort: m.port, report: [], reportChars: 0 });
        m.port.on('message', (f: RowsFeed) => {
          if (jobs.get(id)?.rows !== rows) return; // closed meanwhile
          try {
            for (const issue of f.issues) rows.issue(issue);
            if (f.chunk) {
              rows.push(bytesOf(f.chunk));
              post({ type: 'rowsAck', job: id });
            }
            if (f.end) {
              rows.end();
              drop(id);
              post({ type: 'rowsDone', job: id });
            }
          } catch (err) {
            drop(id);
            postFailed(id, err);
          }
        });
        return;
      }
      case 'file': {
        const job = jobs.get(id);
        if (!job?.model) throw new Error('file before open');
        void runFile(id, job, job.model, m.options);
        return;
      }
      case 'beginChunk': {
        const job = jobs.get(id);
        if (!job?.model) throw new Error('beginChunk before open');
        job.chunkValidator = createCsvChunkValidator(
          job.model,
          m.plan,
          new Uint8Array(m.header),
          m.chunk,
          { now: new Date(m.now), ...(job.lists ? { lists: job.lists } : {}) },
        );
        return;
      }
      case 'endChunk': {
        const job = jobs.get(id);
        if (!job?.chunkValidator) throw new Error('endChunk before beginChunk');
        const outcome = job.chunkValidator.finish();
        // The schema and lists stay open for the part's next chunk.
        job.chunkValidator = undefined;
        const transfer: ArrayBuffer[] = [];
        for (const t of outcome.seen) {
          transfer.push(t.h1.buffer as ArrayBuffer, t.h2.buffer as ArrayBuffer);
          transfer.push(t.rows.buffer as ArrayBuffer);
        }
        port.postMessage({ type: 'chunkDone', job: id, outcome } satisfies FromWorker, transfer);
        return;
      }
      case 'beginMerge': {
        const job = jobs.get(id);
        if (!job?.model) throw new Error('beginMerge before open');
        job.merger = new ChunkMerger(m.options.maxErrors, outputsOf(id, job, m.options));
        return;
      }
      case 'merge': {
        const job = jobs.get(id);
        if (!job?.merger) throw new Error('merge before beginMerge');
        const verdict = job.merger.accept(m.planned, m.outcome, m.seeded);
        flush(id, job);
        post({ type: 'verdict', job: id, verdict });
        return;
      }
      case 'chunk': {
        const job = jobs.get(id);
        if (job?.chunkValidator) {
          job.chunkValidator.push(bytesOf(m.data));
          post({ type: 'ack', job: id, rows: 0, stopped: false });
          return;
        }
        if (job?.merger) {
          // The merged chunk's bytes, after its issues: the row outputs follow the issues.
          job.rows?.push(bytesOf(m.data));
          flush(id, job);
          post({ type: 'ack', job: id, rows: 0, stopped: false });
          return;
        }
        if (!job?.validator) return; // closed meanwhile
        const data = bytesOf(m.data);
        job.validator.push(data);
        job.rows?.push(data);
        if (job.feed) sendFeed(job.feed, data);
        flush(id, job);
        post({ type: 'ack', job: id, rows: job.validator.rows, stopped: job.validator.stopped });
        return;
      }
      case 'end': {
        const job = jobs.get(id);
        if (!job || !(job.merger ?? job.validator)) throw new Error('end before begin');
        const result = job.merger ? job.merger.result() : job.validator!.end();
        job.rows?.end();
        if (job.feed) sendFeed(job.feed, null);
        flush(id, job);
        drop(id);
        post({ type: 'done', job: id, result });
        return;
      }
      case 'close':
        drop(id);
        return;
    }
  } catch (err) {
    drop(id);
    postFailed(id, err);
  }
});

function postFailed(id: number, err: unknown): void {
  post({ type: 'failed', job: id, message: err instanceof Error ? err.message : String(err) });
}

/** Forgets a job, closing the channel it had with another worker. */
function drop(id: number): void {
  const job = jobs.get(id);
  if (!job) return;
  jobs.delete(id);
  job.feed?.port.close();
  job.rowsPort?.close();
}

/** An onIssue that also keeps what the row outputs' worker needs of each issue. */
function feeding(
  job: Job,
  port: MessagePort,
  onIssue: ((issue: Issue) => void) | undefined,
): (issue: Issue) => void {
  const feed: Feed = { port, issues: [] };
  job.feed = feed;
  return onIssue
    ? (issue) => {
        onIssue(issue);
        feed.issues.push(rowIssueOf(issue));
      }
    : (issue) => feed.issues.push(rowIssueOf(issue));
}

/** Sends the issues since the last feed, then a copy of the chunk just read (null: the end). */
function sendFeed(feed: Feed, chunk: Uint8Array | null): void {
  const issues = feed.issues;
  feed.issues = [];
  if (chunk === null) {
    feed.port.postMessage({ issues, end: true } satisfies RowsFeed);
    return;
  }
  const copy = new Uint8Array(chunk.byteLength);
  copy.set(chunk);
  feed.port.postMessage({ issues, chunk: copy.buffer } satisfies RowsFeed, [copy.buffer]);
}

/**
 * A spooled container (gzip, zip, workbook) read as the CLI reads it: the engine decides what is
 * inside, applies the bomb guards with the plan's limit on the decompressed bytes, and turns a
 * workbook's sheet into CSV rows whose issues carry their cell (docs/decisions/163). One data
 * input only: a zip with several needs `entry`, since one upload is one stored result.
 */
async function runFile(id: number, job: Job, model: SchemaModel, o: FileOptions): Promise<void> {
  const source = await fileSource(o.path).catch((err: unknown) => {
    postFailed(id, err);
    return null;
  });
  if (!source) return;
  try {
    const planned = await planInputs(o.name, source, nodePlatform, {
      schema: model,
      ...(o.sheet !== undefined ? { sheet: o.sheet } : {}),
      ...(o.entry !== undefined ? { entry: o.entry } : {}),
      ...(o.maxBytes !== null ? { limits: { maxBytes: o.maxBytes } } : {}),
    });
    if (planned.length > 1) {
      throw new InputRefusedError(
        'several_entries',
        `${o.name} holds ${planned.length} data files (${planned
          .slice(0, 10)
          .map((p) => p.name.slice(o.name.length + 1))
          .join(', ')}); name the one to validate with the entry parameter`,
      );
    }
    const opened = await planned[0]!.open();
    let onIssue = o.report
      ? reportWriterOf(id, job, {
          withPath: opened.fileType === 'json',
          withCell: opened.sheet !== undefined,
        })
      : undefined;
    const rows = o.rows ? createWorkerRows(rowSender(id), splitOptionsOf(opened)) : undefined;
    if (rows) onIssue = withRows(onIssue, rows);
    const result = await validateOpened(model, rows ? rows.follow(opened) : opened, {
      maxErrors: o.maxErrors,
      now: new Date(o.now),
      ...(o.maxRows !== undefined ? { maxRows: o.maxRows } : {}),
      ...(job.lists ? { lists: job.lists } : {}),
      ...(onIssue ? { onIssue } : {}),
    });
    if (!jobs.has(id)) return; // closed meanwhile
    rows?.end();
    flush(id, job);
    jobs.delete(id);
    post({
      type: 'done',
      job: id,
      result,
      input: {
        fileType: opened.fileType,
        ...(opened.jsonShape ? { jsonShape: opened.jsonShape } : {}),
      },
    });
  } catch (err) {
    jobs.delete(id);
    if (err instanceof InputRefusedError) {
      post({ type: 'refused', job: id, code: err.code, message: err.message });
    } else {
      postFailed(id, err);
    }
  } finally {
    await source.close().catch(() => {});
  }
}

/** The CSV report's writer, sending the report to the main thread in pieces, as an onIssue. */
function reportWriterOf(
  id: number,
  job: Job,
  columns: { withPath: boolean; withCell?: boolean },
): (issue: Issue) => void {
  const writer = createCsvReportWriter((text) => {
    job.report.push(text);
    job.reportChars += text.length;
    if (job.reportChars >= REPORT_PIECE) flush(id, job);
  }, columns);
  return writer.add.bind(writer);
}

/** The report writer and row outputs `o` asks for, as one onIssue (none when neither). */
function outputsOf(id: number, job: Job, o: BeginOptions): ((issue: Issue) => void) | undefined {
  let onIssue = o.report ? reportWriterOf(id, job, { withPath: o.fileType === 'json' }) : undefined;
  if (o.rows) {
    job.rows = createWorkerRows(rowSender(id), splitOptionsOf(o));
    onIssue = withRows(onIssue, job.rows);
  }
  return onIssue;
}

/**
 * A chunk's bytes as a Buffer over its transferred memory (no copy): the engine's readers search
 * them for line feeds and quotes with indexOf, which on a Buffer is memchr and several times
 * faster than a plain Uint8Array's.
 */
function bytesOf(data: ArrayBuffer): Uint8Array {
  return Buffer.from(data);
}

/**
 * Sends a piece of the valid or invalid rows output (decision 205): its bytes' buffer is handed
 * over, not copied (a file's worth of rows cloned as strings cost the worker about as much CPU as
 * validating it).
 */
function rowSender(id: number) {
  return (stream: RowStream, bytes: Uint8Array) =>
    port.postMessage({ type: 'rows', job: id, stream, bytes } satisfies FromWorker, [
      bytes.buffer as ArrayBuffer,
    ]);
}

/**
 * Validation is throughput work; the event loop answers people (health checks, pages, small
 * uploads). On Linux a thread has its own nice value, so this worker yields the CPU to the event
 * loop when both want it, and loses nothing when the machine is otherwise idle
 * (docs/decisions/061). Elsewhere it is left as it is.
 */
function lowerThisThreadsPriority(): void {
  try {
    const tid = Number(/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1]);
    if (tid > 0) setPriority(tid, WORKER_NICE);
  } catch {
    // Not Linux, or not allowed: the default priority is correct, only less fair.
  }
}
