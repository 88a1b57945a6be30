import type { FileType, WebSchema } from '@schemacheck/engine';
import { useCallback, useEffect, useRef, useState } from 'react';

import type { LocalProgressState } from '../components/validation-progress';
import type { InputChoice } from './file-choices';
import type { ResultView } from './result';
import type { StartMessage, WorkerMessage } from './worker-protocol';

export interface LocalOutcome {
  result: ResultView;
  report: Blob;
  reportTruncated: boolean;
  reportedIssues: number;
}

export type LocalState =
  | { status: 'idle' }
  | { status: 'running'; startedAt: number; progress: LocalProgressState }
  | { status: 'done'; outcome: LocalOutcome }
  | { status: 'error'; message: string; problems?: { path: string; message: string }[] };

/** Runs the engine in a Web Worker on a file of this device; one validation at a time. */
export function useLocalValidation() {
  const [state, setState] = useState<LocalState>({ status: 'idle' });
  const worker = useRef<Worker | null>(null);

  const stop = useCallback(() => {
    worker.current?.terminate();
    worker.current = null;
  }, []);

  useEffect(() => stop, [stop]);

  const start = useCallback(
    (file: File, schema: WebSchema, fileType: FileType, choice: InputChoice = {}) =>
      new Promise<LocalState>((resolve) => {
        stop();
        const w = new Worker(new URL('./validate.worker.ts', import.meta.url), { type: 'module' });
        worker.current = w;
        const startedAt = Date.now();
        setState({
          status: 'running',
          startedAt,
          progress: { loaded: 0, total: file.size, rows: 0 },
        });
        const finish = (next: LocalState) => {
          setState(next);
          stop();
          resolve(next);
        };
        w.onmessage = (event: MessageEvent<WorkerMessage>) => {
          const message = event.data;
          if (message.type === 'progress') {
            setState({
              status: 'running',
              startedAt,
              progress: { loaded: message.loaded, total: message.total, rows: message.rows },
            });
          } else if (message.type === 'done') {
            finish({
              status: 'done',
              outcome: {
                result: message.result,
                report: message.report,
                reportTruncated: message.reportTruncated,
                reportedIssues: message.reportedIssues,
              },
            });
          } else {
            finish({
              status: 'error',
              message: message.message,
              ...(message.problems ? { problems: message.problems } : {}),
            });
          }
        };
        w.onerror = (event) => {
          event.preventDefault();
          finish({
            status: 'error',
            message: event.message || 'An error occurred during validation.',
          });
        };
        const start: StartMessage = { type: 'start', file, schema, fileType, ...choice };
        w.postMessage(start);
      }),
    [stop],
  );

  const cancel = useCallback(() => {
    stop();
    setState({ status: 'idle' });
  }, [stop]);

  const reset = useCallback(() => {
    setState((s) => (s.status === 'running' ? s : { status: 'idle' }));
  }, []);

  return { state, start, cancel, reset };
}
