import type { JobV1 } from '@schemacheck/contracts';
import { useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

// The dashboard's view of jobs started through the API: the latest ten, refreshed every few
// seconds only while one of them is still queued or running.

export const jobsQueryKey = ['jobs'] as const;
const ACTIVE_REFRESH_MS = 3000;

export function useRecentJobs(enabled: boolean) {
  return useQuery({
    queryKey: jobsQueryKey,
    queryFn: () => api.get<{ data: JobV1[] }>('/api/jobs'),
    enabled,
    refetchInterval: (query) =>
      query.state.data?.data.some((j) => j.status === 'queued' || j.status === 'running')
        ? ACTIVE_REFRESH_MS
        : false,
  });
}
