import type { ApiKeyItem, CreateApiKeyInput, CreatedApiKey } from '@schemacheck/contracts';
import { useQuery } from '@tanstack/react-query';

import { useInvalidatingMutation } from '@/hooks/use-invalidating-mutation';
import { api } from '@/lib/api-client';

// The profile's API key calls: list, create (the whole key in this answer only), revoke.

export const apiKeysQueryKey = ['api-keys'] as const;

export function useApiKeys() {
  return useQuery({
    queryKey: apiKeysQueryKey,
    queryFn: () => api.get<ApiKeyItem[]>('/api/api-keys'),
  });
}

export function useCreateApiKey() {
  return useInvalidatingMutation(
    (input: CreateApiKeyInput) => api.post<CreatedApiKey>('/api/api-keys', input),
    apiKeysQueryKey,
  );
}

export function useRevokeApiKey() {
  return useInvalidatingMutation(
    (id: string) => api.delete<ApiKeyItem>(`/api/api-keys/${encodeURIComponent(id)}`),
    apiKeysQueryKey,
  );
}
