import type { LoginInput } from '@schemacheck/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { setSignedInUser } from '@/lib/auth';

export interface AuthResponse {
  user?: { username?: string } & Record<string, unknown>;
}

export function login(input: LoginInput): Promise<AuthResponse> {
  return api.post<AuthResponse>('/api/auth/login', input);
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (response) => setSignedInUser(queryClient, response),
  });
}
