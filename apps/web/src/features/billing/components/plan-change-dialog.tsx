import { PLANS, type PaidTier, type SubscriptionState } from '@schemacheck/contracts';
import { useState } from 'react';

import { ConfirmActions } from '@/components/ui/confirm-dialog';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { ApiError, getErrorMessage } from '@/lib/api-client';
import { toastOnError } from '@/lib/error-toast';

import { useCancelSubscription, useChangePlan, usePlanChangePreview } from '../api/billing';
import { formatLongDate, formatMoney } from '@/lib/format';

/** What the dialog confirms: a switch between paid plans, or the move to Free at period end. */
export type PlanChange = { kind: 'switch'; tier: PaidTier } | { kind: 'free' };

function SwitchBody({ tier, onDone }: { tier: PaidTier; onDone: () => void }) {
  const preview = usePlanChangePreview(tier);
  const change = useChangePlan();
  const [failure, setFailure] = useState<string | null>(null);
  const plan = PLANS[tier];
  const p = preview.data;

  let summary: string | null = null;
  if (p) {
    const next = formatLongDate(p.nextInvoiceDate);
    const monthly = formatMoney(p.monthlyPence);
    if (p.amountPence > 0) {
      summary = `You will be charged ${formatMoney(Math.abs(p.amountPence))} now for the rest of this billing period, then ${monthly} a month from ${next}.`;
    } else if (p.amountPence < 0) {
      summary = `${formatMoney(Math.abs(p.amountPence))} for the unused part of this billing period will be credited to your account and used on your next invoices. From ${next} you will pay ${monthly} a month.`;
    } else {
      summary = `Nothing is charged now. From ${next} you will pay ${monthly} a month.`;
    }
  }

  const confirm = () => {
    if (!p) return;
    setFailure(null);
    // The preview's signed quote goes back as it came: the server charges the price it showed
    // (docs/decisions/125), and refuses a quote that is stale.
    change.mutate(
      { tier, quote: p.quote },
      {
        onSuccess: () => {
          toast({ title: 'Subscription updated' });
          onDone();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.details?.code === 'preview_expired') {
            // The shown price is out of date: work it out again, and let the user confirm that.
            void preview.refetch();
          }
          setFailure(getErrorMessage(error, 'Failed to update subscription tier.'));
          toast({
            variant: 'destructive',
            title: 'Update failed',
            description: 'Failed to update subscription tier.',
          });
        },
      },
    );
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>Switch to {plan.label}?</DialogTitle>
        <DialogDescription>
          Your plan changes at once, with its limits, and the price difference is worked out to the
          day.
        </DialogDescription>
      </DialogHeader>
      <div aria-live="polite" className="rounded-lg bg-zinc-50 px-4 py-3 text-sm text-zinc-800">
        {preview.isPending ? (
          <span className="flex items-center gap-2 text-zinc-600">
            <Spinner /> Working out the price…
          </span>
        ) : preview.isError ? (
          <span role="alert" className="text-red-700">
            {getErrorMessage(preview.error, 'Could not work out the price. Please try again.')}
          </span>
        ) : (
          <span data-testid="plan-change-summary">{summary}</span>
        )}
      </div>
      {failure ? (
        <p role="alert" className="text-sm text-red-700">
          {failure}
        </p>
      ) : null}
      <ConfirmActions
        variant="default"
        cancelLabel="Keep my plan"
        confirmLabel={`Confirm switch to ${plan.label}`}
        pending={change.isPending}
        disabled={!p}
        onConfirm={confirm}
      />
    </>
  );
}

function FreeBody({ state, onDone }: { state: SubscriptionState; onDone: () => void }) {
  const cancel = useCancelSubscription();
  const plan = PLANS[state.subscribedTier ?? (state.tier === 'business' ? 'business' : 'pro')];
  const end = formatLongDate(state.currentPeriodEnd);
  const options = {
    onSuccess: (next: SubscriptionState) => {
      toast({
        title: 'Subscription Canceled',
        description: `Your ${plan.label} plan ends on ${formatLongDate(next.currentPeriodEnd)}. After that you will be downgraded to Free.`,
      });
      onDone();
    },
    onError: toastOnError('Cancellation failed', 'Failed to cancel subscription.'),
  };
  const confirm = () => cancel.mutate(undefined, options);

  return (
    <>
      <DialogHeader>
        <DialogTitle>{`Cancel your ${plan.label} plan?`}</DialogTitle>
        <DialogDescription>
          {`Nothing more will be charged. You keep ${plan.label} until ${end}, then your account moves to Free (${formatMoney(0)}). You can resume before then.`}
        </DialogDescription>
      </DialogHeader>
      <ConfirmActions
        cancelLabel="Keep my plan"
        confirmLabel="Cancel plan"
        pending={cancel.isPending}
        onConfirm={confirm}
      />
    </>
  );
}

export function PlanChangeDialog({
  change,
  state,
  onClose,
}: {
  change: PlanChange | null;
  state: SubscriptionState | undefined;
  onClose: () => void;
}) {
  return (
    <Dialog open={change !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent data-testid="plan-change-dialog">
        {change?.kind === 'switch' ? <SwitchBody tier={change.tier} onDone={onClose} /> : null}
        {change?.kind === 'free' && state ? <FreeBody state={state} onDone={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}
