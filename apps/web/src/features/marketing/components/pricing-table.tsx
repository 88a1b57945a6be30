import type { PaidTier } from '@schemacheck/contracts';
import { Link } from 'react-router-dom';

import { Badge } from '@/components/ui/badge';
import { buttonVariants } from '@/components/ui/button';
import { CheckList } from '@/components/ui/check-list';
import { paths } from '@/config/paths';
import { SALES_EMAIL } from '@/config/site';
import { authHref } from '@/lib/continue-to';
import { cn } from '@/lib/utils';

import { orderedPlans, PLAN_PITCH, planFeatures, priceText } from '../lib/plan-copy';

/** The four plans as cards, from the plans module; Enterprise is a mail link to sales. */
export function PricingTable({ headingLevel = 3 }: { headingLevel?: 3 | 4 }) {
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  return (
    <ul className="grid gap-6 sm:grid-cols-2 xl:grid-cols-4">
      {orderedPlans().map((plan) => {
        const featured = plan.tier === 'pro';
        return (
          <li
            key={plan.tier}
            className={cn(
              'flex flex-col rounded-2xl border bg-white p-6 shadow-xs',
              featured ? 'border-indigo-300 ring-1 ring-indigo-300' : 'border-zinc-200',
            )}
          >
            <div className="flex items-center justify-between gap-2">
              <Heading className="text-lg font-semibold text-zinc-900">{plan.label}</Heading>
              {featured ? <Badge>Most popular</Badge> : null}
            </div>
            <p className="mt-1 text-sm text-zinc-600">{PLAN_PITCH[plan.tier]}</p>
            <p className="mt-5 flex items-baseline gap-1">
              <span className="text-4xl font-semibold tracking-tight text-zinc-900">
                {priceText(plan)}
              </span>
              {plan.pricePence === null ? null : (
                <span className="text-sm text-zinc-600">/month</span>
              )}
            </p>
            <p className="mt-1 text-xs text-zinc-600">
              {plan.pricePence === 0
                ? 'Free for ever, no card needed'
                : plan.pricePence === null
                  ? 'Priced for your volumes'
                  : 'Billed monthly in advance, GBP'}
            </p>
            <CheckList items={planFeatures(plan)} className="mt-6 flex flex-1 flex-col gap-2.5" />
            {plan.tier === 'enterprise' ? (
              <a
                href={`mailto:${SALES_EMAIL}?subject=${encodeURIComponent('SchemaCheck Enterprise')}`}
                className={buttonVariants({ variant: 'outline', className: 'mt-8 w-full' })}
              >
                Contact Sales
              </a>
            ) : (
              <Link
                // A paid plan's button carries the plan: /auth opens Create Account and goes on to
                // its checkout after sign-up or sign-in, or at once when already signed in.
                to={
                  plan.tier === 'free'
                    ? paths.auth
                    : authHref({ tab: 'register', plan: plan.tier as PaidTier })
                }
                className={buttonVariants({
                  variant: featured ? 'default' : 'outline',
                  className: 'mt-8 w-full',
                })}
                aria-label={`${plan.tier === 'free' ? 'Start free' : `Choose ${plan.label}`}: ${plan.label} plan`}
              >
                {plan.tier === 'free' ? 'Start free' : `Choose ${plan.label}`}
              </Link>
            )}
          </li>
        );
      })}
    </ul>
  );
}
