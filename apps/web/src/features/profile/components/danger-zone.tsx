import { zodResolver } from '@hookform/resolvers/zod';
import { deleteAccountSchema } from '@schemacheck/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';

import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmActions } from '@/components/ui/confirm-dialog';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { clearSignedInUser } from '@/lib/auth';

import { useDeleteAccount } from '../api/delete-account';

function DeleteAccountForm() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const deletion = useDeleteAccount();
  const {
    register,
    handleSubmit,
    resetField,
    setError,
    setFocus,
    formState: { errors },
  } = useForm({ resolver: zodResolver(deleteAccountSchema), defaultValues: { password: '' } });

  const onSubmit = handleSubmit((values) =>
    deletion.mutate(values, {
      onSuccess: () => {
        navigate(paths.auth);
        clearSignedInUser(queryClient);
        toast({ title: 'Account Deleted' });
      },
      onError: (error) => {
        const message = getErrorMessage(
          error,
          'Failed to delete account. Please check your password.',
        );
        // The dialog is modal, so the toast outside it cannot take focus or clicks: the reason
        // is also written under the field, where keyboard and screen-reader users are.
        resetField('password');
        setError('password', { message });
        setFocus('password');
        toast({ variant: 'destructive', title: 'Deletion failed', description: message });
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <FormField id="delete-account-password" label="Password" error={errors.password?.message}>
        {(field) => (
          <PasswordInput
            {...field}
            {...register('password')}
            autoComplete="current-password"
            autoFocus
          />
        )}
      </FormField>
      <ConfirmActions
        confirmLabel="Delete account"
        pendingLabel="Deleting account..."
        pending={deletion.isPending}
      />
    </form>
  );
}

export function DangerZone() {
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby="danger-zone-heading">
      <Card variant="danger">
        <div className="flex flex-col gap-4 p-6 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex gap-3">
            <span
              aria-hidden="true"
              className="flex size-9 shrink-0 items-center justify-center rounded-full bg-red-50 text-red-700"
            >
              <TriangleAlert className="size-[18px]" />
            </span>
            <div>
              <h2 id="danger-zone-heading" className="text-base font-semibold text-zinc-900">
                Danger zone
              </h2>
              <p className="mt-1 max-w-xl text-sm text-zinc-600">
                Permanently delete your account, your saved schemas and your validation history.
                This cannot be undone.
              </p>
            </div>
          </div>
          <Dialog open={open} onOpenChange={setOpen}>
            <DialogTrigger asChild>
              <Button variant="destructive" className="sm:self-center">
                Delete account
              </Button>
            </DialogTrigger>
            <DialogContent>
              <DialogHeader>
                <DialogTitle>Delete your account?</DialogTitle>
                <DialogDescription>
                  This permanently deletes your account and everything in it, and cancels any active
                  subscription. Enter your password to confirm.
                </DialogDescription>
              </DialogHeader>
              {/* Mounted only while open, so the password never outlives the dialog. */}
              {open ? <DeleteAccountForm /> : null}
            </DialogContent>
          </Dialog>
        </div>
      </Card>
    </section>
  );
}
