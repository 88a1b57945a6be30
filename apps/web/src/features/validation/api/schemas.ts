import type { SavedSchema, SavedSchemaInput, SavedSchemaResponse } from '@schemacheck/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export const SCHEMAS_KEY = ['/api/schemas'] as const;

/** The list may come bare or wrapped ({ schemas: [...] }); both are read. */
function toList(response: unknown): SavedSchema[] {
  if (Array.isArray(response)) return response as SavedSchema[];
  const wrapped = (response as { schemas?: unknown } | null)?.schemas;
  return Array.isArray(wrapped) ? (wrapped as SavedSchema[]) : [];
}

/** GET /api/schemas: the user's saved schemas (paid plans only). */
export function useSavedSchemas(enabled: boolean) {
  return useQuery({
    queryKey: SCHEMAS_KEY,
    queryFn: async () => toList(await api.get<unknown>('/api/schemas')),
    enabled,
  });
}

function toSchema(response: unknown): SavedSchemaResponse {
  const wrapped = (response as { schema?: unknown } | null)?.schema;
  return (wrapped ?? response) as SavedSchemaResponse;
}

/** POST /api/schemas, or PATCH /api/schemas/{id} to overwrite a loaded one. */
export function useSaveSchema() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id?: string | undefined; input: SavedSchemaInput }) =>
      toSchema(
        id
          ? await api.patch<unknown>(`/api/schemas/${encodeURIComponent(id)}`, input)
          : await api.post<unknown>('/api/schemas', input),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SCHEMAS_KEY }),
  });
}

export function useDeleteSchema() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<unknown>(`/api/schemas/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SCHEMAS_KEY }),
  });
}
