import { zodResolver } from '@hookform/resolvers/zod';
import { resetPasswordFormSchema } from '@schemacheck/contracts';
import { CircleCheck, LockKeyhole } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';

import { buttonVariants } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { ApiError, getErrorMessage } from '@/lib/api-client';

import { useResetPassword } from '../api/reset-password';

import { AuthCardHeading } from './auth-card-layout';
import { ConfirmPasswordInput, SubmitButton } from './form-parts';
import { InvalidResetLink } from './invalid-reset-link';

export function ResetPasswordForm({ token }: { token: string }) {
  const [done, setDone] = useState(false);
  // The server refused the token (used, expired or unknown): the form cannot succeed any more.
  const [linkInvalid, setLinkInvalid] = useState(false);
  const reset = useResetPassword();
  const doneRef = useRef<HTMLDivElement>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });

  useEffect(() => {
    if (done) doneRef.current?.focus();
  }, [done]);

  const onSubmit = handleSubmit(({ password }) =>
    reset.mutate(
      { token, password },
      {
        onSuccess: () => {
          setDone(true);
          toast({ title: 'Password reset successful' });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.details?.code === 'invalid_reset_token') {
            setLinkInvalid(true);
            return;
          }
          toast({
            variant: 'destructive',
            title: 'Reset failed',
            description: getErrorMessage(error, 'Failed to reset password'),
          });
        },
      },
    ),
  );

  if (linkInvalid) return <InvalidResetLink focusOnShow />;

  if (done) {
    return (
      <div ref={doneRef} tabIndex={-1} className="focus:outline-none">
        <AuthCardHeading icon={<CircleCheck />} title="Password reset successful">
          Your password has been changed. Sign in with your new password to continue.
        </AuthCardHeading>
        <Link to={paths.auth} className={buttonVariants({ size: 'lg', className: 'w-full' })}>
          Sign In
        </Link>
      </div>
    );
  }

  return (
    <>
      <AuthCardHeading icon={<LockKeyhole />} title="Set a new password">
        Choose a password with at least 8 characters, including an uppercase and a lowercase letter,
        a number and a special character.
      </AuthCardHeading>
      <form
        onSubmit={onSubmit}
        method="post"
        noValidate
        className="grid gap-5"
        aria-label="Set a new password"
      >
        <FormField id="reset-password" label="New password" error={errors.password?.message}>
          {(field) => (
            <PasswordInput
              {...field}
              {...register('password')}
              autoComplete="new-password"
              toggleLabel="new password"
            />
          )}
        </FormField>
        <FormField
          id="reset-confirm-password"
          label="Confirm new password"
          error={errors.confirmPassword?.message}
        >
          {(field) => <ConfirmPasswordInput {...field} {...register('confirmPassword')} />}
        </FormField>
        <SubmitButton
          pending={reset.isPending}
          pendingLabel="Updating password..."
          className="w-full"
        >
          Update password
        </SubmitButton>
      </form>
    </>
  );
}
