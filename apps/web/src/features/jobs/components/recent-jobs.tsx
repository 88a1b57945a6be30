import { PLANS, type JobV1, type PublicUser } from '@schemacheck/contracts';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState, LoadErrorState, LoadingState } from '@/components/ui/query-states';
import { paths } from '@/config/paths';
import { formatBytes, formatCount, formatDateTime } from '@/lib/format';

import { useRecentJobs } from '../api/jobs';

// "API jobs" on the dashboard (Business and Enterprise): the latest jobs a pipeline started with
// POST /api/v1/jobs, with their state, progress while they run, and the error report once done.
// The list polls (../api/jobs.ts), so it has no Refresh button. It sits above the workspace, so
// it shows the latest three until asked for the rest.

const FIRST_JOBS = 3;

const STATUS: Record<
  JobV1['status'],
  { label: string; variant: 'default' | 'neutral' | 'success' | 'danger' }
> = {
  awaiting_upload: { label: 'Awaiting upload', variant: 'neutral' },
  queued: { label: 'Queued', variant: 'neutral' },
  running: { label: 'Running', variant: 'default' },
  completed: { label: 'Completed', variant: 'success' },
  failed: { label: 'Failed', variant: 'danger' },
};

function Outcome({ job }: { job: JobV1 }) {
  if (job.status === 'failed') {
    return <p className="text-[13px] text-red-700">{job.error ?? 'The job failed.'}</p>;
  }
  if (job.status !== 'completed' || !job.result) {
    const pct = Math.round(job.progress * 100);
    return (
      <div className="flex items-center gap-3">
        <div
          role="progressbar"
          aria-label={`Progress of ${job.file_name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
          className="h-2 w-40 overflow-hidden rounded-full bg-zinc-200"
        >
          <div
            className="h-full rounded-full bg-indigo-600 transition-[width]"
            style={{ width: `${pct}%` }}
          />
        </div>
        <span className="text-[13px] tabular-nums text-zinc-600">
          {job.status === 'queued'
            ? 'Waiting'
            : `${pct}% · ${formatCount(job.rows_processed)} rows`}
        </span>
      </div>
    );
  }
  const r = job.result;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-[13px] text-zinc-700">
      <span>
        {formatCount(r.stats.rows)} rows ·{' '}
        {r.valid ? (
          <span className="text-green-800">no errors</span>
        ) : (
          <span className="text-red-700">
            {formatCount(r.error_count)} error{r.error_count === 1 ? '' : 's'} in{' '}
            {formatCount(r.stats.invalid_rows)} rows
          </span>
        )}
      </span>
      {!r.valid ? (
        <a
          href={`/api/validation-results/${encodeURIComponent(r.report_id)}/error-report`}
          className="inline-flex items-center gap-1 font-medium text-indigo-700 underline-offset-4 hover:underline"
          aria-label={`Download the error report of ${job.file_name}`}
        >
          <Download aria-hidden="true" className="size-3.5" />
          Error report
        </a>
      ) : null}
    </div>
  );
}

function JobRow({ job }: { job: JobV1 }) {
  const s = STATUS[job.status];
  return (
    <li className="grid gap-1.5 py-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center sm:gap-4">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-zinc-900">
          <span className="break-all">{job.file_name}</span>
          <Badge variant={s.variant}>{s.label}</Badge>
        </p>
        <p className="mt-0.5 text-[13px] text-zinc-600">
          {formatBytes(job.file_size)}
          <span aria-hidden="true"> · </span>
          <span className="sr-only">, </span>
          started {formatDateTime(job.created_at)}
          <span aria-hidden="true"> · </span>
          <span className="sr-only">, </span>
          <code className="font-mono text-[12px] text-zinc-500">{job.job_id.slice(0, 8)}</code>
        </p>
      </div>
      <Outcome job={job} />
    </li>
  );
}

/** Shown to Business and Enterprise users only. */
export function RecentJobs({ user, className }: { user: PublicUser; className?: string }) {
  const allowed = PLANS[user.subscriptionTier].limits.apiAccess;
  const jobs = useRecentJobs(allowed);
  const [showAll, setShowAll] = useState(false);
  if (!allowed) return null;
  return (
    <section aria-labelledby="jobs-heading" className={className}>
      <Card>
        <div className="p-6">
          <h2 id="jobs-heading" className="text-base font-semibold text-zinc-900">
            API jobs
          </h2>
          <p className="mt-1 text-sm text-zinc-600">
            Large files your pipelines sent to{' '}
            <code className="font-mono text-[13px] text-zinc-800">POST /api/v1/jobs</code>. This
            list updates by itself.
          </p>
          {jobs.isPending ? (
            <LoadingState>Loading your jobs...</LoadingState>
          ) : !jobs.data ? (
            // A failed poll keeps the list it had; only a list never loaded shows the error.
            <LoadErrorState onRetry={() => void jobs.refetch()}>
              Your jobs could not be loaded.
            </LoadErrorState>
          ) : jobs.data.data.length === 0 ? (
            <EmptyState className="mt-4">
              No jobs yet. Send a file with an API key to validate it in the background;{' '}
              <Link
                to={paths.apiDocs}
                className="font-medium text-indigo-700 underline-offset-4 hover:underline"
              >
                see the API documentation
              </Link>
              .
            </EmptyState>
          ) : (
            <>
              <ul className="mt-3 divide-y divide-zinc-200" aria-label="Recent jobs">
                {(showAll ? jobs.data.data : jobs.data.data.slice(0, FIRST_JOBS)).map((j) => (
                  <JobRow key={j.job_id} job={j} />
                ))}
              </ul>
              {jobs.data.data.length > FIRST_JOBS ? (
                <Button
                  variant="ghost"
                  size="sm"
                  className="mt-2"
                  aria-expanded={showAll}
                  onClick={() => setShowAll((v) => !v)}
                >
                  {showAll
                    ? `Show the latest ${FIRST_JOBS} only`
                    : `Show all ${jobs.data.data.length} recent jobs`}
                </Button>
              ) : null}
            </>
          )}
        </div>
      </Card>
    </section>
  );
}
