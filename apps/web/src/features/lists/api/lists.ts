import type { ListsResponse, ListSummaryV1 } from '@schemacheck/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

// The Profile page's reference lists (/api/lists, docs/decisions/200).

export const LISTS_KEY = ['/api/lists'] as const;

export function useLists() {
  return useQuery({ queryKey: LISTS_KEY, queryFn: () => api.get<ListsResponse>('/api/lists') });
}

/** A .txt (one value a line) or .csv (its first column) file as a list of that name. */
export function useUploadList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, file }: { name: string; file: File }) => {
      const form = new FormData();
      form.append('name', name);
      form.append('file', file, file.name);
      return api.post<ListSummaryV1>('/api/lists', form);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LISTS_KEY }),
  });
}

export function useDeleteList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.delete<unknown>(`/api/lists/${encodeURIComponent(name)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LISTS_KEY }),
  });
}

/** A new name; the values are kept (PATCH /api/lists/:list). */
export function useRenameList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ list, name }: { list: string; name: string }) =>
      api.patch<ListSummaryV1>(`/api/lists/${encodeURIComponent(list)}`, { name }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LISTS_KEY }),
  });
}
