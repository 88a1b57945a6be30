import type { ResetPasswordInput } from '@schemacheck/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { clearSignedInUser } from '@/lib/auth';

export function resetPassword(input: ResetPasswordInput): Promise<unknown> {
  return api.post<unknown>('/api/auth/reset-password', input);
}

export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    // The server ends every session of the account, this browser's included.
    onSuccess: () => clearSignedInUser(queryClient),
  });
}
