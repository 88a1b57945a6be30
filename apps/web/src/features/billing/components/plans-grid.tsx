import {
  PLANS,
  SUBSCRIPTION_TIERS,
  TEST_CARD_NUMBER,
  type PaidTier,
  type SubscriptionTier,
} from '@schemacheck/contracts';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';

import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CheckList } from '@/components/ui/check-list';
import { Spinner } from '@/components/ui/spinner';
import { SALES_EMAIL } from '@/config/site';
import { formatLongDate } from '@/lib/format';
import { useCheckout, useSubscription } from '../api/billing';
import { PlanChangeDialog, type PlanChange } from './plan-change-dialog';
import { toastOnError } from '@/lib/error-toast';
import { formatPlanPrice, planFeatures } from '@/lib/plan-display';
import { cn } from '@/lib/utils';

const rank = (tier: SubscriptionTier) => SUBSCRIPTION_TIERS.indexOf(tier);
const isPaid = (tier: SubscriptionTier): tier is PaidTier => tier === 'pro' || tier === 'business';

/**
 * Every plan from contracts' PLANS with the action that gets there: Checkout for a first paid
 * plan, a confirmed switch (with its price) between paid plans, a note that Cancel plan (on the
 * current plan's card) moves to Free at the end of the period, Contact Sales for Enterprise. `/profile?upgrade=pro#plans` scrolls here and marks
 * the suggested plan (the upgrade dialogs link there).
 */
export function PlansGrid({ currentTier }: { currentTier: SubscriptionTier }) {
  const { data: state } = useSubscription();
  const checkout = useCheckout();
  const [change, setChange] = useState<PlanChange | null>(null);
  const [params] = useSearchParams();
  const location = useLocation();
  const section = useRef<HTMLElement>(null);
  const requested = params.get('upgrade');
  const suggested = requested && requested in PLANS ? (requested as SubscriptionTier) : null;

  useEffect(() => {
    if (suggested || location.hash === '#plans') {
      section.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    }
  }, [suggested, location.hash]);

  const tier = state?.tier ?? currentTier;
  const subscribed = state?.subscribedTier ?? null;
  const live = state !== undefined && state.status !== 'none';
  // What the buttons compare against: the plan paid for (it may differ from the limits while a
  // payment is overdue).
  const own = subscribed ?? tier;

  const startCheckout = (target: PaidTier) =>
    checkout.mutate(target, {
      onError: toastOnError('Checkout failed', 'Failed to create checkout session.'),
    });

  return (
    <section id="plans" ref={section} aria-labelledby="plans-heading" className="scroll-mt-24">
      <div className="mb-4">
        <h2 id="plans-heading" className="text-lg font-semibold tracking-tight text-zinc-900">
          Available plans
        </h2>
        <p className="mt-1 text-sm text-zinc-600">
          Prices are in pounds (GBP), billed monthly in advance. Change or cancel any time.
        </p>
        {state?.mode === 'test' ? (
          <p className="mt-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
            Test mode: payments go through a test checkout and nothing is charged. Pay with
            Stripe&apos;s test card {TEST_CARD_NUMBER}, any future expiry date and any CVC.
          </p>
        ) : null}
      </div>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {SUBSCRIPTION_TIERS.map((planTier) => {
          const plan = PLANS[planTier];
          const price = formatPlanPrice(plan);
          const current = planTier === own;
          const highlighted = planTier === suggested && !current;
          const pendingHere = checkout.isPending && checkout.variables === planTier;
          let action;
          if (current) {
            action = (
              <Button variant="secondary" disabled className="w-full">
                Current plan
              </Button>
            );
          } else if (planTier === 'enterprise') {
            action = (
              <a
                href={`mailto:${SALES_EMAIL}?subject=${encodeURIComponent('SchemaCheck Enterprise')}`}
                className={buttonVariants({ variant: 'outline', className: 'w-full' })}
              >
                Contact Sales
              </a>
            );
          } else if (tier === 'enterprise' && !live) {
            action = (
              <p className="text-center text-xs text-zinc-600">
                Your Enterprise plan is managed by our sales team.
              </p>
            );
          } else if (planTier === 'free') {
            // One action, one name: moving to Free is "Cancel plan" on the current plan's card.
            action = (
              <p className="text-center text-xs text-zinc-600" data-testid="free-plan-note">
                {state?.cancelAtPeriodEnd
                  ? `Your account moves to Free on ${formatLongDate(state.currentPeriodEnd)}.`
                  : live
                    ? 'To move to Free, use Cancel plan on your current plan.'
                    : 'To move to Free, contact support.'}
              </p>
            );
          } else if (isPaid(planTier) && live) {
            action = (
              <Button
                variant={rank(planTier) > rank(own) ? 'default' : 'outline'}
                className="w-full"
                onClick={() => setChange({ kind: 'switch', tier: planTier })}
              >
                {rank(planTier) > rank(own)
                  ? `Upgrade to ${plan.label}`
                  : `Switch to ${plan.label}`}
              </Button>
            );
          } else if (isPaid(planTier)) {
            action = (
              <Button
                variant={highlighted || rank(planTier) > rank(own) ? 'default' : 'outline'}
                className="w-full"
                disabled={checkout.isPending}
                onClick={() => startCheckout(planTier)}
              >
                {pendingHere ? <Spinner /> : null}
                {rank(planTier) > rank(own)
                  ? `Upgrade to ${plan.label}`
                  : `Switch to ${plan.label}`}
              </Button>
            );
          }
          return (
            <li key={planTier} data-testid={`plan-${planTier}`}>
              <Card
                variant={current ? 'highlight' : 'default'}
                className={cn(
                  'flex h-full flex-col p-5',
                  highlighted && 'ring-2 ring-indigo-500 ring-offset-2',
                )}
              >
                <div className="flex items-center justify-between gap-2">
                  <h3 className="text-base font-semibold text-zinc-900">{plan.label}</h3>
                  {current ? <Badge>Current plan</Badge> : null}
                  {highlighted ? <Badge variant="success">Suggested</Badge> : null}
                </div>
                <p className="mt-2 flex items-baseline gap-1">
                  <span className="text-2xl font-semibold tracking-tight text-zinc-900">
                    {price.amount}
                  </span>
                  {price.period ? (
                    <span className="text-sm text-zinc-600">{price.period}</span>
                  ) : null}
                </p>
                <CheckList items={planFeatures(plan)} className="mt-4 mb-5 grid gap-2" />
                <div className="mt-auto grid gap-2">{action}</div>
              </Card>
            </li>
          );
        })}
      </ul>
      <PlanChangeDialog change={change} state={state} onClose={() => setChange(null)} />
    </section>
  );
}
