import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useRef, type ComponentProps } from 'react';

import { cn } from '@/lib/utils';

import { DialogOverlay } from './dialog';

// A dialog that slides in from the right edge: the narrow-screen navigation menu. It opens with
// focus on its Close button rather than on its first control, which in the signed-in menu could
// be Log out (one Enter away from signing out).

export const Sheet = DialogPrimitive.Root;
export const SheetTrigger = DialogPrimitive.Trigger;

export function SheetContent({
  className,
  children,
  onOpenAutoFocus,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content>) {
  const close = useRef<HTMLButtonElement>(null);
  return (
    <DialogPrimitive.Portal>
      <DialogOverlay />
      <DialogPrimitive.Content
        className={cn(
          'sheet fixed inset-y-0 right-0 z-50 flex h-full w-[300px] max-w-full flex-col gap-4 overflow-y-auto border-l border-zinc-200 bg-white p-6 shadow-xl focus:outline-none sm:w-[350px]',
          className,
        )}
        onOpenAutoFocus={(event) => {
          onOpenAutoFocus?.(event);
          if (event.defaultPrevented) return;
          event.preventDefault();
          close.current?.focus();
        }}
        {...props}
      >
        {children}
        <DialogPrimitive.Close
          ref={close}
          aria-label="Close menu"
          className="absolute right-4 top-4 rounded-md p-1.5 text-zinc-500 transition-colors hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          <X aria-hidden="true" className="size-5" />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export const SheetTitle = DialogPrimitive.Title;
export const SheetDescription = DialogPrimitive.Description;
