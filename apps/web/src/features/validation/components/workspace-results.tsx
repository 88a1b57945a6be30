import {
  nextTier,
  PLANS,
  reportFileName,
  type SubscriptionTier,
  type ValidateResponse,
} from '@schemacheck/contracts';
import { useState, type Ref } from 'react';

import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';

import { fetchErrorReport } from '../api/validate';
import { downloadBlob } from '../lib/download';
import { serverFailure } from '../lib/server-failure';
import type { UpgradeReason } from '../lib/upgrade-reason';
import type { RunningValidation } from '../lib/use-server-validation';
import { ResultsPanel, ResultsPlaceholder } from './results-panel';
import { RowDownloads } from './row-downloads';
import { ServerProgress } from './validation-progress';

interface WorkspaceResultsProps {
  tier: SubscriptionTier;
  running: RunningValidation | null;
  result: ValidateResponse | null;
  onCancel: () => void;
  onUpgrade: (reason: UpgradeReason) => void;
  headingRef: Ref<HTMLHeadingElement>;
}

/** The workspace's Results column: progress while it runs, then the result and its report. */
export function WorkspaceResults({
  tier,
  running,
  result,
  onCancel,
  onUpgrade,
  headingRef,
}: WorkspaceResultsProps) {
  const plan = PLANS[tier];
  const [downloading, setDownloading] = useState(false);
  const reportLocked = result !== null && (!plan.limits.reportExport || !result.reportAvailable);
  const nextLabel = PLANS[nextTier(tier)].label;

  const onDownload = async () => {
    if (!result) return;
    if (reportLocked) {
      onUpgrade({ kind: 'export_locked' });
      return;
    }
    setDownloading(true);
    try {
      downloadBlob(await fetchErrorReport(result.id), reportFileName(result.fileName));
    } catch (error) {
      if (serverFailure(error, '').code === 'plan_required') {
        onUpgrade({ kind: 'export_locked' });
      } else {
        console.warn('Error report download failed', error);
        toast({
          variant: 'destructive',
          title: 'Download failed',
          description: getErrorMessage(error, 'The error report could not be downloaded.'),
        });
      }
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section aria-labelledby="results-heading" className="grid min-w-0 grid-cols-1 gap-4">
      <h2
        id="results-heading"
        ref={headingRef}
        tabIndex={-1}
        className="text-lg font-semibold text-zinc-900 focus:outline-none"
      >
        Results
      </h2>
      {running ? (
        <ServerProgress startedAt={running.startedAt} upload={running.upload} onCancel={onCancel} />
      ) : result ? (
        <ResultsPanel
          result={result}
          report={{
            onDownload: () => void onDownload(),
            busy: downloading,
            locked: reportLocked ? `Full report with ${nextLabel}` : undefined,
            note: reportLocked
              ? `Every error as a CSV file comes with the ${nextLabel} plan.`
              : undefined,
          }}
        />
      ) : (
        <ResultsPlaceholder />
      )}
      {!running && result && !reportLocked ? (
        <RowDownloads
          resultId={result.id}
          fileName={result.fileName}
          validRows={result.validRows}
          invalidRows={result.invalidRows}
        />
      ) : null}
    </section>
  );
}
