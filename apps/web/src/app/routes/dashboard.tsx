import { BookOpen, FileSpreadsheet, LifeBuoy, ListChecks, Upload } from 'lucide-react';
import { Link } from 'react-router-dom';

import { SiteLayout } from '@/components/layouts/site-layout';
import { Badge } from '@/components/ui/badge';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { AuthGuard } from '@/features/auth/components/auth-guard';
import { usePageMeta } from '@/hooks/use-page-meta';
import { useUser } from '@/lib/auth';
import { PLANS } from '@schemacheck/contracts';

const steps = [
  { icon: ListChecks, title: 'Define a schema', text: 'Fields, types, required values and rules.' },
  { icon: Upload, title: 'Drop a file', text: 'A CSV or JSON file, straight from your export.' },
  { icon: FileSpreadsheet, title: 'Review every error', text: 'By row and column, ready to fix.' },
];

function Dashboard() {
  const { data: user } = useUser();
  if (!user) return null;
  const plan = PLANS[user.subscriptionTier];
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
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

      <Card variant="dashed" className="mt-8">
        <CardHeader>
          <CardTitle>Validation workspace</CardTitle>
          <CardDescription>
            The workspace for defining schemas, uploading files and reviewing results arrives in the
            next release. Your account is ready for it.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ol className="grid gap-4 sm:grid-cols-3">
            {steps.map(({ icon: Icon, title, text }, index) => (
              <li
                key={title}
                className="flex gap-3 rounded-lg border border-zinc-200 bg-zinc-50 p-4"
              >
                <span
                  aria-hidden="true"
                  className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-white text-indigo-600 shadow-xs ring-1 ring-zinc-200"
                >
                  <Icon className="size-[18px]" />
                </span>
                <div>
                  <p className="text-sm font-semibold text-zinc-900">
                    <span className="sr-only">Step {index + 1}: </span>
                    {title}
                  </p>
                  <p className="mt-0.5 text-sm text-zinc-600">{text}</p>
                </div>
              </li>
            ))}
          </ol>
        </CardContent>
      </Card>

      <Card className="mt-6">
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
