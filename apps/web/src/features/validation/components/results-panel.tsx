import { TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';

import { Card, CardContent } from '@/components/ui/card';

import type { ResultView } from '../lib/result';
import { Breakdown } from './error-breakdown';
import { ErrorTable } from './error-table';
import { ErrorSummary, SuccessSummary, type ReportAction } from './result-summary';
import { RuleWarnings } from './rule-warnings';

interface ResultsPanelProps {
  result: ResultView;
  report: ReportAction | null;
}

export function ResultsPanel({ result, report }: ResultsPanelProps) {
  const success = result.errorCount === 0;
  return (
    <div className="grid gap-6" data-testid="results">
      {success ? (
        <SuccessSummary result={result} />
      ) : (
        <ErrorSummary result={result} report={report} />
      )}
      {result.warnings.length > 0 ? (
        <div className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
          <p className="flex items-center gap-2 font-medium">
            <TriangleAlert aria-hidden="true" className="size-4" />
            Notes about this file
          </p>
          <ul className="mt-2 grid list-disc gap-1 pl-6">
            {result.warnings.map((w, i) => (
              <li key={i}>{w.message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <RuleWarnings result={result} />
      {success ? null : (
        <>
          <Breakdown result={result} />
          <ErrorTable result={result} reportLocked={Boolean(report?.locked)} />
        </>
      )}
    </div>
  );
}

export function ResultsPlaceholder({ children }: { children?: ReactNode }) {
  return (
    <Card variant="dashed" className="bg-white/60">
      <CardContent className="flex flex-col items-center gap-2 py-16 text-center">
        <p className="text-sm font-medium text-zinc-700">
          {children ?? 'Upload a file and validate it to see results here'}
        </p>
      </CardContent>
    </Card>
  );
}
