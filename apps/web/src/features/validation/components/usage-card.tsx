import { nextTier, PLANS, type Plan } from '@schemacheck/contracts';
import { MonitorSmartphone, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router-dom';

import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';

import { useUsage } from '../api/usage';
import { formatCount, formatLongDate, plural } from '@/lib/format';
import { onDeviceStory } from '@/lib/plan-display';
import { plansLink } from './upgrade-dialog';

/** docs/product.md#plans-and-limits: warn when fewer than 10% of the month's validations remain. */
const LOW_USAGE_RATIO = 0.1;

export function UsageCard() {
  const { data: usage, isPending, isError } = useUsage();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Usage this month</CardTitle>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <p className="flex items-center gap-2 text-sm text-zinc-600">
            <Spinner /> Loading usage…
          </p>
        ) : isError || !usage ? (
          <p className="text-sm text-zinc-600">Usage is not available right now.</p>
        ) : (
          <UsageFigures
            used={usage.used}
            limit={usage.hasLimit ? usage.limit : null}
            remaining={usage.hasLimit ? usage.remaining : null}
            resetDate={usage.resetDate}
          />
        )}
      </CardContent>
    </Card>
  );
}

function UsageFigures({
  used,
  limit,
  remaining,
  resetDate,
}: {
  used: number;
  limit: number | null;
  remaining: number | null;
  resetDate: string;
}) {
  const low = limit !== null && remaining !== null && remaining < limit * LOW_USAGE_RATIO;
  const percent = limit ? Math.min(100, (used / limit) * 100) : 0;
  return (
    <div className="grid gap-4" data-testid="usage">
      <dl className="grid grid-cols-3 gap-3 text-center">
        <div className="rounded-lg bg-zinc-50 px-2 py-2.5">
          <dt className="text-xs text-zinc-600">Used</dt>
          <dd className="mt-0.5 text-lg font-semibold tabular-nums text-zinc-900">
            {formatCount(used)}
          </dd>
        </div>
        <div className="rounded-lg bg-zinc-50 px-2 py-2.5">
          <dt className="text-xs text-zinc-600">Limit</dt>
          <dd className="mt-0.5 text-lg font-semibold tabular-nums text-zinc-900">
            {limit === null ? 'Unlimited' : formatCount(limit)}
          </dd>
        </div>
        <div className="rounded-lg bg-zinc-50 px-2 py-2.5">
          <dt className="text-xs text-zinc-600">Remaining</dt>
          <dd
            className={cn(
              'mt-0.5 text-lg font-semibold tabular-nums',
              low ? 'text-amber-700' : 'text-zinc-900',
            )}
          >
            {remaining === null ? 'Unlimited' : formatCount(remaining)}
          </dd>
        </div>
      </dl>
      {limit !== null ? (
        <div
          role="meter"
          aria-label="Validations used this month"
          aria-valuemin={0}
          aria-valuemax={limit}
          aria-valuenow={used}
          className="h-2 overflow-hidden rounded-full bg-zinc-100"
        >
          <div
            className={cn('h-2 rounded-full', low ? 'bg-amber-500' : 'bg-indigo-600')}
            style={{ width: `${percent}%` }}
          />
        </div>
      ) : null}
      <p className="text-xs text-zinc-600">Resets on {formatLongDate(resetDate)}</p>
      {low ? (
        <p className="flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {remaining === 0
            ? 'You have no validations left this month.'
            : `Only ${plural(remaining ?? 0, 'validation')} left this month.`}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The Free plan's card in place of the usage figures (under the results): its files are checked
 * on this device, so there is nothing to count, and the plan's figures are said for what they
 * limit (docs/decisions/227).
 */
export function OnDeviceCard({ plan }: { plan: Plan }) {
  const next = PLANS[nextTier(plan.tier)];
  return (
    <Card data-testid="on-device-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <MonitorSmartphone aria-hidden="true" className="size-5 text-indigo-600" />
          Your files stay on this device
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm text-zinc-700">
        <p>{onDeviceStory(plan)}</p>
        <p>
          <Link
            to={plansLink(next.tier)}
            className="font-medium text-indigo-700 underline-offset-4 hover:underline"
          >
            What {next.label} adds
          </Link>
        </p>
      </CardContent>
    </Card>
  );
}
