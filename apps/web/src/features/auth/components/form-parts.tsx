// Pieces the sign-in, registration and password forms share.
import type { ComponentProps, ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { Spinner } from '@/components/ui/spinner';

/** The form's submit button: a spinner and `pendingLabel` while its request runs. */
export function SubmitButton({
  pending,
  pendingLabel,
  className,
  children,
}: {
  pending: boolean;
  pendingLabel: string;
  className: string;
  children: ReactNode;
}) {
  return (
    <Button type="submit" size="lg" className={className} disabled={pending}>
      {pending ? <Spinner /> : null}
      {pending ? pendingLabel : children}
    </Button>
  );
}

/** An account's email address. */
export function EmailInput(props: Omit<ComponentProps<typeof Input>, 'type'>) {
  return (
    <Input
      {...props}
      type="email"
      autoComplete="email"
      autoCapitalize="none"
      spellCheck={false}
      placeholder="you@company.com"
    />
  );
}

/** A new password typed a second time. */
export function ConfirmPasswordInput(
  props: Omit<ComponentProps<typeof PasswordInput>, 'autoComplete' | 'toggleLabel'>,
) {
  return <PasswordInput {...props} autoComplete="new-password" toggleLabel="confirm password" />;
}
