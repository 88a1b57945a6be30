import { PLANS, type PublicUser } from '@schemacheck/contracts';
import { Check, Sparkles } from 'lucide-react';

import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatPlanPrice, planFeatures } from '@/lib/plan-display';

export function CurrentPlanCard({ user }: { user: PublicUser }) {
  const plan = PLANS[user.subscriptionTier];
  const price = formatPlanPrice(plan);
  return (
    <Card>
      <CardHeader>
        <div className="flex items-center justify-between gap-3">
          <CardTitle id="current-plan-heading">Current plan</CardTitle>
          <Badge>
            <Sparkles aria-hidden="true" className="size-3" />
            Active
          </Badge>
        </div>
        <CardDescription>What your account can do today.</CardDescription>
      </CardHeader>
      <CardContent>
        <p className="flex items-baseline gap-2">
          <span className="text-2xl font-semibold tracking-tight text-zinc-900">{plan.label}</span>
          <span className="text-sm text-zinc-600">
            {price.amount}
            {price.period}
          </span>
        </p>
        <ul className="mt-4 grid gap-2">
          {planFeatures(plan).map((line) => (
            <li key={line} className="flex items-start gap-2 text-sm text-zinc-700">
              <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-indigo-600" />
              {line}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
