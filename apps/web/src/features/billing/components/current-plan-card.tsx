import { PLANS, type PublicUser } from '@schemacheck/contracts';
import { CreditCard, FlaskConical, RotateCcw } from 'lucide-react';
import { useState } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CheckList } from '@/components/ui/check-list';
import { Spinner } from '@/components/ui/spinner';
import { useBillingPortal, useResumeSubscription, useSubscription } from '../api/billing';
import { PlanChangeDialog, type PlanChange } from './plan-change-dialog';
import { formatLongDate } from '@/lib/format';
import { toast } from '@/hooks/use-toast';
import { toastOnError } from '@/lib/error-toast';
import { formatPlanPrice, planFeatures } from '@/lib/plan-display';

/** The plan as Stripe last confirmed it: tier, price, status, the next invoice, and actions. */
export function CurrentPlanCard({ user }: { user: PublicUser }) {
  const { data: state, isPending, isError } = useSubscription();
  const resume = useResumeSubscription();
  const portal = useBillingPortal();
  const [change, setChange] = useState<PlanChange | null>(null);
  const tier = state?.tier ?? user.subscriptionTier;
  const plan = PLANS[tier];
  const price = formatPlanPrice(plan);
  const paidPlan = PLANS[state?.subscribedTier ?? (tier === 'business' ? 'business' : 'pro')];
  const end = formatLongDate(state?.currentPeriodEnd ?? null);

  let badge = <Badge variant="success">Active</Badge>;
  let status: string | null = null;
  if (state?.status === 'past_due' || state?.status === 'unpaid') {
    badge = <Badge variant="danger">Past due</Badge>;
    status = `The last payment for ${paidPlan.label} failed. Update your card to keep it.`;
  } else if (state?.cancelAtPeriodEnd) {
    badge = <Badge variant="neutral">Cancels on {end}</Badge>;
    status = `Your ${paidPlan.label} plan ends on ${end}.`;
  } else if (state?.status === 'active' && end) {
    status = `Renews monthly. Next invoice: ${price.amount} on ${end}.`;
  } else if (state?.setByOperator && tier !== 'free') {
    status = 'Your plan was set up by our team; it is not billed here.';
  }

  const onResume = () =>
    resume.mutate(undefined, {
      onSuccess: (next) =>
        toast({
          title: 'Subscription resumed',
          description: `Your ${paidPlan.label} plan will renew on ${formatLongDate(next.currentPeriodEnd)}.`,
        }),
      onError: toastOnError('Update failed', 'Failed to update subscription tier.'),
    });

  const live = state !== undefined && state.status !== 'none';
  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <CardTitle id="current-plan-heading">Current plan</CardTitle>
          <div className="flex flex-wrap gap-2">
            {state?.mode === 'test' ? (
              <Badge variant="neutral" title="Payments use Stripe test cards; nothing is charged">
                <FlaskConical aria-hidden="true" className="size-3" />
                Test mode
              </Badge>
            ) : null}
            {isPending ? null : badge}
          </div>
        </div>
        <CardDescription>What your account can do today.</CardDescription>
      </CardHeader>
      <CardContent>
        <p className="flex items-baseline gap-2">
          <span
            className="text-2xl font-semibold tracking-tight text-zinc-900"
            data-testid="current-plan-name"
          >
            {plan.label}
          </span>
          <span className="text-sm text-zinc-600">
            {price.amount}
            {price.period}
          </span>
        </p>
        {isError ? (
          <p role="alert" className="mt-2 text-sm text-red-700">
            Could not load your billing details. Refresh the page to try again.
          </p>
        ) : null}
        {status ? (
          <p className="mt-2 text-sm text-zinc-700" data-testid="plan-status">
            {status}
          </p>
        ) : null}
        <CheckList items={planFeatures(plan)} className="mt-4 grid gap-2" />
        {state && (live || state.canManageBilling) ? (
          <div className="mt-5 flex flex-wrap gap-2">
            {state.cancelAtPeriodEnd ? (
              <Button onClick={onResume} disabled={resume.isPending}>
                {resume.isPending ? <Spinner /> : <RotateCcw aria-hidden="true" />}
                Resume {paidPlan.label}
              </Button>
            ) : null}
            {state.canManageBilling ? (
              <Button variant="outline" onClick={() => portal.mutate()} disabled={portal.isPending}>
                {portal.isPending ? <Spinner /> : <CreditCard aria-hidden="true" />}
                Manage billing
              </Button>
            ) : null}
            {live && !state.cancelAtPeriodEnd ? (
              <Button variant="ghost" onClick={() => setChange({ kind: 'free' })}>
                Cancel plan
              </Button>
            ) : null}
          </div>
        ) : null}
      </CardContent>
      <PlanChangeDialog change={change} state={state} onClose={() => setChange(null)} />
    </Card>
  );
}
