import type { ValidateResponse } from '@schemacheck/contracts';
import type { WebSchema } from '@schemacheck/engine';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';

import { USAGE_KEY } from '../api/usage';
import { validateOnServer } from '../api/validate';
import type { UploadState } from '../components/validation-progress';
import type { InputChoice } from './file-choices';
import { verdictOf } from './result';
import { serverFailure, type ServerFailure } from './server-failure';

export interface RunningValidation {
  startedAt: number;
  upload: UploadState;
  controller: AbortController;
}

/** How a validation ended: its result, cancelled by the user, or refused with a typed code. */
export type ValidationOutcome =
  | { kind: 'done'; result: ValidateResponse; verdict: ReturnType<typeof verdictOf> }
  | { kind: 'cancelled' }
  | { kind: 'failed'; failure: ServerFailure };

/**
 * POST /api/validate as the workspace runs it: the upload with its real progress, the result,
 * the live region's words, and a failure read once into a typed code (never by its message).
 */
export function useServerValidation() {
  const queryClient = useQueryClient();
  const [running, setRunning] = useState<RunningValidation | null>(null);
  const [result, setResult] = useState<ValidateResponse | null>(null);
  const [status, setStatus] = useState('');

  const validate = useCallback(
    async (file: File, schema: WebSchema, choice?: InputChoice): Promise<ValidationOutcome> => {
      const controller = new AbortController();
      const startedAt = Date.now();
      setResult(null);
      setStatus(`Validating ${file.name}…`);
      setRunning({ startedAt, controller, upload: { loaded: 0, total: file.size, doneAt: null } });
      const update = (upload: Partial<UploadState>) =>
        setRunning((r) => (r ? { ...r, upload: { ...r.upload, ...upload } } : r));
      try {
        const response = await validateOnServer(
          file,
          schema,
          {
            signal: controller.signal,
            onUploadProgress: (loaded, total) => update({ loaded, total }),
            onUploadDone: () => update({ doneAt: Date.now() - startedAt }),
          },
          choice,
        );
        setResult(response);
        void queryClient.invalidateQueries({ queryKey: USAGE_KEY });
        const verdict = verdictOf(response);
        setStatus(verdict.announcement);
        return { kind: 'done', result: response, verdict };
      } catch (error) {
        setStatus('Validation did not complete.');
        if (error instanceof DOMException && error.name === 'AbortError') {
          return { kind: 'cancelled' };
        }
        const failure = serverFailure(error, 'An error occurred during validation.');
        if (failure.code === 'monthly_limit') {
          void queryClient.invalidateQueries({ queryKey: USAGE_KEY });
        }
        return { kind: 'failed', failure };
      } finally {
        setRunning(null);
      }
    },
    [queryClient],
  );

  const clearResult = useCallback(() => setResult(null), []);
  const cancel = useCallback(() => running?.controller.abort(), [running]);

  return { running, result, status, validate, cancel, clearResult };
}
