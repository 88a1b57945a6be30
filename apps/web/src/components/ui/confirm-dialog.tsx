import type { ReactNode } from 'react';

import { Button, type ButtonVariant } from './button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from './dialog';
import { Spinner } from './spinner';

interface ConfirmActionsProps {
  confirmLabel: string;
  /** Shown on the confirm button while the action runs; the confirm label when left out. */
  pendingLabel?: string;
  cancelLabel?: string;
  pending: boolean;
  variant?: ButtonVariant;
  /** Disables the confirm button (e.g. until what it confirms is known). */
  disabled?: boolean;
  /** Without it the confirm button submits the dialog's form. */
  onConfirm?: () => void;
}

/** A confirmation dialog's footer: Cancel closes it; both are disabled while the action runs. */
export function ConfirmActions({
  confirmLabel,
  pendingLabel = confirmLabel,
  cancelLabel = 'Cancel',
  pending,
  variant = 'destructive',
  disabled = false,
  onConfirm,
}: ConfirmActionsProps) {
  return (
    <DialogFooter>
      <DialogClose asChild>
        <Button variant="outline" disabled={pending}>
          {cancelLabel}
        </Button>
      </DialogClose>
      <Button
        type={onConfirm ? 'button' : 'submit'}
        variant={variant}
        onClick={onConfirm}
        disabled={disabled || pending}
      >
        {pending ? <Spinner /> : null}
        {pending ? pendingLabel : confirmLabel}
      </Button>
    </DialogFooter>
  );
}

interface ConfirmDialogProps extends ConfirmActionsProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description: ReactNode;
}

/** Asks before an action that cannot be undone (revoking a key, deleting a webhook). */
export function ConfirmDialog({
  open,
  onClose,
  title,
  description,
  ...actions
}: ConfirmDialogProps) {
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <ConfirmActions {...actions} />
      </DialogContent>
    </Dialog>
  );
}
