import type {
  ChangeSubscriptionRequest,
  CheckoutSessionResult,
  PaidTier,
  PlanChangePreview,
  RedirectResponse,
  SubscriptionState,
} from '@schemacheck/contracts';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { toastOnError } from '@/lib/error-toast';
import { CURRENT_USER_KEY } from '@/lib/auth';

// Every billing call of the web app (the server's routes/billing.ts). After any change the plan,
// the signed-in user and the usage figures are read again: the server is the only source.

export const SUBSCRIPTION_KEY = ['/api/auth/subscription'] as const;
const USAGE_KEY = ['/api/auth/usage'] as const;

export function refreshBilling(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_KEY }),
    queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY }),
    queryClient.invalidateQueries({ queryKey: USAGE_KEY }),
  ]);
}

export function useSubscription(enabled = true) {
  return useQuery({
    queryKey: SUBSCRIPTION_KEY,
    queryFn: () => api.get<SubscriptionState>('/api/auth/subscription'),
    retry: false,
    refetchOnWindowFocus: false,
    enabled,
  });
}

/** POST /api/create-checkout-session: the browser then goes to Stripe's page. */
export function useCheckout() {
  return useMutation({
    mutationFn: (tier: PaidTier) =>
      api.post<RedirectResponse>('/api/create-checkout-session', { tier }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

export function previewPlanChange(tier: PaidTier): Promise<PlanChangePreview> {
  return api.post<PlanChangePreview>('/api/auth/subscription/preview', { tier });
}

export function usePlanChangePreview(tier: PaidTier | null) {
  return useQuery({
    queryKey: ['/api/auth/subscription/preview', tier],
    queryFn: () => previewPlanChange(tier!),
    enabled: tier !== null,
    retry: false,
    refetchOnWindowFocus: false,
    gcTime: 0,
  });
}

function useBillingChange<T>(fn: (input: T) => Promise<SubscriptionState>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (state) => {
      queryClient.setQueryData(SUBSCRIPTION_KEY, state);
      void refreshBilling(queryClient);
    },
  });
}

export function useChangePlan() {
  return useBillingChange((input: ChangeSubscriptionRequest) =>
    api.patch<SubscriptionState>('/api/auth/subscription', input),
  );
}

export function useCancelSubscription() {
  return useBillingChange(() => api.post<SubscriptionState>('/api/cancel-subscription'));
}

export function useResumeSubscription() {
  return useBillingChange(() => api.post<SubscriptionState>('/api/resume-subscription'));
}

/** Stripe's Customer Portal (the card and invoices); test mode's own page without keys. */
export function useBillingPortal() {
  return useMutation({
    mutationFn: () => api.post<RedirectResponse>('/api/billing-portal'),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: toastOnError('Update failed', 'Could not open the billing page.'),
  });
}

export function verifyCheckoutSession(sessionId: string): Promise<CheckoutSessionResult> {
  return api.get<CheckoutSessionResult>(`/api/stripe/session/${encodeURIComponent(sessionId)}`);
}
