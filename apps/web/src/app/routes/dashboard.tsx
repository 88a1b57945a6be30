import { BookOpen, LifeBuoy } from 'lucide-react';
import { Link } from 'react-router-dom';

import { SiteLayout } from '@/components/layouts/site-layout';
import { Badge } from '@/components/ui/badge';
import { buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { AuthGuard } from '@/features/auth/components/auth-guard';
import { PastDueBanner } from '@/features/billing/components/past-due-banner';
import { RecentJobs } from '@/features/jobs/components/recent-jobs';
import { Workspace } from '@/features/validation/components/workspace';
import { usePageMeta } from '@/hooks/use-page-meta';
import { useUser } from '@/lib/auth';
import { PLANS } from '@schemacheck/contracts';

function Dashboard() {
  const { data: user } = useUser();
  if (!user) return null;
  const plan = PLANS[user.subscriptionTier];
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 sm:py-10 lg:px-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-zinc-900 sm:text-3xl">
            Welcome, {user.username}
          </h1>
          <p className="mt-1.5 text-sm text-zinc-600">
            Validate CSV and JSON files against your schema before you import them.
          </p>
        </div>
        <Badge variant="neutral" className="self-start sm:self-auto">
          {plan.label} plan
        </Badge>
      </div>

      <PastDueBanner className="mt-6" />
      {/* A pipeline's jobs first, where its owner looks (Business and Enterprise only). */}
      <RecentJobs user={user} className="mt-8" />
      <div className="mt-8">
        <Workspace user={user} />
      </div>

      <Card className="mt-10">
        <div className="flex flex-col gap-4 p-6 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 className="text-base font-semibold text-zinc-900">Need help?</h2>
            <p className="mt-1 text-sm text-zinc-600">
              Read the API documentation or get in touch with support.
            </p>
          </div>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Link to={paths.apiDocs} className={buttonVariants({ variant: 'outline' })}>
              <BookOpen aria-hidden="true" />
              View Documentation
            </Link>
            <Link to={paths.help} className={buttonVariants({ variant: 'outline' })}>
              <LifeBuoy aria-hidden="true" />
              Contact Support
            </Link>
          </div>
        </div>
      </Card>
    </div>
  );
}

export function DashboardRoute() {
  usePageMeta({
    title: 'Dashboard',
    description: 'Your SchemaCheck workspace for validating CSV and JSON files.',
    keywords: ['SchemaCheck dashboard', 'validate CSV', 'validate JSON', 'saved schemas'],
    path: paths.dashboard,
    noindex: true,
  });
  return (
    <AuthGuard>
      <SiteLayout footer="simple" className="bg-zinc-50">
        <Dashboard />
      </SiteLayout>
    </AuthGuard>
  );
}
