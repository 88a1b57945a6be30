import { zodResolver } from '@hookform/resolvers/zod';
import { FORGOT_PASSWORD_MESSAGE, forgotPasswordSchema } from '@schemacheck/contracts';
import { ArrowLeft, KeyRound, MailCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';

import { Button, buttonVariants } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';

import { useForgotPassword } from '../api/forgot-password';

import { AuthCardHeading } from './auth-card-layout';
import { EmailInput, SubmitButton } from './form-parts';

function BackToSignIn() {
  return (
    <Link
      to={paths.auth}
      className={buttonVariants({ variant: 'ghost', className: 'w-full text-zinc-700' })}
    >
      <ArrowLeft aria-hidden="true" />
      Back to sign in
    </Link>
  );
}

export function ForgotPasswordForm() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const forgot = useForgotPassword();
  const headingRef = useRef<HTMLDivElement>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } });

  // Move focus to the confirmation so that keyboard and screen-reader users land on it.
  useEffect(() => {
    if (sentTo !== null) headingRef.current?.focus();
  }, [sentTo]);

  const onSubmit = handleSubmit((values) =>
    forgot.mutate(values, {
      onSuccess: () => {
        setSentTo(values.email);
        toast({ title: 'Reset link sent', description: FORGOT_PASSWORD_MESSAGE });
      },
      onError: (error) => {
        toast({
          variant: 'destructive',
          title: 'Error',
          description: getErrorMessage(error, 'Failed to send reset email'),
        });
      },
    }),
  );

  if (sentTo !== null) {
    return (
      <div ref={headingRef} tabIndex={-1} className="focus:outline-none">
        <AuthCardHeading icon={<MailCheck />} title="Check your email">
          {FORGOT_PASSWORD_MESSAGE}
        </AuthCardHeading>
        <p className="mb-6 text-sm leading-6 text-zinc-600">
          Didn&apos;t get an email within a few minutes? Check your spam folder, or try again with
          another address.
        </p>
        <div className="grid gap-2">
          <Button
            variant="outline"
            className="w-full"
            onClick={() => {
              forgot.reset();
              setSentTo(null);
            }}
          >
            Try again
          </Button>
          <BackToSignIn />
        </div>
      </div>
    );
  }

  return (
    <>
      <AuthCardHeading icon={<KeyRound />} title="Forgot your password?">
        Enter the email address of your account and we&apos;ll send you a link to choose a new
        password.
      </AuthCardHeading>
      <form
        onSubmit={onSubmit}
        method="post"
        noValidate
        className="grid gap-5"
        aria-label="Request password reset"
      >
        <FormField id="forgot-email" label="Email" error={errors.email?.message}>
          {(field) => <EmailInput {...field} {...register('email')} />}
        </FormField>
        <div className="grid gap-2">
          <SubmitButton
            pending={forgot.isPending}
            pendingLabel="Sending reset link..."
            className="w-full"
          >
            Send reset link
          </SubmitButton>
          <BackToSignIn />
        </div>
      </form>
    </>
  );
}
