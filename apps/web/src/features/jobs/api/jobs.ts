import type { JobV1 } from '@schemacheck/contracts';
import { useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

// The dashboard's view of jobs started through the API: the latest ten, refreshed while the page
// is visible (react-query pauses the interval in a hidden tab), so that a job a pipeline posts
// shows within 5 s without a click; faster while one is queued or running, to follow its progress.

export const jobsQueryKey = ['jobs'] as const;
const ACTIVE_REFRESH_MS = 2000;
const IDLE_REFRESH_MS = 4000;

export function useRecentJobs(enabled: boolean) {
  return useQuery({
    queryKey: jobsQueryKey,
    queryFn: () => api.get<{ data: JobV1[] }>('/api/jobs'),
    enabled,
    refetchInterval: (query) =>
      query.state.data?.data.some((j) => j.status === 'queued' || j.status === 'running')
        ? ACTIVE_REFRESH_MS
        : IDLE_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
}
