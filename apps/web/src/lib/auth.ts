import { PLANS, type PublicUser } from '@schemacheck/contracts';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';

import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';

import { adoptCsrfToken, api, ApiError, clearCsrfToken } from './api-client';

// The signed-in user, shared by the header, the guard and every feature (bulletproof-react keeps
// this in lib/ so that shared layouts can read it without importing a feature).

export const CURRENT_USER_KEY = ['/api/auth/me'] as const;
const CURRENT_USER_STALE_MS = 5 * 60 * 1000;

/**
 * contracts' publicUserSchema, checked by hand: this module is on every page and zod loads only
 * with the pages that have forms.
 */
export function toPublicUser(value: unknown): PublicUser | null {
  if (typeof value !== 'object' || value === null) return null;
  const { username, email, subscriptionTier } = value as Record<string, unknown>;
  if (typeof username !== 'string' || typeof email !== 'string') return null;
  if (typeof subscriptionTier !== 'string' || !Object.hasOwn(PLANS, subscriptionTier)) return null;
  return { username, email, subscriptionTier: subscriptionTier as PublicUser['subscriptionTier'] };
}

/**
 * GET /api/auth/me: `{user}` when signed in, `{user: null}` when not (the server answers 200
 * either way, so a signed-out page logs no failed request). A 401 still means signed out.
 */
export async function getCurrentUser(): Promise<PublicUser | null> {
  try {
    const response = await api.get<{ user?: unknown } | null>('/api/auth/me');
    if (response?.user === null) return null;
    const user = toPublicUser(response?.user);
    if (!user) throw new Error('Unexpected response from /api/auth/me');
    return user;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function useUser() {
  return useQuery({
    queryKey: CURRENT_USER_KEY,
    queryFn: getCurrentUser,
    staleTime: CURRENT_USER_STALE_MS,
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** After login or registration: the server rotated the session and its CSRF token. */
export function setSignedInUser(queryClient: QueryClient, response: unknown): void {
  adoptCsrfToken(response);
  const user = toPublicUser((response as { user?: unknown } | null)?.user);
  if (user) queryClient.setQueryData(CURRENT_USER_KEY, user);
  else void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
}

/** After logout or account deletion: forget everything that belonged to the user. */
export function clearSignedInUser(queryClient: QueryClient, response?: unknown): void {
  if (response === undefined) clearCsrfToken();
  else adoptCsrfToken(response);
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== CURRENT_USER_KEY[0] });
  queryClient.setQueryData(CURRENT_USER_KEY, null);
}

export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => api.post<unknown>('/api/auth/logout'),
    onSuccess: (response) => {
      navigate(paths.auth);
      clearSignedInUser(queryClient, response);
      toast({ title: 'Logged out' });
    },
    onError: () => {
      toast({
        variant: 'destructive',
        title: 'Logout failed',
        description: 'There was an error logging out.',
      });
    },
  });
}

/** API documentation and API keys are for these tiers (docs/product.md#plans-and-limits). */
export function hasApiAccess(user: PublicUser | null | undefined): boolean {
  return user ? PLANS[user.subscriptionTier].limits.apiAccess : false;
}
