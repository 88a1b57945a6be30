import { PLANS } from '@schemacheck/contracts';
import { CreditCard, TriangleAlert } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';

import { useBillingPortal, useSubscription } from '../api/billing';
import { formatLongDate } from '@/lib/format';

/**
 * Shown on the dashboard and the profile while a renewal is unpaid: what happened, what it means
 * for the limits, and the way to fix the card (Stripe's portal; test mode's own page).
 */
export function PastDueBanner({ className }: { className?: string }) {
  const { data: state } = useSubscription();
  const portal = useBillingPortal();
  if (!state || (state.status !== 'past_due' && state.status !== 'unpaid')) return null;
  const plan = PLANS[state.subscribedTier ?? 'pro'];
  const consequence = state.graceEndsAt
    ? `Your ${plan.label} limits stay on until ${formatLongDate(state.graceEndsAt)}; after that you are on Free limits until the payment goes through.`
    : `You are on Free limits until the payment goes through.`;
  return (
    <div
      role="alert"
      data-testid="past-due-banner"
      className={`flex flex-col gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950 sm:flex-row sm:items-center sm:justify-between ${className ?? ''}`}
    >
      <div className="flex gap-3">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-700" />
        <div>
          <p className="font-semibold">Your last payment for {plan.label} failed</p>
          <p className="mt-0.5 text-sm">
            {consequence} Update your card and we will retry the payment.
          </p>
        </div>
      </div>
      <Button
        variant="outline"
        className="sm:self-center"
        disabled={portal.isPending}
        onClick={() => portal.mutate()}
      >
        {portal.isPending ? <Spinner /> : <CreditCard aria-hidden="true" />}
        Update card
      </Button>
    </div>
  );
}
