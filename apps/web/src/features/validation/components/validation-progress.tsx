import { Check, LoaderCircle } from 'lucide-react';
import { useEffect, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';

import { formatBytes, formatCount, formatSeconds } from '@/lib/format';

/** docs/product.md#the-validation-workspace: four timed steps; the bar is held below 100% until the answer arrives. */
export const PROGRESS_STEPS = [
  { label: 'Uploading file', ms: 500 },
  { label: 'Parsing data', ms: 1000 },
  { label: 'Validating rows', ms: 2000 },
  { label: 'Generating report', ms: 500 },
] as const;
const TOTAL_MS = PROGRESS_STEPS.reduce((sum, s) => sum + s.ms, 0);
const HOLD_PERCENT = 95;
const TICK_MS = 100;
/** Upload progress in bytes is shown for files from this size. */
const SHOW_UPLOAD_BYTES = 1024 * 1024;

function useElapsed(startedAt: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, now - startedAt);
}

export interface UploadState {
  loaded: number;
  total: number;
  /** ms after the start when the whole body had been sent; null while it is still going. */
  doneAt: number | null;
}

const LOCAL_STEPS = ['Opening file', 'Reading file', 'Validating rows', 'Generating report'];

interface StepsProps {
  labels?: readonly string[];
  active: number;
  detail?: string | undefined;
}

function Steps({ labels = PROGRESS_STEPS.map((s) => s.label), active, detail }: StepsProps) {
  return (
    <ol className="grid gap-2.5">
      {labels.map((label, i) => {
        const done = i < active;
        const current = i === active;
        return (
          <li key={label} className="flex items-center gap-3 text-sm">
            <span
              aria-hidden="true"
              className={cn(
                'flex size-6 shrink-0 items-center justify-center rounded-full',
                done
                  ? 'bg-indigo-600 text-white'
                  : current
                    ? 'bg-indigo-50 text-indigo-700 ring-1 ring-indigo-200'
                    : 'bg-zinc-100 text-zinc-500',
              )}
            >
              {done ? (
                <Check className="size-3.5" />
              ) : current ? (
                <LoaderCircle className="size-3.5 animate-spin motion-reduce:animate-none" />
              ) : (
                <span className="text-xs">{i + 1}</span>
              )}
            </span>
            <span
              className={cn(
                current ? 'font-medium text-zinc-900' : done ? 'text-zinc-700' : 'text-zinc-500',
              )}
            >
              {label}
              <span className="sr-only">{done ? ' (done)' : current ? ' (in progress)' : ''}</span>
            </span>
            {current && detail ? (
              <span className="ml-auto text-xs tabular-nums text-zinc-600">{detail}</span>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

function Bar({ percent, label }: { percent: number; label: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(percent)}
      className="h-2 overflow-hidden rounded-full bg-zinc-100"
    >
      <div
        className="h-2 rounded-full bg-indigo-600 transition-[width] duration-200 motion-reduce:transition-none"
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}

function Shell({
  percent,
  elapsed,
  children,
  onCancel,
  title,
}: {
  percent: number;
  elapsed: number;
  children: React.ReactNode;
  onCancel?: (() => void) | undefined;
  title: string;
}) {
  return (
    <Card data-testid="validation-progress">
      <CardHeader>
        <div className="flex items-center justify-between gap-3">
          <CardTitle>{title}</CardTitle>
          <span className="text-sm tabular-nums text-zinc-600">
            <span className="sr-only">Elapsed time </span>
            {formatSeconds(elapsed)}
          </span>
        </div>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="grid gap-2">
          <div className="flex justify-between text-xs text-zinc-600">
            <span>Progress</span>
            <span className="tabular-nums">{Math.floor(percent)}%</span>
          </div>
          <Bar percent={percent} label={title} />
        </div>
        {children}
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-xs text-zinc-600">Large files may take longer to process</p>
          {onCancel ? (
            <Button variant="outline" size="sm" onClick={onCancel}>
              Cancel
            </Button>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}

/**
 * The server validation's progress: the product's timed steps, except that "Uploading file" lasts as
 * long as the real upload (XMLHttpRequest progress) and the later steps start when it ends.
 */
export function ServerProgress({
  startedAt,
  upload,
  onCancel,
}: {
  startedAt: number;
  upload: UploadState;
  onCancel?: () => void;
}) {
  const elapsed = useElapsed(startedAt);
  const first = PROGRESS_STEPS[0].ms;
  let virtual: number;
  if (upload.doneAt === null) virtual = Math.min(elapsed, first - 1);
  else if (upload.doneAt <= first) virtual = elapsed;
  else virtual = first + (elapsed - upload.doneAt);
  let active = 0;
  let end = 0;
  for (const [i, step] of PROGRESS_STEPS.entries()) {
    end += step.ms;
    active = i;
    if (virtual < end) break;
  }
  let percent = (virtual / TOTAL_MS) * 100;
  if (upload.doneAt === null && upload.total > 0) {
    // A long upload: the first step's share of the bar follows the bytes sent.
    percent = Math.max(percent, (upload.loaded / upload.total) * (first / TOTAL_MS) * 100);
  }
  percent = Math.min(HOLD_PERCENT, percent);
  const detail =
    active === 0 && upload.total >= SHOW_UPLOAD_BYTES && upload.doneAt === null
      ? `${Math.floor((upload.loaded / upload.total) * 100)}% of ${formatBytes(upload.total)}`
      : undefined;
  return (
    <Shell title="Validating your file" percent={percent} elapsed={elapsed} onCancel={onCancel}>
      <Steps active={active} detail={detail} />
    </Shell>
  );
}

export interface LocalProgressState {
  loaded: number;
  total: number;
  rows: number;
}

/** The in-browser validation's progress: real bytes read and rows checked. */
export function LocalProgress({
  startedAt,
  progress,
  onCancel,
}: {
  startedAt: number;
  progress: LocalProgressState;
  onCancel?: () => void;
}) {
  const elapsed = useElapsed(startedAt);
  const fraction = progress.total > 0 ? progress.loaded / progress.total : 0;
  const percent = Math.min(HOLD_PERCENT, fraction * 100);
  const active = progress.total === 0 ? 0 : progress.loaded === 0 ? 1 : fraction < 1 ? 2 : 3;
  return (
    <Shell
      title="Validating on this device"
      percent={percent}
      elapsed={elapsed}
      onCancel={onCancel}
    >
      <Steps
        labels={LOCAL_STEPS}
        active={active}
        detail={
          active === 2
            ? `${formatCount(progress.rows)} rows · ${formatBytes(progress.loaded)} of ${formatBytes(progress.total)}`
            : undefined
        }
      />
    </Shell>
  );
}
