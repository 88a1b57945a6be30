import { ERROR_TABLE_ROWS } from '@schemacheck/contracts';
import { useMemo, useState, type ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCount, plural } from '@/lib/format';
import { cn } from '@/lib/utils';

import type { ResultView } from '../lib/result';
import { ErrorCards, ErrorTableView, NO_FIELD } from './error-rows';

/** Distinct messages offered as filters. */
const MESSAGE_FILTERS = 30;

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

export function ErrorTable({
  result,
  reportLocked,
}: {
  result: ResultView;
  reportLocked: boolean;
}) {
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
  // Each chip counts what ticking it would add under the other group's filter (faceted counts):
  // a column's number follows the messages chosen, a message's the columns chosen. The chips keep
  // their order (by the whole list's counts), so nothing moves under the pointer.
  const fieldCounts = useMemo(
    () =>
      new Map(
        countBy(
          result.errors.filter((e) => messages.size === 0 || messages.has(e.message)),
          (e) => e.field,
        ),
      ),
    [result.errors, messages],
  );
  const messageCounts = useMemo(
    () =>
      new Map(
        countBy(
          result.errors.filter((e) => fields.size === 0 || fields.has(e.field)),
          (e) => e.message,
        ),
      ),
    [result.errors, fields],
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
              {fieldOptions.map(([field]) => (
                <Chip
                  key={field}
                  count={fieldCounts.get(field) ?? 0}
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
              {messageOptions.map(([message]) => (
                <Chip
                  key={message}
                  count={messageCounts.get(message) ?? 0}
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
