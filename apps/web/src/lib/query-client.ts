import { QueryClient, type QueryFunction } from '@tanstack/react-query';

import { api } from './api-client';

/** A read keyed by path parts: ['/api/schemas'] or ['/api/validation-results', id]. */
const defaultQueryFn: QueryFunction = ({ queryKey }) => api.get(queryKey.map(String).join('/'));

// docs/product.md#the-validation-workspace: no retries, data never stale, no refetch on window focus, no polling.
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: defaultQueryFn,
        retry: false,
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
      },
      mutations: { retry: false },
    },
  });
}
