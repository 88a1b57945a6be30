import type { ResetPasswordInput } from '@schemacheck/contracts';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export function resetPassword(input: ResetPasswordInput): Promise<unknown> {
  return api.post<unknown>('/api/auth/reset-password', input);
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
