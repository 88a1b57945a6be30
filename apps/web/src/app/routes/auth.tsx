import type { PaidTier, SubscriptionTier } from '@schemacheck/contracts';
import { ShieldCheck, SlidersHorizontal, Zap } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router-dom';

import { SiteLayout } from '@/components/layouts/site-layout';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { LoginForm } from '@/features/auth/components/login-form';
import { RegisterForm } from '@/features/auth/components/register-form';
import { planParam, safeNext } from '@/lib/continue-to';
import { useCheckout } from '@/features/billing/api/billing';
import { usePageMeta } from '@/hooks/use-page-meta';
import { useUser } from '@/lib/auth';
import { toastOnError } from '@/lib/error-toast';

const reasons = [
  {
    icon: SlidersHorizontal,
    title: 'Custom rules for CSV and JSON',
    text: 'Define fields with strings, numbers, dates, emails, URLs and more: required values, lengths, ranges and patterns.',
  },
  {
    icon: Zap,
    title: 'Fast processing',
    text: 'Files are streamed and checked row by row, so even large exports come back quickly with a complete error report.',
  },
  {
    icon: ShieldCheck,
    title: 'Secure handling',
    text: 'Files are processed in memory over encrypted connections and deleted after validation. Your data is never stored permanently.',
  },
];

type Tab = 'signin' | 'register';

/**
 * A signed-in user on /auth (just signed in, or a bookmark): a free user who chose a paid plan
 * goes straight to its checkout; a paid user to the profile's plans (a change of plan is made
 * there); anyone else back to the deep link they came from, or the dashboard.
 */
function ContinueSignedIn({
  plan,
  next,
  tier,
}: {
  plan: PaidTier | null;
  next: string | null;
  tier: SubscriptionTier;
}) {
  const checkout = useCheckout();
  const started = useRef(false);
  const toCheckout = plan !== null && tier === 'free';
  useEffect(() => {
    if (!toCheckout || started.current) return;
    started.current = true;
    checkout.mutate(plan, {
      onError: toastOnError('Checkout failed', 'Failed to create checkout session.'),
    });
  }, [toCheckout, plan, checkout]);

  if (!toCheckout)
    return <Navigate to={plan ? paths.profile : (next ?? paths.dashboard)} replace />;
  if (checkout.isError) return <Navigate to={paths.profile} replace />;
  return (
    <SiteLayout footer="simple" showAuth={false} className="bg-zinc-50">
      <div className="flex flex-1 flex-col items-center justify-center gap-3 px-4 py-24">
        <Spinner className="size-6 text-indigo-600" />
        <p role="status" className="text-sm font-medium text-zinc-700">
          Taking you to checkout...
        </p>
      </div>
    </SiteLayout>
  );
}

export function AuthRoute() {
  const [searchParams, setSearchParams] = useSearchParams();
  // What to do after sign-in (docs/decisions/175): a plan's checkout, or a deep link.
  const plan = planParam(searchParams.get('plan'));
  const next = safeNext(searchParams.get('next'));
  // A pricing button opens Create Account; an explicit tab wins.
  const tab: Tab =
    searchParams.get('tab') === 'register' ||
    (plan !== null && searchParams.get('tab') !== 'signin')
      ? 'register'
      : 'signin';
  const { data: user } = useUser();
  // With a plan or a deep link, signing in renders ContinueSignedIn (the user is set at once).
  const onSignedIn = plan || next ? () => {} : undefined;

  usePageMeta({
    title: 'Sign In or Create an Account',
    description:
      'Sign in to SchemaCheck to validate CSV and JSON files against your schema, or create a free account to get started and save schemas.',
    keywords: ['sign in', 'create account', 'CSV validator', 'JSON validator', 'save schemas'],
    path: paths.auth,
  });

  // Already signed in (just now, an old bookmark, the back button): the form has nothing to offer.
  if (user) return <ContinueSignedIn plan={plan} next={next} tier={user.subscriptionTier} />;

  return (
    <SiteLayout footer="simple" showAuth={false} className="bg-zinc-50">
      <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 py-10 sm:px-6 sm:py-16 lg:grid-cols-[1fr_minmax(0,440px)] lg:py-6 lg:items-start lg:gap-16 lg:px-8">
        <div className="flex flex-col gap-6 lg:order-2">
          <Card className="p-6 sm:p-8">
            <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">
              {tab === 'register' ? 'Create your account' : 'Welcome back'}
            </h1>
            <p className="mt-1.5 text-sm text-zinc-600">
              {tab === 'register'
                ? 'Start validating files for free. No credit card needed.'
                : 'Sign in to validate files and manage your schemas.'}
            </p>
            <Tabs
              value={tab}
              onValueChange={(value) => {
                // Switching tabs keeps the plan and the deep link.
                const params = new URLSearchParams();
                if (value === 'register') params.set('tab', 'register');
                else if (plan) params.set('tab', 'signin');
                if (plan) params.set('plan', plan);
                if (next) params.set('next', next);
                setSearchParams(params, { replace: true });
              }}
              className="mt-6"
            >
              <TabsList aria-label="Sign in or create an account" className="grid-cols-2">
                <TabsTrigger value="signin">Sign In</TabsTrigger>
                <TabsTrigger value="register">Create Account</TabsTrigger>
              </TabsList>
              <TabsContent value="signin">
                <LoginForm onSignedIn={onSignedIn} />
              </TabsContent>
              <TabsContent value="register">
                <RegisterForm onSignedIn={onSignedIn} />
              </TabsContent>
            </Tabs>
          </Card>
          <p className="px-2 text-center text-xs leading-5 text-zinc-600">
            By signing in or creating an account, you agree to our{' '}
            <Link
              to={paths.terms}
              className="font-medium text-zinc-800 underline underline-offset-2 hover:text-zinc-950"
            >
              Terms of Service
            </Link>{' '}
            and{' '}
            <Link
              to={paths.privacy}
              className="font-medium text-zinc-800 underline underline-offset-2 hover:text-zinc-950"
            >
              Privacy Policy
            </Link>
            .
          </p>
        </div>

        <section aria-labelledby="why-heading" className="lg:order-1 lg:pt-10">
          <p className="text-sm font-semibold uppercase tracking-wider text-indigo-700">
            Validate before you import
          </p>
          <h2
            id="why-heading"
            className="mt-3 text-2xl font-semibold tracking-tight text-zinc-900 sm:text-3xl"
          >
            Why Choose SchemaCheck?
          </h2>
          <p className="mt-3 max-w-lg text-base leading-7 text-zinc-600">
            Catch header, type and format problems by row and column before a bad file reaches your
            database, store or accounting system.
          </p>
          <ul className="mt-8 grid gap-6">
            {reasons.map(({ icon: Icon, title, text }) => (
              <li key={title} className="flex gap-4">
                <span
                  aria-hidden="true"
                  className="flex size-10 shrink-0 items-center justify-center rounded-lg border border-indigo-100 bg-white text-indigo-600 shadow-xs"
                >
                  <Icon className="size-5" />
                </span>
                <div>
                  <h3 className="text-sm font-semibold text-zinc-900">{title}</h3>
                  <p className="mt-1 max-w-md text-sm leading-6 text-zinc-600">{text}</p>
                </div>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </SiteLayout>
  );
}
