import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCount } from '@/lib/format';

import { errorCodeLabel } from '../lib/error-codes';
import type { ResultView } from '../lib/result';
import { NO_FIELD } from './error-rows';

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

export function Breakdown({ result }: { result: ResultView }) {
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
