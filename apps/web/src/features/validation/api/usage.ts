import type { UsageResponse } from '@schemacheck/contracts';
import { useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export const USAGE_KEY = ['/api/auth/usage'] as const;

/** GET /api/auth/usage: this month's validations. */
export function useUsage(enabled = true) {
  return useQuery({
    queryKey: USAGE_KEY,
    queryFn: () => api.get<UsageResponse>('/api/auth/usage'),
    enabled,
  });
}
