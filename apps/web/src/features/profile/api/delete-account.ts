import type { DeleteAccountInput } from '@schemacheck/contracts';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export function deleteAccount(input: DeleteAccountInput): Promise<unknown> {
  return api.post<unknown>('/api/delete-account', input);
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
