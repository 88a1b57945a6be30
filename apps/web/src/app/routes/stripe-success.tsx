import { PLANS } from '@schemacheck/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert, CircleCheck, LogIn } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';

import { SiteLayout } from '@/components/layouts/site-layout';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { authHref } from '@/lib/continue-to';
import { SUPPORT_EMAIL } from '@/config/site';
import { refreshBilling, verifyCheckoutSession } from '@/features/billing/api/billing';
import { usePageMeta } from '@/hooks/use-page-meta';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';

// The payment return page (Stripe's success_url): it asks the server to verify the Checkout
// Session, which runs the same sync as the webhook, so the plan is active even if the webhook is
// late. Four states: loading, success (then the dashboard after 3 seconds), unauthenticated,
// error (no session_id, a non-OK answer, success false, or an exception).

const REDIRECT_MS = 3000;

type State =
  | { kind: 'loading' }
  | { kind: 'success'; tier: string }
  | { kind: 'unauthenticated' }
  | { kind: 'error' };

function Panel({
  icon,
  title,
  children,
  action,
}: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-lg px-4 py-16 sm:py-24">
      <Card className="p-8 text-center" data-testid="payment-status">
        <div className="mx-auto flex size-12 items-center justify-center">{icon}</div>
        <h1 className="mt-4 text-2xl font-semibold tracking-tight text-zinc-900">{title}</h1>
        <div className="mt-2 text-sm text-zinc-600">{children}</div>
        {action ? <div className="mt-6 flex justify-center">{action}</div> : null}
      </Card>
    </div>
  );
}

export function StripeSuccessRoute() {
  usePageMeta({
    title: 'Payment Confirmation',
    description: 'Confirmation of your SchemaCheck subscription after checkout.',
    keywords: ['SchemaCheck subscription', 'payment confirmation', 'checkout'],
    path: paths.stripeSuccess,
    noindex: true,
  });
  const [params] = useSearchParams();
  const sessionId = params.get('session_id');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [state, setState] = useState<State>(sessionId ? { kind: 'loading' } : { kind: 'error' });
  const started = useRef(false);

  useEffect(() => {
    if (!sessionId) {
      // On the next task: the toaster subscribes in an effect that runs after this one.
      const timer = setTimeout(() =>
        toast({
          variant: 'destructive',
          title: 'Verification Failed',
          description: "We couldn't verify your payment. Please contact support.",
        }),
      );
      return () => clearTimeout(timer);
    }
    // One verification per visit (development's double effects must not ask twice).
    if (started.current) return;
    started.current = true;
    verifyCheckoutSession(sessionId)
      .then(async (result) => {
        if (!result.success) throw new Error('not verified');
        const tier = PLANS[result.tier].label;
        await refreshBilling(queryClient);
        setState({ kind: 'success', tier });
        toast({
          title: 'Subscription Activated!',
          description: `Your ${tier} plan is now active.`,
        });
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 401) {
          setState({ kind: 'unauthenticated' });
          toast({
            title: 'Please Log In',
            description: 'Sign in to see the state of this payment.',
          });
          return;
        }
        setState({ kind: 'error' });
        toast({
          variant: 'destructive',
          title: 'Verification Failed',
          description: "We couldn't verify your payment. Please contact support.",
        });
      });
  }, [sessionId, queryClient]);

  useEffect(() => {
    if (state.kind !== 'success') return;
    const timer = setTimeout(() => navigate(paths.dashboard), REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [state.kind, navigate]);

  let content: ReactNode;
  switch (state.kind) {
    case 'loading':
      content = (
        <Panel
          icon={<Spinner className="size-8 text-indigo-600" />}
          title="Processing Your Payment"
        >
          <p role="status">Please wait while we verify your subscription...</p>
        </Panel>
      );
      break;
    case 'success':
      content = (
        <Panel
          icon={<CircleCheck aria-hidden="true" className="size-12 text-green-600" />}
          title="Payment Successful!"
          action={
            <Button size="lg" onClick={() => navigate(paths.dashboard)}>
              Go to Dashboard
            </Button>
          }
        >
          <p>
            Your <strong className="text-zinc-900">{state.tier}</strong> plan is now active.
          </p>
          <p className="mt-1" role="status">
            Redirecting to your dashboard in 3 seconds...
          </p>
        </Panel>
      );
      break;
    case 'unauthenticated':
      content = (
        <Panel
          icon={<LogIn aria-hidden="true" className="size-12 text-indigo-600" />}
          title="Please Log In"
          action={
            <Link
              to={authHref({ next: `${paths.stripeSuccess}?${params.toString()}` })}
              className={buttonVariants({ size: 'lg' })}
            >
              Sign In
            </Link>
          }
        >
          {/* Signed out, nothing about the payment is known here: an unverified session_id
              must not be announced as a success (docs/decisions/175). */}
          <p>Signing in will show the state of this payment.</p>
        </Panel>
      );
      break;
    case 'error':
      content = (
        <Panel
          icon={<CircleAlert aria-hidden="true" className="size-12 text-red-600" />}
          title="Payment Verification Failed"
          action={
            <Link to={paths.profile} className={buttonVariants({ size: 'lg' })}>
              Go to Profile
            </Link>
          }
        >
          <p>We couldn&apos;t verify your payment. If you were charged, please contact support.</p>
          <p className="mt-1">
            <a className="text-indigo-700 underline" href={`mailto:${SUPPORT_EMAIL}`}>
              {SUPPORT_EMAIL}
            </a>
          </p>
        </Panel>
      );
      break;
  }

  return (
    <SiteLayout footer="simple" className="bg-zinc-50">
      {content}
    </SiteLayout>
  );
}
