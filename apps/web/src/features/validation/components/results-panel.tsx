import { ERROR_TABLE_ROWS } from '@schemacheck/contracts';
import {
  CircleAlert,
  CircleCheck,
  Download,
  Lock,
  MoveHorizontal,
  TriangleAlert,
} from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';

import { errorCodeLabel } from '../lib/error-codes';
import { formatBytes, formatCount, plural } from '../lib/format';
import { allRows, rowsHave, type ResultView } from '../lib/result';

/** Longest value shown in a table cell; the full text is in the report. */
const VALUE_CHARS = 60;
/** Distinct messages offered as filters. */
const MESSAGE_FILTERS = 30;
const NO_FIELD = '(whole row or file)';

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
      {success ? null : (
        <>
          <Breakdown result={result} />
          <ErrorTable result={result} reportLocked={Boolean(report?.locked)} />
        </>
      )}
    </div>
  );
}

function SuccessSummary({ result }: { result: ResultView }) {
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

function ErrorSummary({ result, report }: { result: ResultView; report: ReportAction | null }) {
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

function CountList({
  title,
  counts,
  label = (key) => key || NO_FIELD,
}: {
  title: string;
  counts: Record<string, number>;
  label?: (key: string) => string;
}) {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  const max = entries[0]?.[1] ?? 1;
  return (
    <div className="min-w-0">
      <h3 className="text-sm font-semibold text-zinc-900">{title}</h3>
      <ul className="mt-3 grid gap-2">
        {entries.slice(0, 12).map(([key, count]) => (
          <li key={key} className="grid gap-1">
            <div className="flex items-baseline justify-between gap-3 text-sm">
              <span className="truncate text-zinc-800" title={key || undefined}>
                {label(key)}
              </span>
              <span className="shrink-0 tabular-nums text-zinc-600">{formatCount(count)}</span>
            </div>
            <div aria-hidden="true" className="h-1.5 rounded-full bg-zinc-100">
              <div
                className="h-1.5 rounded-full bg-red-400"
                style={{ width: `${Math.max(2, (count / max) * 100)}%` }}
              />
            </div>
          </li>
        ))}
      </ul>
      {entries.length > 12 ? (
        <p className="mt-2 text-xs text-zinc-600">and {entries.length - 12} more</p>
      ) : null}
    </div>
  );
}

function Breakdown({ result }: { result: ResultView }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Where the errors are</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-8 sm:grid-cols-2">
        <CountList
          title={result.fileType === 'json' ? 'By field' : 'By column'}
          counts={result.errorsByField}
        />
        <CountList title="By error type" counts={result.errorsByCode} label={errorCodeLabel} />
      </CardContent>
    </Card>
  );
}

function Chip({
  checked,
  onChange,
  children,
  count,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
  count: number;
}) {
  return (
    <label
      className={cn(
        'inline-flex max-w-full cursor-pointer items-center gap-1.5 rounded-full border px-3 py-1 text-xs transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500 has-[:focus-visible]:ring-offset-1',
        checked
          ? 'border-indigo-600 bg-indigo-50 text-indigo-800'
          : 'border-zinc-300 bg-white text-zinc-700 hover:bg-zinc-50',
      )}
    >
      <input
        type="checkbox"
        className="sr-only"
        checked={checked}
        onChange={(event) => onChange(event.currentTarget.checked)}
      />
      <span className="truncate">{children}</span>
      <span className={cn('tabular-nums', checked ? 'text-indigo-700' : 'text-zinc-500')}>
        {formatCount(count)}
      </span>
    </label>
  );
}

function toggle(set: Set<string>, value: string, on: boolean): Set<string> {
  const next = new Set(set);
  if (on) next.add(value);
  else next.delete(value);
  return next;
}

function countBy<T>(items: readonly T[], key: (item: T) => string): [string, number][] {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
}

function shortValue(value: string | null): { text: string; title?: string } {
  if (value === null || value === '') return { text: '(empty)' };
  const chars = [...value];
  if (chars.length <= VALUE_CHARS) return { text: value };
  return { text: `${chars.slice(0, VALUE_CHARS).join('')}…`, title: value };
}

function ErrorTable({ result, reportLocked }: { result: ResultView; reportLocked: boolean }) {
  const [fields, setFields] = useState<Set<string>>(new Set());
  const [messages, setMessages] = useState<Set<string>>(new Set());
  const fieldOptions = useMemo(() => countBy(result.errors, (e) => e.field), [result.errors]);
  const messageOptions = useMemo(
    () => countBy(result.errors, (e) => e.message).slice(0, MESSAGE_FILTERS),
    [result.errors],
  );
  // OR within a group, AND across the two groups (docs/product.md#the-validation-workspace).
  const matching = useMemo(
    () =>
      result.errors.filter(
        (e) =>
          (fields.size === 0 || fields.has(e.field)) &&
          (messages.size === 0 || messages.has(e.message)),
      ),
    [result.errors, fields, messages],
  );
  const shown = matching.slice(0, ERROR_TABLE_ROWS);
  const filtered = fields.size > 0 || messages.size > 0;
  const json = result.fileType === 'json';
  const partial = result.errors.length < result.errorCount;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Errors</CardTitle>
        <CardDescription>
          {partial
            ? `The first ${formatCount(result.errors.length)} of ${formatCount(result.errorCount)} errors can be filtered here${reportLocked ? '.' : '; the report holds them all.'}`
            : `${plural(result.errorCount, 'error')} in file order.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="grid gap-4" role="group" aria-label="Filters">
          <fieldset>
            <legend className="text-xs font-semibold uppercase tracking-wide text-zinc-600">
              Filter by {json ? 'field' : 'column'}
            </legend>
            <div className="mt-2 flex flex-wrap gap-2" data-testid="field-filters">
              {fieldOptions.map(([field, count]) => (
                <Chip
                  key={field}
                  count={count}
                  checked={fields.has(field)}
                  onChange={(on) => setFields((s) => toggle(s, field, on))}
                >
                  {field || NO_FIELD}
                </Chip>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend className="text-xs font-semibold uppercase tracking-wide text-zinc-600">
              Filter by message
            </legend>
            <div className="mt-2 flex flex-wrap gap-2" data-testid="message-filters">
              {messageOptions.map(([message, count]) => (
                <Chip
                  key={message}
                  count={count}
                  checked={messages.has(message)}
                  onChange={(on) => setMessages((s) => toggle(s, message, on))}
                >
                  {message}
                </Chip>
              ))}
            </div>
          </fieldset>
          {filtered ? (
            <div className="flex flex-wrap items-center gap-3 text-sm text-zinc-700">
              <span aria-live="polite">{plural(matching.length, 'matching error')}</span>
              <Button
                variant="link"
                size="sm"
                className="h-auto px-0"
                onClick={() => {
                  setFields(new Set());
                  setMessages(new Set());
                }}
              >
                Clear filters
              </Button>
            </div>
          ) : null}
        </div>

        {shown.length === 0 ? (
          <p className="rounded-lg border border-dashed border-zinc-300 bg-zinc-50 px-4 py-8 text-center text-sm text-zinc-600">
            No errors match the selected filters.
          </p>
        ) : (
          <>
            <ErrorCards errors={shown} json={json} />
            <ErrorTableView
              errors={shown}
              json={json}
              caption={`Errors ${shown.length === matching.length ? '' : `1 to ${shown.length} of ${formatCount(matching.length)}`}${filtered ? ' matching the filters' : ''}`}
            />
          </>
        )}
        {matching.length > shown.length ? (
          <p className="text-xs text-zinc-600">
            Showing the first {ERROR_TABLE_ROWS} of {formatCount(matching.length)}
            {filtered ? ' matching' : ''} errors.
            {reportLocked ? '' : ' Download the report for the complete list.'}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

type ErrorItem = ResultView['errors'][number];

/** Phones: one card per error, nothing to scroll sideways. */
function ErrorCards({ errors, json }: { errors: ErrorItem[]; json: boolean }) {
  return (
    <ol className="grid gap-2 sm:hidden" data-testid="error-cards" aria-label="Errors">
      {errors.map((error, i) => {
        const value = shortValue(error.value);
        const empty = error.value === null || error.value === '';
        return (
          <li key={i} className="rounded-lg border border-zinc-200 bg-white px-3 py-2.5 text-sm">
            <p className="flex flex-wrap items-baseline gap-x-2 text-xs text-zinc-600">
              <span className="font-semibold tabular-nums text-zinc-700">Row {error.row}</span>
              <span aria-hidden="true">·</span>
              <span className="break-words font-medium text-zinc-900">
                {error.field || NO_FIELD}
              </span>
            </p>
            <p className="mt-1 text-zinc-900">{error.message}</p>
            <p className="mt-1 text-xs text-zinc-600">
              Value:{' '}
              <span
                title={value.title}
                className={cn('break-all font-mono', empty ? 'text-zinc-600' : 'text-zinc-900')}
              >
                {value.text}
              </span>
            </p>
            {json && error.path ? (
              <p className="mt-0.5 break-all font-mono text-xs text-zinc-600">{error.path}</p>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

/** Wider screens: the table, in a scroll container that says so when it does not fit. */
function ErrorTableView({
  errors,
  json,
  caption,
}: {
  errors: ErrorItem[];
  json: boolean;
  caption: string;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <div className="hidden gap-2 sm:grid">
      {overflows ? (
        <p className="flex items-center gap-1.5 text-xs text-zinc-600" data-testid="scroll-hint">
          <MoveHorizontal aria-hidden="true" className="size-3.5" />
          Scroll sideways to see every column.
        </p>
      ) : null}
      <div
        ref={scroller}
        // Focusable so that keyboard users can scroll it (axe: scrollable-region-focusable).
        tabIndex={0}
        role="region"
        aria-label="Errors table"
        className="overflow-x-auto rounded-lg border border-zinc-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
      >
        <table
          className="w-full min-w-[36rem] border-collapse text-left text-sm"
          data-testid="error-table"
        >
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-600">
            <tr>
              <th scope="col" className="px-4 py-2.5 font-semibold">
                Row
              </th>
              <th scope="col" className="px-4 py-2.5 font-semibold">
                {json ? 'Field' : 'Column'}
              </th>
              <th scope="col" className="px-4 py-2.5 font-semibold">
                Message
              </th>
              <th scope="col" className="px-4 py-2.5 font-semibold">
                Value
              </th>
              {json ? (
                <th scope="col" className="px-4 py-2.5 font-semibold">
                  JSON path
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {errors.map((error, i) => {
              const value = shortValue(error.value);
              return (
                <tr key={i} className="align-top">
                  <td className="px-4 py-2.5 tabular-nums text-zinc-700">{error.row}</td>
                  <td className="max-w-40 break-words px-4 py-2.5 font-medium text-zinc-900">
                    {error.field || <span className="font-normal text-zinc-500">{NO_FIELD}</span>}
                  </td>
                  <td className="px-4 py-2.5 text-zinc-800">{error.message}</td>
                  <td className="max-w-56 px-4 py-2.5">
                    <span
                      title={value.title}
                      className={cn(
                        'break-all font-mono text-xs',
                        error.value === null || error.value === ''
                          ? 'text-zinc-500'
                          : 'text-zinc-900',
                      )}
                    >
                      {value.text}
                    </span>
                  </td>
                  {json ? (
                    <td className="px-4 py-2.5 font-mono text-xs text-zinc-700">
                      {error.path ?? ''}
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
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
