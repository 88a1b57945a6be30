import type { ForgotPasswordInput } from '@schemacheck/contracts';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export function requestPasswordReset(input: ForgotPasswordInput): Promise<unknown> {
  return api.post<unknown>('/api/auth/forgot-password', input);
}

export function useForgotPassword() {
  return useMutation({ mutationFn: requestPasswordReset });
}
