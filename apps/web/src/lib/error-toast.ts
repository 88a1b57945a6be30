import { toast } from '@/hooks/use-toast';

import { getErrorMessage } from './api-client';

/**
 * A mutation's onError: a red toast titled with what failed, saying why in the server's words, or
 * `fallback` when it gave none.
 */
export function toastOnError(title: string, fallback = 'Please try again.') {
  return (error: unknown) =>
    toast({ variant: 'destructive', title, description: getErrorMessage(error, fallback) });
}
