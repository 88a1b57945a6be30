import { MoveHorizontal } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';

import { cn } from '@/lib/utils';

import type { ResultView } from '../lib/result';

/** Longest value shown in a table cell; the full text is in the report. */
const VALUE_CHARS = 60;
export const NO_FIELD = '(whole row or file)';

function shortValue(value: string | null): { text: string; title?: string } {
  if (value === null || value === '') return { text: '(empty)' };
  const chars = [...value];
  if (chars.length <= VALUE_CHARS) return { text: value };
  return { text: `${chars.slice(0, VALUE_CHARS).join('')}…`, title: value };
}

type ErrorItem = ResultView['errors'][number];

/** Phones: one card per error, nothing to scroll sideways. */
export function ErrorCards({ errors, json }: { errors: ErrorItem[]; json: boolean }) {
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
            {error.suggestion !== undefined || error.severity === 'warning' ? (
              <p className="mt-1 text-xs text-zinc-600">
                {error.severity === 'warning' ? 'Warning. ' : ''}
                {error.suggestion !== undefined ? `Did you mean: ${error.suggestion}` : ''}
              </p>
            ) : null}
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
export function ErrorTableView({
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
          className="w-full min-w-[44rem] border-collapse text-left text-sm"
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
              <th scope="col" className="px-4 py-2.5 font-semibold">
                Severity
              </th>
              <th scope="col" className="px-4 py-2.5 font-semibold">
                Did you mean
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
                  <td className="px-4 py-2.5 text-zinc-700">
                    {error.severity === 'warning' ? 'Warning' : 'Error'}
                  </td>
                  <td className="max-w-40 break-words px-4 py-2.5 font-mono text-xs text-zinc-900">
                    {error.suggestion ?? ''}
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
