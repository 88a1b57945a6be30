import type { RegisterInput } from '@schemacheck/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { setSignedInUser } from '@/lib/auth';

import type { AuthResponse } from './login';

/** confirmPassword is checked by the form and never sent. */
export function register(input: RegisterInput): Promise<AuthResponse> {
  return api.post<AuthResponse>('/api/auth/register', input);
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (response) => setSignedInUser(queryClient, response),
  });
}
