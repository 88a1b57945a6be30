import { PLANS, SUBSCRIPTION_TIERS, type SubscriptionTier } from '@schemacheck/contracts';
import { Check } from 'lucide-react';

import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { SALES_EMAIL } from '@/config/site';
import { formatPlanPrice, planFeatures } from '@/lib/plan-display';

/** Every plan from contracts' PLANS. Changing plan arrives with billing; until then it says so. */
export function PlansGrid({ currentTier }: { currentTier: SubscriptionTier }) {
  return (
    <section aria-labelledby="plans-heading">
      <div className="mb-4">
        <h2 id="plans-heading" className="text-lg font-semibold tracking-tight text-zinc-900">
          Available plans
        </h2>
        <p className="mt-1 text-sm text-zinc-600">
          Compare what each plan includes. Prices are in pounds (GBP), billed monthly.
        </p>
      </div>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {SUBSCRIPTION_TIERS.map((tier) => {
          const plan = PLANS[tier];
          const price = formatPlanPrice(plan);
          const current = tier === currentTier;
          const noteId = `plan-${tier}-note`;
          return (
            <li key={tier}>
              <Card
                variant={current ? 'highlight' : 'default'}
                className="flex h-full flex-col p-5"
              >
                <div className="flex items-center justify-between gap-2">
                  <h3 className="text-base font-semibold text-zinc-900">{plan.label}</h3>
                  {current ? <Badge>Current plan</Badge> : null}
                </div>
                <p className="mt-2 flex items-baseline gap-1">
                  <span className="text-2xl font-semibold tracking-tight text-zinc-900">
                    {price.amount}
                  </span>
                  {price.period ? (
                    <span className="text-sm text-zinc-600">{price.period}</span>
                  ) : null}
                </p>
                <ul className="mt-4 mb-5 grid gap-2">
                  {planFeatures(plan).map((line) => (
                    <li key={line} className="flex items-start gap-2 text-sm text-zinc-700">
                      <Check
                        aria-hidden="true"
                        className="mt-0.5 size-4 shrink-0 text-indigo-600"
                      />
                      {line}
                    </li>
                  ))}
                </ul>
                <div className="mt-auto grid gap-2">
                  {current ? (
                    <Button variant="secondary" disabled className="w-full">
                      Your current plan
                    </Button>
                  ) : plan.pricePence === null ? (
                    <a
                      href={`mailto:${SALES_EMAIL}?subject=${encodeURIComponent('SchemaCheck Enterprise')}`}
                      className={buttonVariants({ variant: 'outline', className: 'w-full' })}
                    >
                      Contact Sales
                    </a>
                  ) : (
                    <>
                      <Button
                        variant="outline"
                        disabled
                        aria-describedby={noteId}
                        className="w-full"
                      >
                        {SUBSCRIPTION_TIERS.indexOf(tier) > SUBSCRIPTION_TIERS.indexOf(currentTier)
                          ? `Upgrade to ${plan.label}`
                          : `Switch to ${plan.label}`}
                      </Button>
                      <p id={noteId} className="text-center text-xs text-zinc-600">
                        Coming soon: online plan changes are on their way.
                      </p>
                    </>
                  )}
                </div>
              </Card>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
