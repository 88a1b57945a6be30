import { zodResolver } from '@hookform/resolvers/zod';
import { registerFormSchema, passwordChecks } from '@schemacheck/contracts';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';

import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';

import { useRegister } from '../api/register';

import { ConfirmPasswordInput, EmailInput, SubmitButton } from './form-parts';
import { PasswordChecklist } from './password-checklist';

const CHECKLIST_ID = 'register-password-checklist';

/** `onSignedIn` replaces the default of going to the dashboard (/auth's plan and return-to). */
export function RegisterForm({ onSignedIn }: { onSignedIn?: () => void } = {}) {
  const navigate = useNavigate();
  const registration = useRegister();
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isSubmitted },
  } = useForm({
    mode: 'onChange',
    resolver: zodResolver(registerFormSchema),
    defaultValues: { username: '', email: '', password: '', confirmPassword: '' },
  });
  const password = useWatch({ control, name: 'password' });
  const showChecklist = password.length > 0;
  // While the checklist is on screen it states the password rules item by item, so each is said
  // once: after a submit attempt the error line points at the list instead of repeating a rule;
  // a rule the checklist has no item for keeps its own message.
  const checklistCovers = showChecklist && passwordChecks.some((check) => !check.test(password));
  const passwordError = checklistCovers
    ? isSubmitted && errors.password
      ? 'Meet each password requirement listed.'
      : undefined
    : errors.password?.message;

  const onSubmit = handleSubmit(({ username, email, password }) =>
    registration.mutate(
      { username, email, password },
      {
        onSuccess: (response) => {
          const name = response.user?.username ?? username;
          toast({
            title: 'Registration successful',
            description: `Welcome, ${name}! Your account has been created.`,
          });
          if (onSignedIn) onSignedIn();
          else navigate(paths.dashboard);
        },
        onError: (error) => {
          toast({
            variant: 'destructive',
            title: 'Registration failed',
            description: getErrorMessage(error, 'Registration failed'),
          });
        },
      },
    ),
  );

  return (
    <form
      onSubmit={onSubmit}
      method="post"
      noValidate
      className="grid gap-4"
      aria-label="Create account"
    >
      <FormField id="register-username" label="Username" error={errors.username?.message}>
        {(field) => (
          <Input
            {...field}
            {...register('username')}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
          />
        )}
      </FormField>
      <FormField id="register-email" label="Email" error={errors.email?.message}>
        {(field) => <EmailInput {...field} {...register('email')} />}
      </FormField>
      <FormField
        id="register-password"
        label="Password"
        error={passwordError}
        describedBy={showChecklist ? CHECKLIST_ID : undefined}
        below={showChecklist ? <PasswordChecklist id={CHECKLIST_ID} password={password} /> : null}
      >
        {(field) => (
          <PasswordInput {...field} {...register('password')} autoComplete="new-password" />
        )}
      </FormField>
      <FormField
        id="register-confirm-password"
        label="Confirm password"
        error={errors.confirmPassword?.message}
      >
        {(field) => <ConfirmPasswordInput {...field} {...register('confirmPassword')} />}
      </FormField>
      <SubmitButton
        pending={registration.isPending}
        pendingLabel="Creating Account..."
        className="mt-1 w-full"
      >
        Create Account
      </SubmitButton>
    </form>
  );
}
