import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * A mutation that refetches what it changed: the queries under `invalidates`, a key or one worked
 * out from the mutation's variables. The mutation stays pending until that refetch is done, so a
 * list never shows the old state after a success toast.
 */
export function useInvalidatingMutation<TData, TVariables = void>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  invalidates: QueryKey | ((variables: TVariables) => QueryKey),
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (_data, variables) =>
      queryClient.invalidateQueries({
        queryKey: typeof invalidates === 'function' ? invalidates(variables) : invalidates,
      }),
  });
}
