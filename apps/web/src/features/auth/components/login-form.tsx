import { zodResolver } from '@hookform/resolvers/zod';
import { loginSchema } from '@schemacheck/contracts';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';

import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';

import { useLogin } from '../api/login';

import { SubmitButton } from './form-parts';

/** `onSignedIn` replaces the default of going to the dashboard (/auth's plan and return-to). */
export function LoginForm({ onSignedIn }: { onSignedIn?: () => void } = {}) {
  const navigate = useNavigate();
  const login = useLogin();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(loginSchema),
    defaultValues: { usernameOrEmail: '', password: '' },
  });

  const onSubmit = handleSubmit((values) =>
    login.mutate(values, {
      onSuccess: (response) => {
        const name = response.user?.username ?? values.usernameOrEmail;
        toast({ title: 'Login successful', description: `Welcome back, ${name}!` });
        if (onSignedIn) onSignedIn();
        else navigate(paths.dashboard);
      },
      onError: (error) => {
        toast({
          variant: 'destructive',
          title: 'Login failed',
          description: getErrorMessage(error, 'Login failed'),
        });
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} method="post" noValidate className="grid gap-5" aria-label="Sign in">
      <FormField
        id="login-username-or-email"
        label="Username or email"
        error={errors.usernameOrEmail?.message}
      >
        {(control) => (
          <Input
            {...control}
            {...register('usernameOrEmail')}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="you@company.com"
          />
        )}
      </FormField>
      <FormField id="login-password" label="Password" error={errors.password?.message}>
        {(control) => (
          <PasswordInput {...control} {...register('password')} autoComplete="current-password" />
        )}
      </FormField>
      <div className="-mt-2 flex justify-end">
        <Link
          to={paths.forgotPassword}
          className="rounded-sm text-sm font-medium text-indigo-700 hover:text-indigo-800 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
        >
          Forgot your password?
        </Link>
      </div>
      <SubmitButton pending={login.isPending} pendingLabel="Signing In..." className="mt-1 w-full">
        Sign In
      </SubmitButton>
    </form>
  );
}
