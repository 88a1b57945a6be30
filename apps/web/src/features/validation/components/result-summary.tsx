import { CircleAlert, CircleCheck, Download, Lock } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { formatBytes, formatCount } from '@/lib/format';
import { cn } from '@/lib/utils';

import { allRows, rowsHave, type ResultView } from '../lib/result';

export interface ReportAction {
  onDownload: () => void;
  busy?: boolean;
  /**
   * Free plan: no download is offered; the button names the plan that has reports and opens
   * the upgrade dialog, e.g. "Full report with Pro".
   */
  locked?: string | undefined;
  /** A line under the button, e.g. "The report was cut at 200 MB". */
  note?: string | undefined;
}

export function SuccessSummary({ result }: { result: ResultView }) {
  return (
    <Card className="border-green-200">
      <CardContent className="flex items-start gap-4">
        <span
          aria-hidden="true"
          className="flex size-11 shrink-0 items-center justify-center rounded-full bg-green-50 text-green-700 ring-1 ring-green-200"
        >
          <CircleCheck className="size-6" />
        </span>
        <div className="min-w-0">
          <h2 className="text-lg font-semibold text-zinc-900">Perfect! No errors found</h2>
          <p className="mt-1 text-sm text-zinc-700">
            {allRows(result.totalRows)} passed validation successfully.
          </p>
          <p className="mt-2 truncate text-xs text-zinc-600">
            {result.fileName} · {formatBytes(result.fileSize)}
          </p>
        </div>
      </CardContent>
    </Card>
  );
}

function Stat({ label, value, tone }: { label: string; value: number; tone?: 'good' | 'bad' }) {
  return (
    <div className="rounded-lg border border-zinc-200 bg-white px-4 py-3">
      <dt className="text-xs font-medium text-zinc-600">{label}</dt>
      <dd
        className={cn(
          'mt-1 text-2xl font-semibold tabular-nums tracking-tight',
          tone === 'good' ? 'text-green-700' : tone === 'bad' ? 'text-red-700' : 'text-zinc-900',
        )}
      >
        {formatCount(value)}
      </dd>
    </div>
  );
}

export function ErrorSummary({
  result,
  report,
}: {
  result: ResultView;
  report: ReportAction | null;
}) {
  return (
    <Card className="border-red-200">
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="flex min-w-0 items-start gap-3">
            <span
              aria-hidden="true"
              className="flex size-10 shrink-0 items-center justify-center rounded-full bg-red-50 text-red-700 ring-1 ring-red-200"
            >
              <CircleAlert className="size-5" />
            </span>
            <div className="min-w-0">
              <CardTitle className="text-lg">{rowsHave(result.invalidRows)} errors</CardTitle>
              <CardDescription className="truncate">
                {result.fileName} · {formatBytes(result.fileSize)}
              </CardDescription>
            </div>
          </div>
          {report ? (
            <div className="grid justify-items-start gap-1 sm:justify-items-end">
              <Button
                variant={report.locked ? 'outline' : 'default'}
                onClick={report.onDownload}
                disabled={report.busy}
              >
                {report.busy ? (
                  <Spinner />
                ) : report.locked ? (
                  <Lock aria-hidden="true" />
                ) : (
                  <Download aria-hidden="true" />
                )}
                {report.locked ?? 'Download error report'}
              </Button>
              {report.note ? (
                <p className="max-w-64 text-xs text-zinc-600 sm:text-right">{report.note}</p>
              ) : null}
            </div>
          ) : null}
        </div>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="summary-stats">
          <Stat label="Total rows" value={result.totalRows} />
          <Stat label="Valid rows" value={result.validRows} tone="good" />
          <Stat label="Invalid rows" value={result.invalidRows} tone="bad" />
          <Stat label="Errors" value={result.errorCount} tone="bad" />
        </dl>
      </CardContent>
    </Card>
  );
}
