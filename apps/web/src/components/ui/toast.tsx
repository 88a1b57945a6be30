import * as ToastPrimitives from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import type { ComponentProps } from 'react';

import type { ToastVariant } from '@/hooks/use-toast';
import { cn } from '@/lib/utils';

export const ToastProvider = ToastPrimitives.Provider;

export function ToastViewport({
  className,
  ...props
}: ComponentProps<typeof ToastPrimitives.Viewport>) {
  return (
    <ToastPrimitives.Viewport
      className={cn(
        // At the top below lg, where the workspace's Validate bar docks at the bottom across the
        // whole width; bottom right beside it (it sits in the left column) from lg.
        'fixed right-0 top-0 z-[100] m-0 flex max-h-screen w-full list-none flex-col gap-2 p-4 outline-none sm:max-w-[420px] lg:bottom-0 lg:top-auto',
        className,
      )}
      {...props}
    />
  );
}

const variants: Record<ToastVariant, string> = {
  default: 'border-zinc-200 bg-white text-zinc-900',
  destructive: 'border-red-700 bg-red-700 text-white',
};

export function Toast({
  className,
  variant = 'default',
  ...props
}: ComponentProps<typeof ToastPrimitives.Root> & { variant?: ToastVariant }) {
  return (
    <ToastPrimitives.Root
      // Failures interrupt the screen reader; confirmations wait their turn.
      type={variant === 'destructive' ? 'foreground' : 'background'}
      data-variant={variant}
      className={cn(
        'toast group pointer-events-auto relative flex w-full items-start gap-3 overflow-hidden rounded-xl border p-4 pr-10 shadow-lg',
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}

export function ToastTitle({ className, ...props }: ComponentProps<typeof ToastPrimitives.Title>) {
  return <ToastPrimitives.Title className={cn('text-sm font-semibold', className)} {...props} />;
}

export function ToastDescription({
  className,
  ...props
}: ComponentProps<typeof ToastPrimitives.Description>) {
  return (
    <ToastPrimitives.Description
      className={cn(
        'text-sm text-zinc-700 group-data-[variant=destructive]:text-red-50',
        className,
      )}
      {...props}
    />
  );
}

export function ToastClose({ className, ...props }: ComponentProps<typeof ToastPrimitives.Close>) {
  return (
    <ToastPrimitives.Close
      aria-label="Close notification"
      className={cn(
        'absolute right-2 top-2 rounded-md p-1.5 text-zinc-500 transition-colors hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 group-data-[variant=destructive]:text-red-100 group-data-[variant=destructive]:hover:bg-red-800 group-data-[variant=destructive]:hover:text-white group-data-[variant=destructive]:focus-visible:ring-white',
        className,
      )}
      {...props}
    >
      <X aria-hidden="true" className="size-4" />
    </ToastPrimitives.Close>
  );
}
