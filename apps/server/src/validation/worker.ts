import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import {
  createCsvReportWriter,
  createValidator,
  parseSchemaText,
  type SchemaModel,
  type Validator,
} from '@schemacheck/engine';
import type { FromWorker, ToWorker } from './protocol.ts';

// A validation worker thread: checks schemas and runs the engine on the chunks it is sent, so
// that the event loop only moves bytes (docs/decisions/030). Report text is sent back in pieces
// of about REPORT_PIECE characters.

const REPORT_PIECE = 64 * 1024;
/** Nice value of a validation thread: well below the event loop, still scheduled under load. */
const WORKER_NICE = 10;

interface Job {
  model?: SchemaModel;
  validator?: Validator;
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
        jobs.set(id, { model: checked.value, report: [], reportChars: 0 });
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
        let onIssue;
        if (o.report) {
          const writer = createCsvReportWriter(
            (text) => {
              job.report.push(text);
              job.reportChars += text.length;
              if (job.reportChars >= REPORT_PIECE) flush(id, job);
            },
            { withPath: o.fileType === 'json' },
          );
          onIssue = writer.add.bind(writer);
        }
        job.validator = createValidator(job.model, {
          fileType: o.fileType,
          maxErrors: o.maxErrors,
          now: new Date(o.now),
          ...(o.jsonShape ? { jsonShape: o.jsonShape } : {}),
          ...(o.maxRows !== undefined ? { maxRows: o.maxRows } : {}),
          ...(onIssue ? { onIssue } : {}),
        });
        return;
      }
      case 'chunk': {
        const job = jobs.get(id);
        if (!job?.validator) return; // closed meanwhile
        job.validator.push(new Uint8Array(m.data));
        flush(id, job);
        post({ type: 'ack', job: id, rows: job.validator.rows, stopped: job.validator.stopped });
        return;
      }
      case 'end': {
        const job = jobs.get(id);
        if (!job?.validator) throw new Error('end before begin');
        const result = job.validator.end();
        flush(id, job);
        jobs.delete(id);
        post({ type: 'done', job: id, result });
        return;
      }
      case 'close':
        jobs.delete(id);
        return;
    }
  } catch (err) {
    jobs.delete(id);
    post({ type: 'failed', job: id, message: err instanceof Error ? err.message : String(err) });
  }
});

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
