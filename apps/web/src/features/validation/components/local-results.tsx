import { reportFileName } from '@schemacheck/contracts';
import type { Ref } from 'react';

import { formatBytes, formatCount } from '@/lib/format';

import { downloadBlob } from '../lib/download';
import type { LocalState } from '../lib/use-local-validation';
import { ResultsPanel, ResultsPlaceholder } from './results-panel';
import { LocalProgress } from './validation-progress';

/**
 * The Results column of a validation run on this device (the public validators and the Free
 * dashboard): progress from the worker, then the result and the report the worker built.
 */
export function LocalResults({
  state,
  onCancel,
  headingRef,
  headingId,
  placeholder,
}: {
  state: LocalState;
  onCancel: () => void;
  headingRef: Ref<HTMLHeadingElement>;
  headingId: string;
  /** What the column says before the first run (the default speaks of uploads). */
  placeholder?: string;
}) {
  const outcome = state.status === 'done' ? state.outcome : null;
  return (
    <section aria-labelledby={headingId} className="grid min-w-0 grid-cols-1 gap-4">
      <h2
        id={headingId}
        ref={headingRef}
        tabIndex={-1}
        className="text-lg font-semibold text-zinc-900 focus:outline-none"
      >
        Results
      </h2>
      {state.status === 'running' ? (
        <LocalProgress startedAt={state.startedAt} progress={state.progress} onCancel={onCancel} />
      ) : outcome ? (
        <ResultsPanel
          result={outcome.result}
          report={{
            onDownload: () => downloadBlob(outcome.report, reportFileName(outcome.result.fileName)),
            note: outcome.reportTruncated
              ? `The report stopped at about 200 MB (${formatCount(outcome.reportedIssues)} of ${formatCount(outcome.result.errorCount)} errors) to protect this device's memory.`
              : `Built on this device · ${formatBytes(outcome.report.size)}`,
          }}
        />
      ) : (
        <ResultsPlaceholder>{placeholder}</ResultsPlaceholder>
      )}
    </section>
  );
}
