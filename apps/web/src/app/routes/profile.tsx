import { SiteLayout } from '@/components/layouts/site-layout';
import { paths } from '@/config/paths';
import { ApiKeysSection } from '@/features/api-keys/components/api-keys-section';
import { AuthGuard } from '@/features/auth/components/auth-guard';
import { PastDueBanner } from '@/features/billing/components/past-due-banner';
import { AccountDetailsCard } from '@/features/profile/components/account-details-card';
import { CurrentPlanCard } from '@/features/billing/components/current-plan-card';
import { ListsSection } from '@/features/lists/components/lists-section';
import { DangerZone } from '@/features/profile/components/danger-zone';
import { PlansGrid } from '@/features/billing/components/plans-grid';
import { WebhooksSection } from '@/features/webhooks/components/webhooks-section';
import { usePageMeta } from '@/hooks/use-page-meta';
import { useUser } from '@/lib/auth';

function Profile() {
  const { data: user } = useUser();
  if (!user) return null;
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
      <h1 className="text-2xl font-semibold tracking-tight text-zinc-900 sm:text-3xl">Profile</h1>
      <p className="mt-1.5 text-sm text-zinc-600">Manage your account and your plan.</p>
      <PastDueBanner className="mt-6" />
      <div className="mt-8 grid gap-6 lg:grid-cols-2">
        <CurrentPlanCard user={user} />
        <AccountDetailsCard user={user} />
      </div>
      <div className="mt-10">
        <PlansGrid currentTier={user.subscriptionTier} />
      </div>
      <ListsSection user={user} className="mt-10" />
      <ApiKeysSection user={user} className="mt-10" />
      <WebhooksSection user={user} className="mt-10" />
      <div className="mt-10">
        <DangerZone />
      </div>
    </div>
  );
}

export function ProfileRoute() {
  usePageMeta({
    title: 'Profile',
    description: 'Your SchemaCheck account details and plan.',
    keywords: ['SchemaCheck account', 'subscription', 'API keys', 'webhooks'],
    path: paths.profile,
    noindex: true,
  });
  return (
    <AuthGuard>
      <SiteLayout footer="simple" className="bg-zinc-50">
        <Profile />
      </SiteLayout>
    </AuthGuard>
  );
}
